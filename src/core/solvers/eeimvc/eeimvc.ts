/**
 * EEIMVC (Liu et al., "Efficient and Effective Regularized Incomplete Multi-view Clustering",
 * TPAMI 2021; code xinwangliu/TPAMI_EEIMVC, `incompleteLateFusionMKCOrthHp_lambda.m`), late
 * fusion of per-view base partitions whose missing rows are imputed. Shapes: n samples, V views,
 * k clusters; view p has n_p present samples P_p and n − n_p missing ones M_p.
 *
 * Start (`eeimvcStart`):
 *   K_p = Y_p·Y_pᵀ (n_p, n_p), the centred, normalised linear kernel of the present samples
 *         (kernels/factor.ts: an operator of O(nnz_p) per column, never formed);
 *   H_p (n, k): rows P_p = the top-k eigenvectors of K_p, rows M_p = 0;  W_p = I_k;
 *   β_p = (1/V)^(1/q);  H0 (n, k) = the top-k eigenvectors of Σ_p β_p·G_pᵀ·K_p·G_p.
 *   Eigenvectors by the block eigensolver on the operators, each
 *   column's sign fixed so its largest-|.| entry is positive (the first on ties): the portable
 *   rule of the reference's fixed-start fixture (the code's ARPACK signs are not portable).
 * Iteration t (`eeimvcIterate`), with R = Σ_p β_p·H_p·W_p + λ·H0 (n, k):
 *   1. H* = polar(R)                                  (U·Vᵀ of the thin SVD)
 *   2. W_p = polar(H_pᵀ·H*)                           (k, k)
 *   3. H_p[M_p] = polar(H*[M_p]·W_pᵀ); rows P_p stay the start's
 *   4. β_p = t_p^(1/(q−1)) / (Σ_p t_p^(q/(q−1)))^(1/q),  t_p = tr(H*ᵀ·H_p·W_p)
 *   5. obj_t = tr(H*ᵀ·R) with R rebuilt from the new H_p, W_p, β and this H*.
 * Stop after t > 2 when |obj_t − obj_{t−1}| / |obj_t| < tol, or at t = iterations (the code's
 * t > maxIter with maxIter = iterations − 1).
 * Output: H* with unit rows. Each iteration is O(n·k²·V): nothing n × n.
 */
import {
  centredUnitFactor,
  factorKernelOp,
  paddedKernelSumOp,
  type CentredUnitFactor,
} from '../../kernels/factor';
import { blockEig, type SymOp } from '../../linalg/blockeig';
import { matmul, matmulTA, polar } from '../../linalg/kernels';
import { fixColumnSigns } from '../../linalg/signs';
import type { Mat } from '../../linalg/types';
import { missingIndex } from '../../views/present';
import type { View } from '../../dataset';
import type { SolverStep } from '../types';

/** Residual tolerance of the start's eigensolves, relative to ‖K‖: the trace follows the vectors. */
export const EIG_TOL = 1e-12;

/** The top-k eigenpairs of `op` (descending), signs fixed by `fixColumnSigns`. */
export function topEigenvectors(
  op: SymOp,
  k: number,
): { values: Float64Array; vectors: Mat; converged: boolean } {
  const r = blockEig(op, k, { tol: EIG_TOL, maxIter: 1000 });
  fixColumnSigns(r.vectors);
  return { values: r.values, vectors: r.vectors, converged: r.converged };
}

/** The start of the iteration (see the file comment). */
export interface EeimvcStart {
  /** Per view, its present and missing samples (sorted). */
  readonly present: readonly Int32Array[];
  readonly missing: readonly Int32Array[];
  /** Per view, (n_p, k) the top-k eigenvectors of K_p: H_p's rows P_p, never changed. */
  readonly base: readonly Mat[];
  /** Per view, the top-k eigenvalues of K_p. */
  readonly baseValues: readonly Float64Array[];
  /** (n, k) the top-k eigenvectors of Σ_p β_p·G_pᵀ·K_p·G_p, and their eigenvalues. */
  readonly H0: Mat;
  readonly h0Values: Float64Array;
  /** (V,) the start's weights (1/V)^(1/q). */
  readonly beta: Float64Array;
  /** Every eigensolve met EIG_TOL (else the vectors of a near-tie at k are not determined). */
  readonly converged: boolean;
}

/** The kernel factors of unit-L2 views (the common input layer's `views`). O(Σ nnz_v). */
export function eeimvcFactors(views: readonly View[]): CentredUnitFactor[] {
  return views.map(centredUnitFactor);
}

/** The start from the kernel factors of the views. */
export function eeimvcStart(
  n: number,
  views: readonly View[],
  factors: readonly CentredUnitFactor[],
  k: number,
  qnorm: number,
): EeimvcStart {
  const V = views.length;
  const present = views.map((v) => v.present);
  const missing = present.map((p) => missingIndex(p, n));
  const base: Mat[] = [];
  const baseValues: Float64Array[] = [];
  let converged = true;
  for (const f of factors) {
    const e = topEigenvectors(factorKernelOp(f), k);
    base.push(e.vectors);
    baseValues.push(e.values);
    converged &&= e.converged;
  }
  const beta = new Float64Array(V).fill((1 / V) ** (1 / qnorm));
  const op = paddedKernelSumOp(
    n,
    factors.map((factor, p) => ({ factor, present: present[p]!, weight: beta[p]! })),
  );
  const h0 = topEigenvectors(op, k);
  return {
    present,
    missing,
    base,
    baseValues,
    H0: h0.vectors,
    h0Values: h0.values,
    beta,
    converged: converged && h0.converged,
  };
}

/** What the iteration returns. */
export interface EeimvcState {
  /** (n, k) the last H*. */
  readonly Hstar: Mat;
  readonly beta: Float64Array;
  readonly objective: number[];
  /** β after each iteration (the weights chart). */
  readonly betaTrace: number[][];
  readonly converged: boolean;
}

/** Options of the iteration (the schema's, resolved). */
export interface IterateOptions {
  readonly lambda: number;
  readonly qnorm: number;
  /** Cap on iterations, ≥ 3 (the code's maxIter + 1). */
  readonly iterations: number;
  readonly tol: number;
}

/** HW[p] = H_p·W_p (n, k) for every view. */
function products(H: readonly Mat[], W: readonly Mat[], HW: readonly Mat[]): void {
  H.forEach((Hp, p) => matmul(Hp, W[p]!, HW[p]!));
}

/** R = Σ_p β_p·HW[p] + λ·H0 into `R` (n, k), from `products`. */
function combine(HW: readonly Mat[], beta: Float64Array, lambda: number, H0: Mat, R: Mat): void {
  const r = R.data;
  const h0 = H0.data;
  for (let i = 0; i < r.length; i++) r[i] = lambda * h0[i]!;
  HW.forEach((M, p) => {
    const b = beta[p]!;
    const hw = M.data;
    for (let i = 0; i < r.length; i++) r[i]! += b * hw[i]!;
  });
}

/** tr(Aᵀ·B) for A, B of one shape. */
function traceTA(A: Mat, B: Mat): number {
  let s = 0;
  for (let i = 0; i < A.data.length; i++) s += A.data[i]! * B.data[i]!;
  return s;
}

/** out (|rows|, k) ← M[rows, :]. */
function gather(M: Mat, rows: Int32Array, out: Mat): Mat {
  const k = M.cols;
  for (let r = 0; r < rows.length; r++) {
    out.data.set(M.data.subarray(rows[r]! * k, (rows[r]! + 1) * k), r * k);
  }
  return out;
}

/**
 * The alternating iteration from `start` (see the file comment), one step per iteration.
 * Memory: 2V + 3 arrays of (n, k) and 2 of (n − n_p, k) per view, allocated once (polar's
 * results aside); work per iteration O(n·k²·V).
 */
export function* eeimvcIterate(
  start: EeimvcStart,
  n: number,
  k: number,
  o: IterateOptions,
): Generator<SolverStep, EeimvcState, void> {
  const V = start.base.length;
  const H: Mat[] = start.base.map((B, p) => {
    const data = new Float64Array(n * k);
    const P = start.present[p]!;
    for (let r = 0; r < P.length; r++) data.set(B.data.subarray(r * k, (r + 1) * k), P[r]! * k);
    return { rows: n, cols: k, data };
  });
  const W: Mat[] = Array.from({ length: V }, () => {
    const data = new Float64Array(k * k);
    for (let a = 0; a < k; a++) data[a * k + a] = 1;
    return { rows: k, cols: k, data };
  });
  let beta = Float64Array.from(start.beta);
  const R: Mat = { rows: n, cols: k, data: new Float64Array(n * k) };
  // H_p·W_p per view, shared by the traces t_p and R.
  const HW: Mat[] = H.map(() => ({ rows: n, cols: k, data: new Float64Array(n * k) }));
  const HtH: Mat = { rows: k, cols: k, data: new Float64Array(k * k) };
  // Step 3's H*[M_p] and H*[M_p]·W_pᵀ per view, and W_pᵀ.
  const missingRows: Mat[] = start.missing.map((M) => ({
    rows: M.length,
    cols: k,
    data: new Float64Array(M.length * k),
  }));
  const rotated: Mat[] = start.missing.map((M) => ({
    rows: M.length,
    cols: k,
    data: new Float64Array(M.length * k),
  }));
  const Wt: Mat = { rows: k, cols: k, data: new Float64Array(k * k) };
  products(H, W, HW);
  combine(HW, beta, o.lambda, start.H0, R);
  const objective: number[] = [];
  const betaTrace: number[][] = [];
  const q = o.qnorm;
  for (let t = 1; ; t++) {
    const Hstar = polar(R);
    for (let p = 0; p < V; p++) W[p] = polar(matmulTA(H[p]!, Hstar, HtH));
    for (let p = 0; p < V; p++) {
      const M = start.missing[p]!;
      if (M.length === 0) continue;
      transpose(W[p]!, Wt);
      const Q = polar(matmul(gather(Hstar, M, missingRows[p]!), Wt, rotated[p]!));
      const h = H[p]!.data;
      for (let r = 0; r < M.length; r++) h.set(Q.data.subarray(r * k, (r + 1) * k), M[r]! * k);
    }
    products(H, W, HW);
    const tp = HW.map((M) => traceTA(Hstar, M));
    const norm = tp.reduce((a, x) => a + x ** (q / (q - 1)), 0) ** (1 / q);
    beta = Float64Array.from(tp, (x) => x ** (1 / (q - 1)) / norm);
    combine(HW, beta, o.lambda, start.H0, R);
    const obj = traceTA(Hstar, R);
    objective.push(obj);
    betaTrace.push(Array.from(beta));
    const values: Record<string, number> = {};
    beta.forEach((b, p) => (values[`beta${p + 1}`] = b));
    yield { stage: 'solve', iteration: t, objective: obj, values };
    if (t <= 2) continue;
    const converged = Math.abs((obj - objective[t - 2]!) / obj) < o.tol;
    if (converged || t >= o.iterations) return { Hstar, beta, objective, betaTrace, converged };
  }
}

/** out ← Mᵀ for a small square M. */
function transpose(M: Mat, out: Mat): void {
  const k = M.rows;
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) out.data[b * k + a] = M.data[a * k + b]!;
}
