/**
 * The factorised H-step of all V views, shared between the solver's thread and the helper
 * threads of `core/parallel` when a host installed them (the views are independent given the
 * previous iterate). The views are claimed one at a time from a counter in shared memory, by
 * whichever thread is free (how long a view takes varies from pass to pass, so a fixed split
 * leaves one thread waiting for the other). Every thread keeps a `HViewSolver` per view and one
 * set of buffers (`ViewWork`) for the whole solve: a helper receives the graphs once, in the first pass's task, and afterwards per pass q_v, F_cat
 * (n × Vc), which it prepares itself, and the T-step's spectra (≈ n·Vc + m·V² values), from
 * which it makes ΔP_v (n × Vc) of each view it claims (the T-step's step 5 for it; this thread
 * does the same for its own). Having solved a view, the same thread finishes it: q_v (in place),
 * F̄_v, the graph term and F̄_v's spectra (the next T-step's step 1), written into the solver's
 * arrays (shared memory when there are helpers), so only a few numbers come back. Each view is
 * computed by the same code on whichever thread claims it, so the result has the same bits with
 * or without helpers, and whatever the claims.
 */
import { runChunks, type ThreadPool } from '../../parallel';
import type { Csr, Mat } from '../../linalg/types';
import { ColumnWork, createRealFftPlan, type RealFftPlan } from '../../fft';
import {
  fcatNorms,
  graphTerm,
  HViewSolver,
  normaliseInto,
  packFactor,
  viewWork,
  type FcatNorms,
  type PackedFactor,
  type ViewWork,
} from './hstep';
import { deltaPInto, forwardView, type DeltaPSpectra, type FactorisedTensor } from './tensor';

/** One view's H-step as the solver needs it (the eigenvectors stay where they were computed). */
export interface HViewOut {
  /** The view. */
  readonly view: number;
  /** Products with G_v, and whether the eigensolver met its tolerance. */
  readonly products: number;
  readonly converged: boolean;
  /** ½λ‖L_v − H_vH_vᵀ‖². */
  readonly graph: number;
  /** Rows of H_v that were zero (q = 0 used). */
  readonly zeroRows: number;
}

/**
 * View v's H-step and what follows it on the same thread: H_v from `solver`, then q_v ← 1/‖h_i‖
 * (in place: only this view's solve reads q_v), F̄_v = diag(q_v)·H_v into `Fv`, the graph term,
 * and `spectrum(Fv)`, F̄_v's DFT for the next T-step.
 */
function solveView(
  solver: HViewSolver,
  L2: number,
  q: Float64Array,
  Fcat: Mat | null,
  packedFcat: PackedFactor | null,
  norms: FcatNorms | null,
  dP: Mat | null,
  Fv: Mat,
  spectrum: (Fv: Mat) => void,
): HViewOut {
  const r = solver.solve(q, Fcat, packedFcat, dP, norms);
  const zeroRows = normaliseInto(r.vectors, q, Fv);
  const graph = graphTerm(solver.lambda, solver.L, L2, r.vectors, r.trace);
  spectrum(Fv);
  return { view: solver.v, products: r.products, converged: r.converged, graph, zeroRows };
}

/** Input of the helper task 'cgl.hstep' (`core/tasks.ts`). */
export interface HStepTaskInput {
  /** The solve this pass belongs to; a new token starts a new session on the helper. */
  readonly token: number;
  /** Which helper (its session). */
  readonly helper: number;
  /** With the first pass of a solve: every view's graph and the constants. */
  readonly setup?: {
    readonly L: readonly Csr[];
    /** ‖L_v‖²_F. */
    readonly L2: readonly number[];
    readonly V: number;
    readonly c: number;
    readonly lambda: number;
    readonly eigTol: number;
  };
  /**
   * The pass's claim counter (shared memory): a thread takes view Atomics.add(claim, 0, 1) until
   * that reaches V.
   */
  readonly claim: Int32Array;
  /** Per view: q_v (n,), replaced by the new q_v. */
  readonly q: readonly Float64Array[];
  /** Per view: where F̄_v (n × c) and its spectra G_v (2m × c) go. */
  readonly Fnext: readonly Float64Array[];
  readonly Gnext: readonly Float64Array[];
  /** F_cat (n × Vc) of the previous iterate; null on the first pass. */
  readonly Fcat: Mat | null;
  /**
   * The last T-step's spectra, from which the helper makes ΔP_v (n × Vc) of its views itself
   * (`deltaPInto`); null on the first pass.
   */
  readonly spectra: DeltaPSpectra | null;
}

interface Session {
  readonly V: number;
  readonly c: number;
  readonly solvers: HViewSolver[];
  readonly L2: readonly number[];
  packedFcat: PackedFactor | null;
  norms: FcatNorms | null;
  /** ΔP_v of the view being solved, and what `deltaPInto` works in. */
  readonly dP: Mat;
  readonly plan: RealFftPlan;
  readonly work: ColumnWork;
  readonly h: Float64Array;
}

/**
 * The helper's sessions, by token and helper: one solve at a time (a new token replaces the
 * others). More than one only when a pool runs the tasks of several broken helpers on one thread.
 */
const sessions = new Map<string, Session>();
const sessionKey = (token: number, helper: number): string => `${token}:${helper}`;

/** How many sessions this thread holds (for tests: a finished or abandoned solve leaves none). */
export function openSessions(): number {
  return sessions.size;
}

/** Runs one pass of the helper: the body of the task 'cgl.hstep'. */
export function hstepTask(input: HStepTaskInput): HViewOut[] {
  const key = sessionKey(input.token, input.helper);
  if (input.setup) {
    const { L, L2, V, c, lambda, eigTol } = input.setup;
    const n = L[0]!.rows;
    const w = V * c;
    const plan = createRealFftPlan(n);
    const shared = viewWork(n, c);
    for (const k of sessions.keys()) if (!k.startsWith(`${input.token}:`)) sessions.delete(k);
    sessions.set(key, {
      V,
      c,
      solvers: L.map((Lv, v) => new HViewSolver(Lv, v, c, lambda, eigTol, shared)),
      L2,
      packedFcat: null,
      norms: null,
      dP: { rows: n, cols: w, data: new Float64Array(n * w) },
      plan,
      work: new ColumnWork(),
      h: new Float64Array(2 * plan.bins * w),
    });
  }
  const s = sessions.get(key);
  if (!s) {
    throw new Error(`cgl.hstep: no session ${input.token} on this helper (its setup was lost)`);
  }
  const sp = input.spectra;
  if (input.Fcat) {
    s.packedFcat = packFactor(input.Fcat, s.packedFcat);
    s.norms = fcatNorms(input.Fcat, s.c, s.norms);
  }
  const n = s.dP.rows;
  const out: HViewOut[] = [];
  for (let v = Atomics.add(input.claim, 0, 1); v < s.V; v = Atomics.add(input.claim, 0, 1)) {
    if (sp) deltaPInto(v, s.V, s.c, s.plan, sp, s.h, s.work, s.dP.data);
    const Fv: Mat = { rows: n, cols: s.c, data: input.Fnext[v]! };
    const G = input.Gnext[v]!;
    out.push(
      solveView(
        s.solvers[v]!,
        s.L2[v]!,
        input.q[v]!,
        input.Fcat,
        s.packedFcat,
        s.norms,
        sp ? s.dP : null,
        Fv,
        (F) => forwardView(s.plan, s.work, F, G),
      ),
    );
  }
  return out;
}

/** Ends the helper's session `token` (the task 'cgl.end'): its graphs and buffers can go. */
export function endTask(token: number): number[] {
  for (const k of sessions.keys()) if (k.startsWith(`${token}:`)) sessions.delete(k);
  return [];
}

let tokens = 0;

/** The solver thread's side: its views' solvers, the claim counter, the helpers' tasks. */
export class HStepViews {
  private readonly token = ++tokens;
  private readonly local: HViewSolver[];
  private readonly chunks: number;
  private readonly claim: Int32Array;
  private packedFcat: PackedFactor | null = null;
  private norms: FcatNorms | null = null;
  private started = false;

  constructor(
    private readonly L: readonly Csr[],
    private readonly L2: Float64Array,
    private readonly c: number,
    private readonly lambda: number,
    private readonly eigTol: number,
    private readonly pool: ThreadPool | null,
  ) {
    const V = L.length;
    const shared: ViewWork = viewWork(L[0]!.rows, c);
    this.local = L.map((Lv, v) => new HViewSolver(Lv, v, c, lambda, eigTol, shared));
    // The helpers only when there are views to share and memory they can share the claims in.
    this.chunks =
      pool && V > 1 && typeof SharedArrayBuffer === 'function' ? Math.min(V, pool.helpers + 1) : 1;
    this.claim = new Int32Array(this.chunks > 1 ? new SharedArrayBuffer(4) : new ArrayBuffer(4));
  }

  /**
   * Tells the helpers the solve is over (their sessions are dropped). `cglIterate` calls it when
   * the solve ends, fails or is abandoned (its generator closed early).
   */
  end(): void {
    if (!this.started || this.chunks === 1) return;
    runChunks(
      this.pool,
      this.chunks,
      'cgl.end',
      () => this.token,
      () => [],
    );
  }

  /**
   * One pass: every view's H-step from q_v and the previous F_cat (null on the first pass) and
   * the last T-step of `ft` (none on the first pass), whose ΔP_v the thread that claims a view
   * makes first (this thread through `ft.deltaP(v)`, a helper from `ft.spectra()`); then the
   * view's q_v (in place), F̄_v (into `Fnext[v]`) and spectra (`ft.nextSpectra()`). Returns the V
   * outcomes in view order.
   */
  run(
    q: readonly Float64Array[],
    Fcat: Mat | null,
    ft: FactorisedTensor,
    Fnext: readonly Mat[],
  ): HViewOut[] {
    const first = Fcat === null;
    const Gnext = ft.nextSpectra();
    const V = this.L.length;
    const setup = !this.started;
    this.started = true;
    Atomics.store(this.claim, 0, 0);
    const outs = runChunks(
      this.pool,
      this.chunks,
      'cgl.hstep',
      (t): HStepTaskInput => ({
        token: this.token,
        helper: t - 1,
        ...(setup
          ? {
              setup: {
                L: this.L,
                L2: Array.from(this.L2),
                V,
                c: this.c,
                lambda: this.lambda,
                eigTol: this.eigTol,
              },
            }
          : {}),
        claim: this.claim,
        q,
        Fnext: Fnext.map((F) => F.data),
        Gnext,
        Fcat,
        spectra: first ? null : ft.spectra(),
      }),
      () => {
        if (Fcat) {
          this.packedFcat = packFactor(Fcat, this.packedFcat);
          this.norms = fcatNorms(Fcat, this.c, this.norms);
        }
        const mine: HViewOut[] = [];
        for (let v = Atomics.add(this.claim, 0, 1); v < V; v = Atomics.add(this.claim, 0, 1)) {
          mine.push(
            solveView(
              this.local[v]!,
              this.L2[v]!,
              q[v]!,
              Fcat,
              this.packedFcat,
              this.norms,
              first ? null : ft.deltaP(v),
              Fnext[v]!,
              (F) => ft.viewSpectrum(v, F),
            ),
          );
        }
        return mine;
      },
    );
    const byView: HViewOut[] = new Array<HViewOut>(V);
    for (const o of outs) byView[o.view] = o;
    return byView;
  }
}
