/**
 * The factorised H-step of all V views, split over the solver's thread and the helper threads of
 * `core/parallel` when a host installed them (the views are independent given the previous
 * iterate). Views are dealt in contiguous chunks: chunk 0 to the solver's thread, chunk t to
 * helper t − 1. Each side keeps its views' `HViewSolver`s (their packed storage) for the whole
 * solve: a helper receives its views' graphs once, in the first pass's task, and afterwards per
 * pass q_v, F_cat (n × Vc), which it packs itself, and the T-step's spectra (≈ n·Vc + m·V²
 * values), from which it makes ΔP_v (n × Vc) of its views (the T-step's step 5 for them; this
 * thread does the same for its own). Having solved a view, the same thread finishes it: q_v (in
 * place), F̄_v, the graph term and F̄_v's spectra (the next T-step's step 1), written into the
 * solver's arrays (shared memory when there are helpers), so only a few numbers come back.
 * Each view is computed by the same code on either side, so the result has the same bits with
 * or without helpers.
 */
import { chunkBounds, runChunks, type ThreadPool } from '../../parallel';
import type { Csr, Mat } from '../../linalg/types';
import { ColumnWork, createRealFftPlan, type RealFftPlan } from '../../fft';
import { graphTerm, HViewSolver, normaliseInto, packFactor, type PackedFactor } from './hstep';
import { deltaPInto, forwardView, type DeltaPSpectra, type FactorisedTensor } from './tensor';

/** One view's H-step as the solver needs it (the eigenvectors stay where they were computed). */
export interface HViewOut {
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
  dP: Mat | null,
  Fv: Mat,
  spectrum: (Fv: Mat) => void,
): HViewOut {
  const r = solver.solve(q, Fcat, packedFcat, dP);
  const zeroRows = normaliseInto(r.vectors, q, Fv);
  const graph = graphTerm(solver.lambda, solver.L, L2, r.vectors, r.trace);
  spectrum(Fv);
  return { products: r.products, converged: r.converged, graph, zeroRows };
}

/** Input of the helper task 'cgl.hstep' (`core/tasks.ts`). */
export interface HStepTaskInput {
  /** The solve this pass belongs to; a new token starts a new session on the helper. */
  readonly token: number;
  /** With the first pass of a solve: the graphs of `views` and the constants. */
  readonly setup?: {
    readonly L: readonly Csr[];
    /** ‖L_v‖²_F of `views`. */
    readonly L2: readonly number[];
    readonly V: number;
    readonly c: number;
    readonly lambda: number;
    readonly eigTol: number;
  };
  /** The views of this helper, ascending. */
  readonly views: readonly number[];
  /** Per view of `views`: q_v (n,), replaced by the new q_v. */
  readonly q: readonly Float64Array[];
  /** Per view of `views`: where F̄_v (n × c) and its spectra G_v (2m × c) go. */
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
  readonly views: readonly number[];
  readonly V: number;
  readonly c: number;
  readonly solvers: HViewSolver[];
  readonly L2: readonly number[];
  packedFcat: PackedFactor | null;
  /** ΔP_v of the session's views, and what `deltaPInto` works in. */
  readonly dP: Mat[];
  readonly plan: RealFftPlan;
  readonly work: ColumnWork;
  readonly h: Float64Array;
}

/**
 * The helper's sessions, by token and views: one solve at a time (a new token replaces the
 * others). More than one only when a pool runs the tasks of several broken helpers on one thread.
 */
const sessions = new Map<string, Session>();
const sessionKey = (token: number, views: readonly number[]): string =>
  `${token}:${views.join(',')}`;

/** How many sessions this thread holds (for tests: a finished or abandoned solve leaves none). */
export function openSessions(): number {
  return sessions.size;
}

/** Runs one pass of the helper's views: the body of the task 'cgl.hstep'. */
export function hstepTask(input: HStepTaskInput): HViewOut[] {
  if (input.setup) {
    const { L, L2, V, c, lambda, eigTol } = input.setup;
    const n = L[0]!.rows;
    const w = V * c;
    const plan = createRealFftPlan(n);
    for (const k of sessions.keys()) if (!k.startsWith(`${input.token}:`)) sessions.delete(k);
    sessions.set(sessionKey(input.token, input.views), {
      views: input.views,
      V,
      c,
      solvers: input.views.map((v, i) => new HViewSolver(L[i]!, v, c, lambda, eigTol)),
      L2,
      packedFcat: null,
      dP: input.views.map(() => ({ rows: n, cols: w, data: new Float64Array(n * w) })),
      plan,
      work: new ColumnWork(),
      h: new Float64Array(2 * plan.bins * w),
    });
  }
  const s = sessions.get(sessionKey(input.token, input.views));
  if (!s) {
    throw new Error(`cgl.hstep: no session ${input.token} on this helper (its setup was lost)`);
  }
  const sp = input.spectra;
  if (input.Fcat) s.packedFcat = packFactor(input.Fcat, s.packedFcat);
  const n = s.dP[0]!.rows;
  return s.solvers.map((solver, i) => {
    if (sp) deltaPInto(s.views[i]!, s.V, s.c, s.plan, sp, s.h, s.work, s.dP[i]!.data);
    const Fv: Mat = { rows: n, cols: s.c, data: input.Fnext[i]! };
    const G = input.Gnext[i]!;
    return solveView(
      solver,
      s.L2[i]!,
      input.q[i]!,
      input.Fcat,
      s.packedFcat,
      sp ? s.dP[i]! : null,
      Fv,
      (F) => forwardView(s.plan, s.work, F, G),
    );
  });
}

/** Ends the helper's session `token` (the task 'cgl.end'): its graphs and buffers can go. */
export function endTask(token: number): number[] {
  for (const k of sessions.keys()) if (k.startsWith(`${token}:`)) sessions.delete(k);
  return [];
}

let tokens = 0;

/** The solver thread's side: its own views' solvers and the helpers' shares. */
export class HStepViews {
  private readonly token = ++tokens;
  private readonly bounds: number[];
  private readonly local: HViewSolver[];
  private packedFcat: PackedFactor | null = null;
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
    this.bounds = pool && V > 1 ? chunkBounds(V, pool.helpers + 1) : [0, V];
    this.local = [];
    for (let v = 0; v < this.bounds[1]!; v++)
      this.local.push(new HViewSolver(L[v]!, v, c, lambda, eigTol));
  }

  /**
   * Tells the helpers the solve is over (their sessions are dropped). `cglIterate` calls it when
   * the solve ends, fails or is abandoned (its generator closed early).
   */
  end(): void {
    if (!this.started) return;
    runChunks(
      this.pool,
      this.bounds.length - 1,
      'cgl.end',
      () => this.token,
      () => [],
    );
  }

  /**
   * One pass: every view's H-step from q_v and the previous F_cat (null on the first pass) and
   * the last T-step of `ft` (none on the first pass), whose ΔP_v each thread makes for its views
   * first (this thread through `ft.deltaP(v)`, the helpers from `ft.spectra()`), side by side;
   * then each view's q_v (in place), F̄_v (into `Fnext[v]`) and spectra (`ft.nextSpectra()`).
   * Returns the V outcomes in view order.
   */
  run(
    q: readonly Float64Array[],
    Fcat: Mat | null,
    ft: FactorisedTensor,
    Fnext: readonly Mat[],
  ): HViewOut[] {
    const first = Fcat === null;
    const Gnext = ft.nextSpectra();
    const { bounds, pool } = this;
    const range = (t: number): number[] =>
      Array.from({ length: bounds[t + 1]! - bounds[t]! }, (_, i) => bounds[t]! + i);
    const setup = !this.started;
    this.started = true;
    return runChunks(
      pool,
      bounds.length - 1,
      'cgl.hstep',
      (t): HStepTaskInput => {
        const views = range(t);
        return {
          token: this.token,
          ...(setup
            ? {
                setup: {
                  L: views.map((v) => this.L[v]!),
                  L2: views.map((v) => this.L2[v]!),
                  V: this.L.length,
                  c: this.c,
                  lambda: this.lambda,
                  eigTol: this.eigTol,
                },
              }
            : {}),
          views,
          q: views.map((v) => q[v]!),
          Fnext: views.map((v) => Fnext[v]!.data),
          Gnext: views.map((v) => Gnext[v]!),
          Fcat,
          spectra: first ? null : ft.spectra(),
        };
      },
      () => {
        if (Fcat) this.packedFcat = packFactor(Fcat, this.packedFcat);
        return this.local.map((solver, v) =>
          solveView(
            solver,
            this.L2[v]!,
            q[v]!,
            Fcat,
            this.packedFcat,
            first ? null : ft.deltaP(v),
            Fnext[v]!,
            (F) => ft.viewSpectrum(v, F),
          ),
        );
      },
    );
  }
}
