/**
 * The MLRSSC iteration (Brbić and Kopriva, "Multi-view low-rank sparse subspace clustering",
 * Pattern Recognition 2018), kernelised and noisy, in the reference code's update order
 * (../shared/specs/baselines-graph.md §3): per view A, C2 (sparse), C1 (low rank), C3
 * (agreement), the multipliers; the centroid C* after all views; an absolute max-abs stop test.
 *
 * K[v]: (n, n) symmetric kernels → C (n, n) and the per-iteration residuals and μ.
 * 'fast' (default): (K + 3μI)⁻¹ from one eigendecomposition of each K per solve, two GEMMs per
 * application and one once μ is final, or the thin (Woodbury) route when K = X·Xᵀ with d ≤ n/2
 * (inverse.ts); the singular-value threshold through the eigendecomposition of BᵀB where its
 * accuracy test allows, else the Golub–Kahan SVD (prox/svt-gram.ts), and in the first iteration
 * from the kernels' eigenpairs where their accuracy allows (inverse.ts); with a helper thread, the
 * views' thresholds shared, the helper taking each view as soon as this thread has prepared it
 * (a view's threshold reads only its own A and Λ3; the same bits as on one thread); the
 * multipliers once every threshold is in; the pairwise sum over the other views from a
 * running prefix (no copy of the C2); buffers allocated once per solve (footprint.ts counts them).
 * 'dense': Cholesky of K + 3μI every iteration and a full SVD per threshold (dense.ts, the
 * reference's arithmetic, kept for tests).
 */
import type { Mat } from '../../linalg/types';
import { claimEach, float64Array, threadPool } from '../../parallel';
import { gramVerdict, svtGramInto, svtGramWork, type SvtGramWork } from '../../prox/svt-gram';
import { mlrsscDense, multiplierStep, svtInto, type ViewIterates } from './dense';
import { kernelInverse } from './inverse';

export interface MlrsscOptions {
  readonly variant: 'pairwise' | 'centroid';
  readonly lambda1: number;
  readonly lambda2: number;
  readonly lambda3: number;
  readonly mu0: number;
  readonly maxMu: number;
  readonly rho: number;
  readonly iterations: number;
  readonly tolerance: number;
  readonly path: 'fast' | 'dense';
  /**
   * Optional, fast path only: factors[v] = X_v (n, d_v) when K_v = X_v·X_vᵀ (the linear
   * kernel), so the inverse takes the thin route when d_v ≤ n/2.
   */
  readonly factors?: readonly (Mat | null)[];
  /**
   * Fast path only: 'gram' (default) the eigendecomposition of BᵀB where its accuracy test
   * allows (prox/svt-gram.ts: the extra rounding at most a bounded multiple of the SVD's error
   * bound, the kept set decided without doubt), the Golub–Kahan SVD elsewhere; 'svd' the SVD for
   * every threshold. The Gram route costs about half the SVD at n = 169–400 (the SVD's
   * bidiagonalisation is bandwidth-bound).
   */
  readonly svt?: 'svd' | 'gram';
}

export interface MlrsscResult {
  /** (n, n) mean of the C2 (pairwise) or the centroid C*. */
  readonly C: Mat;
  /** Per view, the final sparse C2 and the rank of the final C1. */
  readonly C2: readonly Mat[];
  readonly rankC1: readonly number[];
  /** mu[t]: μ used in iteration t. */
  readonly mu: readonly number[];
  /** residuals[t] = [max|A−C1|, max|A−C2|, max|A−C3|, max|A−A_prev|], each the max over views. */
  readonly residuals: readonly (readonly [number, number, number, number])[];
  readonly iterations: number;
  readonly converged: boolean;
  /** Thresholds done by the SVD (the Gram route's guard declined, or svt: 'svd'), of V·iterations. */
  readonly svdFallbacks: number;
}

const square = (n: number): Mat => ({ rows: n, cols: n, data: new Float64Array(n * n) });

/** n² below which the views' thresholds stay on this thread (a helper's round trip costs more). */
const PARALLEL_MIN = 64 * 64;

/** One ADMM iteration's record: its μ and residuals (as MlrsscResult's traces). */
export interface MlrsscIteration {
  readonly iteration: number;
  readonly mu: number;
  readonly residuals: readonly [number, number, number, number];
}

/**
 * Runs MLRSSC on the kernels K (all n × n), one step per iteration (the caller may stop between
 * steps); returns the result after the last.
 */
export function* mlrsscSteps(
  K: readonly Mat[],
  o: MlrsscOptions,
): Generator<MlrsscIteration, MlrsscResult, void> {
  return o.path === 'dense' ? yield* mlrsscDense(K, o) : yield* mlrsscFast(K, o);
}

/** Runs MLRSSC on the kernels K (all n × n) to the end. */
export function mlrssc(K: readonly Mat[], o: MlrsscOptions): MlrsscResult {
  const steps = mlrsscSteps(K, o);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** What one view's threshold returns: the kept rank, whether the SVD ran, the next try's route. */
export interface ThresholdOutcome {
  readonly rank: number;
  readonly svd: boolean;
  /** Whether the next threshold of this view should try the Gram route. */
  readonly tryGram: boolean;
}

/**
 * C1 = SVT(X, τ) into out for one view: the Gram route when `gram` (and a work is given) and its
 * accuracy test passes, else the Golub–Kahan SVD, whose spectrum decides whether the view's next
 * threshold (at nextTau) tries the Gram route. The same function on the solver's thread and in a
 * helper (`thresholdTask`), so the bits do not depend on where it ran.
 */
export function thresholdInto(
  X: Mat,
  tau: number,
  nextTau: number,
  gram: boolean,
  work: SvtGramWork | null,
  out: Mat,
  sv: Float64Array,
): ThresholdOutcome {
  const r = work && gram ? svtGramInto(X, tau, out, work) : -1;
  if (r >= 0) return { rank: r, svd: false, tryGram: true };
  const rank = svtInto(X, tau, out, sv);
  if (!work) return { rank, svd: true, tryGram: false };
  const n = X.rows;
  for (let i = 0; i < n; i++) sv[i] = sv[i]! * sv[i]!;
  return { rank, svd: true, tryGram: gramVerdict(sv, nextTau, n) >= 0 };
}

/**
 * Input of the helper task 'mlrssc.thresholds': the thresholds of one iteration that the helper
 * claims. Every array is in shared memory. The helper reads A_v and Λ3_v of a view once the
 * solver thread has prepared it, forms the argument A_v + Λ3_v/μ in its own buffer and writes
 * C1_v in place.
 */
export interface ThresholdsTaskInput {
  readonly n: number;
  readonly mu: number;
  readonly tau: number;
  readonly nextTau: number;
  /** Per view: A_v, Λ3_v and C1_v (n, n). */
  readonly a: readonly Float64Array[];
  readonly l3: readonly Float64Array[];
  readonly c1: readonly Float64Array[];
  /** Per view, whether its threshold tries the Gram route. */
  readonly gram: readonly boolean[];
  /** Whether the solve uses the Gram route at all (svt: 'gram'). */
  readonly gramRoute: boolean;
  /** The views to threshold, ascending (the order in which they are prepared). */
  readonly order: readonly number[];
  /** [claim counter, number of views prepared, stop flag] (see `claimThresholds`). */
  readonly sync: Int32Array;
}

/** Slots of `ThresholdsTaskInput.sync` after the claim counter (slot 0). */
const PREPARED = 1;
const STOP = 2;

/** The helper's buffers, kept between the tasks of a solve and dropped by 'mlrssc.end'. */
let helperWork: { n: number; work: SvtGramWork; sv: Float64Array; x: Float64Array } | null = null;

/**
 * The threshold argument X = A + Λ3/μ of a view into x, and its threshold into c1 (see
 * `thresholdInto`); the same arithmetic on either thread.
 */
function thresholdView(
  n: number,
  a: Float64Array,
  l3: Float64Array,
  mu: number,
  x: Float64Array,
  input: Pick<ThresholdsTaskInput, 'tau' | 'nextTau' | 'gramRoute'>,
  gram: boolean,
  work: SvtGramWork | null,
  c1: Float64Array,
  sv: Float64Array,
): ThresholdOutcome {
  const nn = n * n;
  for (let i = 0; i < nn; i++) x[i] = a[i]! + l3[i]! / mu;
  const sq = (data: Float64Array): Mat => ({ rows: n, cols: n, data });
  return thresholdInto(sq(x), input.tau, input.nextTau, gram, work, sq(c1), sv);
}

/**
 * The thresholds this thread claims: each claimed view, once the solver thread has prepared it
 * (sync[PREPARED] > view; the helper sleeps on that slot meanwhile), thresholded with x as the
 * argument's buffer. Stops early when sync[STOP] is set (the solver thread failed).
 */
function claimThresholds(
  input: ThresholdsTaskInput,
  x: Float64Array,
  work: SvtGramWork | null,
  sv: Float64Array,
): [number, ThresholdOutcome][] {
  const { sync } = input;
  // Slot 0 of sync is `claimEach`'s counter.
  const done = claimEach({ order: input.order, claim: sync }, (v) => {
    for (;;) {
      if (Atomics.load(sync, STOP) !== 0) return null;
      const prepared = Atomics.load(sync, PREPARED);
      if (prepared > v) break;
      Atomics.wait(sync, PREPARED, prepared);
    }
    return thresholdView(
      input.n,
      input.a[v]!,
      input.l3[v]!,
      input.mu,
      x,
      input,
      input.gram[v]!,
      work,
      input.c1[v]!,
      sv,
    );
  });
  return done.filter((d): d is [number, ThresholdOutcome] => d[1] !== null);
}

/** A helper's share of an MLRSSC iteration: the thresholds it claims (see `claimThresholds`). */
export function thresholdsTask(input: ThresholdsTaskInput): [number, ThresholdOutcome][] {
  const { n } = input;
  if (!helperWork || helperWork.n !== n) {
    helperWork = null;
    helperWork = {
      n,
      work: svtGramWork(n),
      sv: new Float64Array(n),
      x: new Float64Array(n * n),
    };
  }
  const w = helperWork;
  return claimThresholds(input, w.x, input.gramRoute ? w.work : null, w.sv);
}

/** The end of a solve whose thresholds a helper shared: the helper drops its buffers. */
export function endTask(): boolean {
  helperWork = null;
  return true;
}

function* mlrsscFast(
  K: readonly Mat[],
  o: MlrsscOptions,
): Generator<MlrsscIteration, MlrsscResult, void> {
  const V = K.length;
  const n = K[0]!.rows;
  const nn = n * n;
  const inverse = kernelInverse(K, o.factors, (m) => m >= o.maxMu || o.rho <= 1);
  // With a helper thread, the views' thresholds are shared between this thread and the helper:
  // within an iteration a view's threshold reads only its own A and Λ3, and no view's update
  // reads another's C1 or multipliers, so this thread prepares every view in turn (A, C3, C2;
  // C3 reads the other views' C2) while the helper thresholds the views already prepared; this
  // thread then claims the thresholds left, and the multipliers follow. A, Λ3 and C1 live in
  // shared memory. The bits do not depend on which thread thresholded which view.
  const pool =
    V >= 2 && nn >= PARALLEL_MIN && typeof SharedArrayBuffer === 'function' ? threadPool() : null;
  const shared = pool !== null;
  const sharedSquare = (): Mat => ({ rows: n, cols: n, data: float64Array(nn, shared) });
  const A = K.map(() => sharedSquare());
  const C1 = K.map(() => sharedSquare());
  const C2 = K.map(() => square(n));
  const C3 = K.map(() => square(n));
  const L2 = K.map(() => square(n));
  const L3 = K.map(() => sharedSquare());
  const L4 = K.map(() => square(n));
  // Cstar (centroid) or the sum Σ_w C2_w of the previous iteration (pairwise).
  const S = square(n);
  // The right-hand side of the inverse, the pairwise sum, then this thread's threshold argument.
  const B = square(n);
  // The new A, before it is compared with the old and copied over it.
  const spare = square(n);
  const sync = new Int32Array(shared ? new SharedArrayBuffer(12) : new ArrayBuffer(12));
  const gramRoute = (o.svt ?? 'gram') === 'gram';
  const work = gramRoute ? svtGramWork(n) : null;
  const tryGram = new Array<boolean>(V).fill(true);
  const sv = new Float64Array(n);
  const rankC1 = new Array<number>(V).fill(0);
  const muTrace: number[] = [];
  const residuals: [number, number, number, number][] = [];
  let mu = o.mu0;
  let converged = false;
  let fallbacks = 0;
  let t = 0;
  const { lambda1, lambda2, lambda3 } = o;
  const pairwise = o.variant === 'pairwise';
  /** View v's C1, C2, C3, Λ2, Λ3, Λ4 arrays. */
  const iterates = (v: number): ViewIterates => ({
    c1: C1[v]!.data,
    c2: C2[v]!.data,
    c3: C3[v]!.data,
    l2: L2[v]!.data,
    l3: L3[v]!.data,
    l4: L4[v]!.data,
  });
  /** The view's A (res[3] raised to max|A − A_prev|), C3 and C2. */
  const prepare = (v: number, res: number[]): void => {
    const { c1, c2, c3, l2, l3, l4 } = iterates(v);
    const k = K[v]!.data;
    const s = S.data;
    const b = B.data;
    for (let i = 0; i < nn; i++) {
      b[i] = k[i]! + mu * c2[i]! - l2[i]! + mu * c1[i]! - l3[i]! + mu * c3[i]! - l4[i]!;
    }
    inverse.apply(v, mu, B, spare);
    const a = A[v]!.data;
    const sp = spare.data;
    let r4 = 0;
    for (let i = 0; i < nn; i++) {
      r4 = Math.max(r4, Math.abs(sp[i]! - a[i]!));
      a[i] = sp[i]!;
    }
    res[3] = Math.max(res[3]!, r4);
    // C3 before C2_v changes. Pairwise, the other views' old C2 are summed in the reference's
    // order, w = 0, 1, … skipping v: the prefix over w < v (kept in s, as C2_w is overwritten)
    // plus the views w > v, not yet updated; then C2_v joins the prefix.
    const den = pairwise ? 2 * lambda3 * (V - 1) + mu : 2 * lambda3 + mu;
    if (pairwise) {
      // The sum in B (free until the threshold's argument): the prefix, then each later view.
      b.set(s.subarray(0, nn));
      for (let w = v + 1; w < V; w++) {
        const cw = C2[w]!.data;
        for (let i = 0; i < nn; i++) b[i]! += cw[i]!;
      }
      for (let i = 0; i < nn; i++) {
        c3[i] = (2 * lambda3 * b[i]! + mu * a[i]! + l4[i]!) / den;
        s[i]! += c2[i]!;
      }
    } else {
      for (let i = 0; i < nn; i++) c3[i] = (2 * lambda3 * s[i]! + mu * a[i]! + l4[i]!) / den;
    }
    // C2 = soft(A + Λ2/μ, λ2/μ), zero diagonal.
    const s2 = lambda2 / mu;
    for (let i = 0; i < nn; i++) {
      const y = a[i]! + l2[i]! / mu;
      c2[i] = y > s2 ? y - s2 : y < -s2 ? y + s2 : 0;
    }
    for (let i = 0; i < n; i++) c2[i * n + i] = 0;
  };
  /** The view's multipliers and residuals, once C1 is in. */
  const finish = (v: number, out: ThresholdOutcome, res: number[]): void => {
    if (out.svd) fallbacks++;
    tryGram[v] = out.tryGram;
    rankC1[v] = out.rank;
    multiplierStep(A[v]!.data, null, iterates(v), mu, res);
  };
  try {
    while (t < o.iterations) {
      t++;
      muTrace.push(mu);
      const res: [number, number, number, number] = [0, 0, 0, 0];
      // Pairwise: S is the prefix Σ_{w<v} C2_w of the old C2 (see prepare).
      if (pairwise) S.data.fill(0);
      const tau = lambda1 / mu;
      const nextTau = lambda1 / Math.min(mu * o.rho, o.maxMu);
      // The Gram route only once μ is final: while μ grows, τ = λ1/μ is larger and the route's
      // extra rounding (within its test's bound) shows in the early residuals the reference
      // tests compare at 1e-9 (KMLRSSC on 3Sources: 1e-7 at iteration 7); the SVD keeps those
      // at its own accuracy.
      const final = mu >= o.maxMu || o.rho <= 1;
      // The first iteration's thresholds from the kernels' eigenpairs where they allow
      // (inverse.ts), planned before any view is prepared; the others by SVT of A + Λ3/μ.
      const first = t === 1 ? K.map((_, v) => inverse.firstThreshold(v, mu, tau)) : null;
      const outcomes = new Array<ThresholdOutcome>(V);
      const order = K.map((_, v) => v).filter((v) => !first?.[v]);
      const input: ThresholdsTaskInput = {
        n,
        mu,
        tau,
        nextTau,
        a: A.map((m) => m.data),
        l3: L3.map((m) => m.data),
        c1: C1.map((m) => m.data),
        gram: tryGram.map((g) => g && final),
        gramRoute,
        order,
        sync,
      };
      sync.fill(0);
      const helping = pool !== null && order.length >= 2;
      if (helping) pool.start(0, 'mlrssc.thresholds', input);
      let mine: [number, ThresholdOutcome][] = [];
      let error: unknown = null;
      try {
        for (let v = 0; v < V; v++) {
          prepare(v, res);
          const closed = first?.[v];
          if (closed) {
            const rank = closed(C1[v]!, sv);
            const tryNext = work !== null && gramVerdict(sv, nextTau, n) >= 0;
            outcomes[v] = { rank, svd: false, tryGram: tryNext };
          }
          Atomics.store(sync, PREPARED, v + 1);
          if (helping) Atomics.notify(sync, PREPARED);
        }
        mine = claimThresholds(input, B.data, work, sv);
      } catch (e) {
        error = e;
        Atomics.store(sync, STOP, 1);
        if (helping) Atomics.notify(sync, PREPARED);
      }
      const theirs = helping ? (pool.finish(0) as [number, ThresholdOutcome][]) : [];
      if (error !== null) throw error;
      for (const [v, out] of [...mine, ...theirs]) outcomes[v] = out;
      for (let v = 0; v < V; v++) finish(v, outcomes[v]!, res);
      if (!pairwise) {
        // C* = (C* + λ3 Σ_v C2_v) / (V λ3): the reference adds the previous centroid; kept.
        const s = S.data;
        for (let i = 0; i < nn; i++) {
          let sum = 0;
          for (let v = 0; v < V; v++) sum += C2[v]!.data[i]!;
          s[i] = (s[i]! + lambda3 * sum) / (V * lambda3);
        }
      }
      residuals.push(res);
      yield { iteration: t, mu, residuals: res };
      mu = Math.min(mu * o.rho, o.maxMu);
      if (res.every((x) => x <= o.tolerance)) {
        converged = true;
        break;
      }
    }
  } finally {
    if (pool) {
      pool.start(0, 'mlrssc.end', null);
      pool.finish(0);
    }
  }
  // The result reuses the spare buffer (pairwise: the mean of the C2).
  let C: Mat;
  if (!pairwise) C = S;
  else {
    C = spare;
    C.data.fill(0);
    for (let v = 0; v < V; v++) {
      const c2 = C2[v]!.data;
      for (let i = 0; i < nn; i++) C.data[i]! += c2[i]! / V;
    }
  }
  return {
    C,
    C2,
    rankC1,
    mu: muTrace,
    residuals,
    iterations: t,
    converged,
    svdFallbacks: fallbacks,
  };
}

/** The affinity |C| + |Cᵀ| (n, n). */
export function affinity(C: Mat): Mat {
  const n = C.rows;
  const out = square(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      out.data[i * n + j] = Math.abs(C.data[i * n + j]!) + Math.abs(C.data[j * n + i]!);
  return out;
}
