/**
 * DAIMC's start, the reference's `newinit` (specs/baselines-incomplete.md §3), on the unit-L2
 * views of the common input layer. Per view v:
 *   1. X̂_v (n, d_v): the view with each missing sample set to the mean of its present ones
 *      (used for the start only; the iterations see zeros there, weighted out);
 *   2. labels y_v and centroids C_v (k, d_v): k-means of X̂_v (the reference: `litekmeans`,
 *      20 replicates), or, for a fixed start, given labels and C_v their class means in X̂_v;
 *   3. U_v = C_vᵀ + 0.1 (d_v, k);  H_v = onehot(y_v) + 0.1 (n, k).
 * Then V = (1/V)·Σ_v H_v, Q = diag(column sums of V), V ← V·Q⁻¹, U_v ← U_v·Q, and
 *   B_v = (1e-5·I + U_v·U_vᵀ)⁻¹·U_v = U_v·(1e-5·I + U_vᵀ·U_v)⁻¹
 * (push-through identity: a k × k solve, where the reference writes the d_v × d_v Woodbury form).
 * Cost per view O(n·d_v) for the fill plus the k-means; memory one filled view at a time.
 */
import { kmeans } from '../../cluster/kmeans';
import { choleskyFactor, choleskySolve } from '../../linalg/kernels';
import { transposeInto } from '../../linalg/dense';
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import type { IncompleteInput } from '../../views/incomplete-input';
import { unitMeanFilled } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import type { SolverStep } from '../types';

/** The reference's start offset added to the centroids and the one-hot labels. */
const OFFSET = 0.1;
/** The ridge of the start's B_v (the reference's `lamda`). */
const START_RIDGE = 1e-5;

/** How the start labels of each view are found. */
export type DaimcStart =
  | {
      /** k-means of each mean-filled view (k-means++, `replicates` starts, lowest SSE kept). */
      readonly kind: 'kmeans';
      readonly replicates: number;
      readonly maxIterations: number;
      readonly rng: Rng;
    }
  | {
      /** Given labels (n,), 0..k−1, the same for every view: the fixed-start fixture's rule. */
      readonly kind: 'labels';
      readonly labels: Int32Array;
    };

/** The state the iterations start from. */
export interface DaimcState {
  /** (n, k) consensus coefficients, nonnegative. */
  readonly V: Mat;
  /** Per view (d_v, k) bases. */
  readonly U: Mat[];
  /** Per view (d_v, k) alignment regressions. */
  readonly B: Mat[];
}

/** C (k, d) class means of the rows of X (n, d) under `labels`; throws for an empty class. */
function classMeans(X: Mat, labels: Int32Array, k: number): Mat {
  const d = X.cols;
  const C = new Float64Array(k * d);
  const count = new Float64Array(k);
  for (let i = 0; i < X.rows; i++) {
    const c = labels[i]!;
    count[c]!++;
    for (let j = 0; j < d; j++) C[c * d + j]! += X.data[i * d + j]!;
  }
  for (let c = 0; c < k; c++) {
    if (count[c] === 0) throw new SolverInputError(`daimc: start label ${c} has no sample`);
    for (let j = 0; j < d; j++) C[c * d + j]! /= count[c]!;
  }
  return { rows: k, cols: d, data: C };
}

/**
 * B = U·(ridge·I + UᵀU)⁻¹ scaled per row: with w (d,) the diagonal of W (positive), returns
 * B = W·U·(I + UᵀW·U)⁻¹ = (W⁻¹ + U·Uᵀ)⁻¹·U. `ridge`·I + UᵀU is the case W = I/ridge
 * (then B = U·(ridge·I + UᵀU)⁻¹). O(d·k²).
 */
export function alignedRegression(U: Mat, w: Float64Array): Mat {
  const { rows: d, cols: k } = U;
  const M = new Float64Array(k * k);
  for (let i = 0; i < d; i++) {
    const o = i * k;
    for (let a = 0; a < k; a++) {
      const ua = w[i]! * U.data[o + a]!;
      for (let b = 0; b <= a; b++) M[a * k + b]! += ua * U.data[o + b]!;
    }
  }
  for (let a = 0; a < k; a++) {
    M[a * k + a]! += 1;
    for (let b = 0; b < a; b++) M[b * k + a] = M[a * k + b]!;
  }
  // Bᵀ = M⁻¹·(W·U)ᵀ.
  const WUt = transposeInto(U);
  for (let a = 0; a < k; a++) for (let i = 0; i < d; i++) WUt.data[a * d + i]! *= w[i]!;
  const Bt = choleskySolve(choleskyFactor({ rows: k, cols: k, data: M }), WUt);
  return transposeInto(Bt);
}

/**
 * The start (U_v, V, B_v) of the module comment, for the views of `input` (unit-L2, missing
 * samples absent); yields ('start', v) after each view's clustering. Every view must have a
 * present sample (checked by the caller).
 */
export function* daimcStart(
  input: IncompleteInput,
  k: number,
  start: DaimcStart,
): Generator<SolverStep, DaimcState, void> {
  const { n } = input;
  const nv = input.views.length;
  const V = new Float64Array(n * k);
  const U: Mat[] = [];
  for (const [v, view] of input.views.entries()) {
    const X = unitMeanFilled(view, n).filled;
    let labels: Int32Array;
    let C: Mat;
    if (start.kind === 'labels') {
      labels = start.labels;
      C = classMeans(X, labels, k);
    } else {
      const r = kmeans(
        X,
        k,
        { replicates: start.replicates, maxIterations: start.maxIterations },
        start.rng.fork(`start-view-${v + 1}`),
      );
      labels = r.labels;
      C = r.centers;
    }
    const d = view.d;
    const Uv = transposeInto(C);
    for (let p = 0; p < d * k; p++) Uv.data[p]! += OFFSET;
    U.push(Uv);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) V[i * k + c]! += (c === labels[i] ? 1 : 0) + OFFSET;
    }
    yield { stage: 'start', iteration: v + 1, objective: null };
  }
  for (let p = 0; p < n * k; p++) V[p]! /= nv;
  const Vm: Mat = { rows: n, cols: k, data: V };
  normalizeColumns(Vm, U);
  const ridge = U.map((Uv) => new Float64Array(Uv.rows).fill(1 / START_RIDGE));
  return { V: Vm, U, B: U.map((Uv, v) => alignedRegression(Uv, ridge[v]!)) };
}

/**
 * Q = diag(column sums of V): V ← V·Q⁻¹ and every U_v ← U_v·Q (U_v·Vᵀ unchanged). Returns the
 * column sums. O((n + Σ d_v)·k).
 */
export function normalizeColumns(V: Mat, U: readonly Mat[]): Float64Array {
  const { rows: n, cols: k } = V;
  const q = new Float64Array(k);
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) q[c]! += V.data[i * k + c]!;
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) V.data[i * k + c]! /= q[c]!;
  for (const Uv of U) {
    for (let i = 0; i < Uv.rows; i++) for (let c = 0; c < k; c++) Uv.data[i * k + c]! *= q[c]!;
  }
  return q;
}
