/**
 * A view whose missing samples are filled with the mean of its present samples, used as a
 * linear operator without forming the filled matrix (the fill MIC's model and DAIMC's start
 * read; views/incomplete-input.ts `unitMeanFilled` is the dense form):
 *
 *   X̂: (n, d),  X̂[i, :] = X[r, :] if i = present[r],  μ otherwise   (μ = mean of the rows of X)
 *   X̂·B  = Gᵀ·(X·B) + m·(μᵀB)          B: (d, k) → (n, k)
 *   X̂ᵀ·A = Xᵀ·(G·A) + μ·(mᵀA)          A: (n, k) → (d, k)
 *
 * with G the (n_v, n) row selector of the present samples and m the 0/1 indicator of the
 * missing ones. A CSR view stays CSR: each product costs O(nnz·k + (n + d)·k) instead of
 * O(n·d·k), and nothing of size n × d is allocated. A dense view is packed for GEMM once (X and
 * Xᵀ, 2·n_v·d doubles), so the many thin products of an iterative method do not repack it.
 */
import type { View } from '../dataset';
import { gemmPacked, packLhs, spmm, transposeCsr, type PackedLhs } from '../linalg/kernels';
import type { Csr } from '../linalg/types';
import type { Mat } from '../linalg/types';
import { viewMean } from '../solvers/impute';

export interface MeanFilledOp {
  readonly n: number;
  readonly d: number;
  /** The view (its present rows; CSR when sparse enough, see `SPARSE_SHARE`). */
  readonly view: View;
  /** (d,) μ, the mean of the present rows. */
  readonly mean: Float64Array;
  /** The missing samples, ascending. */
  readonly missing: Int32Array;
  /** (n,) ‖X̂[i, :]‖² per sample. */
  readonly rowSqNorms: Float64Array;
  /** A dense view's X and Xᵀ packed once for GEMM (null for CSR). */
  readonly packed: { readonly X: PackedLhs; readonly XT: PackedLhs } | null;
  /** A CSR view's Xᵀ (d, n_v), so Xᵀ·A gathers rows instead of scattering them. */
  readonly transposed: Csr | null;
}

/**
 * A dense view stored as CSR when at most this share of its values is non-zero: its products
 * then cost O(nnz·k) (text views such as NGs hold about 2 % non-zeros).
 */
export const SPARSE_SHARE = 0.1;

/** `view` with dense values turned into CSR when they are sparse enough (`SPARSE_SHARE`). */
function sparseIfWorth(view: View): View {
  const x = view.values;
  if (x.kind !== 'dense') return view;
  const m = view.present.length;
  const d = view.d;
  let nz = 0;
  for (let p = 0; p < m * d; p++) if (x.data[p] !== 0) nz++;
  if (nz > SPARSE_SHARE * m * d) return view;
  const indptr = new Int32Array(m + 1);
  const indices = new Int32Array(nz);
  const data = new Float64Array(nz);
  let q = 0;
  for (let r = 0; r < m; r++) {
    for (let j = 0; j < d; j++) {
      const a = x.data[r * d + j]!;
      if (a !== 0) {
        indices[q] = j;
        data[q++] = a;
      }
    }
    indptr[r + 1] = q;
  }
  return { ...view, values: { kind: 'csr', rows: m, cols: d, indptr, indices, data } };
}

/**
 * The operator of `view` filled to n rows with its mean (a sparse enough dense view is held as
 * CSR). O(n_v·d + n) for a dense view, O(nnz + n + d) for a CSR one.
 */
export function meanFilledOp(given: View, n: number): MeanFilledOp {
  const view = sparseIfWorth(given);
  const d = view.d;
  const mean = viewMean(view);
  let mm = 0;
  for (let j = 0; j < d; j++) mm += mean[j]! * mean[j]!;
  const rowSqNorms = new Float64Array(n).fill(mm);
  const x = view.values;
  const isPresent = new Uint8Array(n);
  for (let r = 0; r < view.present.length; r++) {
    let s = 0;
    if (x.kind === 'dense') {
      for (let j = r * d; j < (r + 1) * d; j++) s += x.data[j]! * x.data[j]!;
    } else {
      for (let p = x.indptr[r]!; p < x.indptr[r + 1]!; p++) s += x.data[p]! * x.data[p]!;
    }
    const i = view.present[r]!;
    rowSqNorms[i] = s;
    isPresent[i] = 1;
  }
  const missing = new Int32Array(n - view.present.length);
  for (let i = 0, q = 0; i < n; i++) if (!isPresent[i]) missing[q++] = i;
  const packed = x.kind === 'dense' ? { X: packLhs(x), XT: packLhs(x, true) } : null;
  const transposed = x.kind === 'csr' ? transposeCsr(x) : null;
  return { n, d, view, mean, missing, rowSqNorms, packed, transposed };
}

/** Scratch of `filledTimes` / `filledTimesT` for k columns: (n_v, k). */
export function filledWork(op: MeanFilledOp, k: number): Mat {
  const m = op.view.present.length;
  return { rows: m, cols: k, data: new Float64Array(m * k) };
}

/** out (n, k) = X̂·B for B (d, k); `work` from `filledWork`. O(nnz·k + (n + d)·k). */
export function filledTimes(op: MeanFilledOp, B: Mat, out: Mat, work: Mat): Mat {
  const k = B.cols;
  const x = op.view.values;
  if (op.packed) gemmPacked(op.packed.X, B, work);
  else if (x.kind === 'dense') throw new Error('filledTimes: a dense view without its packing');
  else spmm(x, B, work);
  const o = out.data;
  const wd = work.data;
  const present = op.view.present;
  // Row copies by index: a subarray per row would allocate n_v views per product.
  for (let r = 0; r < present.length; r++) {
    const at = present[r]! * k;
    for (let c = 0; c < k; c++) o[at + c] = wd[r * k + c]!;
  }
  if (op.missing.length > 0) {
    const mB = new Float64Array(k);
    for (let j = 0; j < op.d; j++) {
      const mj = op.mean[j]!;
      if (mj === 0) continue;
      for (let c = 0; c < k; c++) mB[c]! += mj * B.data[j * k + c]!;
    }
    for (const i of op.missing) for (let c = 0; c < k; c++) o[i * k + c] = mB[c]!;
  }
  return out;
}

/** out (d, k) = X̂ᵀ·A for A (n, k); `work` from `filledWork`. O(nnz·k + (n + d)·k). */
export function filledTimesT(op: MeanFilledOp, A: Mat, out: Mat, work: Mat): Mat {
  const k = A.cols;
  const present = op.view.present;
  const wd = work.data;
  const a = A.data;
  for (let r = 0; r < present.length; r++) {
    const at = present[r]! * k;
    for (let c = 0; c < k; c++) wd[r * k + c] = a[at + c]!;
  }
  if (op.packed) gemmPacked(op.packed.XT, work, out);
  else spmm(op.transposed!, work, out);
  if (op.missing.length > 0) {
    const s = new Float64Array(k);
    for (const i of op.missing) for (let c = 0; c < k; c++) s[c]! += A.data[i * k + c]!;
    const o = out.data;
    for (let j = 0; j < op.d; j++) {
      const mj = op.mean[j]!;
      if (mj === 0) continue;
      for (let c = 0; c < k; c++) o[j * k + c]! += mj * s[c]!;
    }
  }
  return out;
}
