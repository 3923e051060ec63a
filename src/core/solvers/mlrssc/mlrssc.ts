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
 * accuracy guard allows, else the Golub–Kahan SVD (prox/svt-gram.ts); the pairwise sum over the
 * other views from a
 * running prefix (no copy of the C2); buffers allocated once per solve (footprint.ts counts them).
 * 'dense': Cholesky of K + 3μI every iteration and a full SVD per threshold (dense.ts, the
 * reference's arithmetic, kept for tests).
 */
import type { Mat } from '../../linalg/types';
import { gramVerdict, svtGramInto, svtGramWork } from '../../prox/svt-gram';
import { mlrsscDense, svtInto } from './dense';
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
   * Fast path only: 'gram' (default) the eigendecomposition of BᵀB where its accuracy guard
   * allows (prox/svt-gram.ts: the extra rounding at most a bounded multiple of the SVD's, the
   * kept set decided without doubt), the Golub–Kahan SVD elsewhere; 'svd' the SVD for every
   * threshold. The Gram route costs about a third of the SVD at n = 169–400 (the SVD's
   * bidiagonalisation is bandwidth-bound); taken only once μ is final (see the loop).
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

function* mlrsscFast(
  K: readonly Mat[],
  o: MlrsscOptions,
): Generator<MlrsscIteration, MlrsscResult, void> {
  const V = K.length;
  const n = K[0]!.rows;
  const nn = n * n;
  const inverse = kernelInverse(K, o.factors, (m) => m >= o.maxMu || o.rho <= 1);
  const A = K.map(() => square(n));
  const C1 = K.map(() => square(n));
  const C2 = K.map(() => square(n));
  const C3 = K.map(() => square(n));
  const L2 = K.map(() => square(n));
  const L3 = K.map(() => square(n));
  const L4 = K.map(() => square(n));
  // Cstar (centroid) or the sum Σ_w C2_w of the previous iteration (pairwise).
  const S = square(n);
  const B = square(n);
  let Anew = square(n);
  const work = (o.svt ?? 'gram') === 'gram' ? svtGramWork(n) : null;
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
  while (t < o.iterations) {
    t++;
    muTrace.push(mu);
    const res: [number, number, number, number] = [0, 0, 0, 0];
    const s = S.data;
    // Pairwise: s is the prefix Σ_{w<v} C2_w of the old C2 (see C3 below).
    if (pairwise) s.fill(0);
    for (let v = 0; v < V; v++) {
      const c1 = C1[v]!.data;
      const c2 = C2[v]!.data;
      const c3 = C3[v]!.data;
      const l2 = L2[v]!.data;
      const l3 = L3[v]!.data;
      const l4 = L4[v]!.data;
      const k = K[v]!.data;
      const b = B.data;
      for (let i = 0; i < nn; i++) {
        b[i] = k[i]! + mu * c2[i]! - l2[i]! + mu * c1[i]! - l3[i]! + mu * c3[i]! - l4[i]!;
      }
      // A into the spare buffer; the old A stays for max|A − A_prev|, then the two swap.
      inverse(v, mu, B, Anew);
      const Aprev = A[v]!;
      A[v] = Anew;
      Anew = Aprev;
      const a = A[v]!.data;
      const ap = Aprev.data;
      // C3 before C2_v changes. Pairwise, the other views' old C2 are summed in the reference's
      // order, w = 0, 1, … skipping v: the prefix over w < v (kept in s, as C2_w is overwritten)
      // plus the views w > v, not yet updated; then C2_v joins the prefix.
      const den = pairwise ? 2 * lambda3 * (V - 1) + mu : 2 * lambda3 + mu;
      if (pairwise) {
        // The sum in B (free until C1's argument): the prefix, then each later view in turn.
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
        const x = a[i]! + l2[i]! / mu;
        c2[i] = x > s2 ? x - s2 : x < -s2 ? x + s2 : 0;
      }
      for (let i = 0; i < n; i++) c2[i * n + i] = 0;
      // C1 = SVT(A + Λ3/μ, λ1/μ).
      for (let i = 0; i < nn; i++) b[i] = a[i]! + l3[i]! / mu;
      // The Gram route when the last spectrum of this view passed its guard, else the SVD,
      // whose spectrum decides the next try (at the next μ's threshold). Only once μ is final:
      // while μ grows, τ = λ1/μ is larger and the route's extra rounding (within the guard's
      // bound) shows in the early residuals the reference tests compare at 1e-9; the SVD keeps
      // those at its own accuracy.
      const gramNow = tryGram[v]! && (mu >= o.maxMu || o.rho <= 1);
      let r = work && gramNow ? svtGramInto(B, lambda1 / mu, C1[v]!, work) : -1;
      if (r < 0) {
        fallbacks++;
        r = svtInto(B, lambda1 / mu, C1[v]!, sv);
        if (work) {
          for (let i = 0; i < n; i++) sv[i] = sv[i]! * sv[i]!;
          tryGram[v] = gramVerdict(sv, lambda1 / Math.min(mu * o.rho, o.maxMu), n) >= 0;
        }
      } else tryGram[v] = true;
      rankC1[v] = r;
      let r1 = 0;
      let r2 = 0;
      let r3 = 0;
      let r4 = 0;
      for (let i = 0; i < nn; i++) {
        const x = a[i]!;
        const d1 = x - c1[i]!;
        const d2 = x - c2[i]!;
        const d3 = x - c3[i]!;
        l2[i]! += mu * d2;
        l3[i]! += mu * d1;
        l4[i]! += mu * d3;
        r1 = Math.max(r1, Math.abs(d1));
        r2 = Math.max(r2, Math.abs(d2));
        r3 = Math.max(r3, Math.abs(d3));
        r4 = Math.max(r4, Math.abs(x - ap[i]!));
      }
      res[0] = Math.max(res[0], r1);
      res[1] = Math.max(res[1], r2);
      res[2] = Math.max(res[2], r3);
      res[3] = Math.max(res[3], r4);
    }
    if (!pairwise) {
      // C* = (C* + λ3 Σ_v C2_v) / (V λ3): the reference adds the previous centroid; kept.
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
  // The result reuses the spare buffer (pairwise: the mean of the C2).
  let C: Mat;
  if (!pairwise) C = S;
  else {
    C = Anew;
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
