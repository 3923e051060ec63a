/**
 * The k nearest anchors of each sample, by squared Euclidean distance, with MATLAB's stable-sort
 * tie rule: `[~, idx] = sort(D, 2); idx(:, 1:k)` on D = EuDist2(X, A, 0), so among equal
 * distances the anchor listed first wins. Anchor-graph methods (APMC's `getSim`, and any method
 * that links samples to a set of anchor rows) build their sparse sample-to-anchor matrix from it.
 *
 *   X: (n, d) samples, A: (m, d) anchors, D_ij = max(‖x_i‖² + ‖a_j‖² − 2·x_i·a_j, 0)
 *   → index (n, k) anchor positions, nearest first; dist (n, k) their D_ij; total Σ_ij D_ij.
 *
 * D is computed in row blocks through GEMM (into one block buffer), so memory is O(block·m + n·k),
 * never n × m; time O(n·m·d) for the products and O(n·m) for the selection (a sorted insertion
 * into k slots, taken only by a distance strictly below the current k-th: a later anchor never
 * displaces an equal earlier one). `total` is the sum of the whole D the reference averages for
 * its bandwidth, accumulated block by block.
 */
import { matmulTB } from '../linalg/kernels';
import { rowSquaredNorms } from '../linalg/rows';
import { transposeCsr } from '../linalg/sparse';
import type { Csr, Mat } from '../linalg/types';

export interface AnchorNeighbours {
  /** (n·k) row-major anchor positions 0..m−1, nearest first, ties by the lower position. */
  readonly index: Int32Array;
  /** (n·k) the squared distances of those anchors. */
  readonly dist: Float64Array;
  /** Σ over all n·m squared distances (after the clamp at 0). */
  readonly total: number;
}

/** Rows per distance block: keeps the (block, m) distance array near a few MiB. */
function blockRows(m: number): number {
  return Math.max(1, Math.min(1024, Math.floor((1 << 19) / Math.max(1, m))));
}

/**
 * Keeps the k smallest of D[from .. from + m) in index/dist[off .. off + k), nearest first: a
 * sorted insertion taken only by a distance strictly below the current k-th, after every kept
 * distance ≤ it, so equal distances stay in anchor order. Returns the row's sum.
 */
function selectRow(
  D: Float64Array,
  from: number,
  m: number,
  k: number,
  index: Int32Array,
  dist: Float64Array,
  off: number,
): number {
  let sum = 0;
  let filled = 0;
  for (let j = 0; j < m; j++) {
    const v = D[from + j]!;
    sum += v;
    if (filled === k && v >= dist[off + k - 1]!) continue;
    let q = filled < k ? filled++ : k - 1;
    while (q > 0 && dist[off + q - 1]! > v) {
      dist[off + q] = dist[off + q - 1]!;
      index[off + q] = index[off + q - 1]!;
      q--;
    }
    dist[off + q] = v;
    index[off + q] = j;
  }
  return sum;
}

/** Σ x² over each row's stored values, in storage order. */
function csrRowSquaredNorms(X: Csr): Float64Array {
  const out = new Float64Array(X.rows);
  for (let i = 0; i < X.rows; i++) {
    let s = 0;
    for (let p = X.indptr[i]!; p < X.indptr[i + 1]!; p++) s += X.data[p]! * X.data[p]!;
    out[i] = s;
  }
  return out;
}

/**
 * `nearestAnchors` for sparse X (n, d) and A (m, d), CSR with sorted columns: each dot product
 * x_i·a_j accumulates the products of common nonzeros in increasing column order from +0 through
 * Aᵀ's rows, so it has the bits of the sequential dense sum (the exact zeros add nothing), the
 * bits of GEMM on its 'ts' and 'wasm' backends. O(Σ_i Σ_{f ∈ x_i} nnz(Aᵀ_f) + n·m) time, O(m)
 * scratch: for text-like data (a few words per sample) far below the dense n·m·d.
 */
export function nearestAnchorsSparse(X: Csr, A: Csr, k: number): AnchorNeighbours {
  const { rows: n, cols: d } = X;
  const m = A.rows;
  if (A.cols !== d) {
    throw new RangeError(`nearestAnchorsSparse: X has ${d} columns, A has ${A.cols}`);
  }
  if (!Number.isInteger(k) || k < 1 || k > m) {
    throw new RangeError(
      `nearestAnchorsSparse: k = ${k} must be an integer in 1..${m} (the anchors)`,
    );
  }
  const index = new Int32Array(n * k);
  const dist = new Float64Array(n * k);
  const At = transposeCsr(A);
  const nx = csrRowSquaredNorms(X);
  const na = csrRowSquaredNorms(A);
  const acc = new Float64Array(m);
  let total = 0;
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    for (let p = X.indptr[i]!; p < X.indptr[i + 1]!; p++) {
      const f = X.indices[p]!;
      const xv = X.data[p]!;
      for (let q = At.indptr[f]!; q < At.indptr[f + 1]!; q++)
        acc[At.indices[q]!]! += xv * At.data[q]!;
    }
    for (let j = 0; j < m; j++) acc[j] = Math.max(nx[i]! + na[j]! - 2 * acc[j]!, 0);
    total += selectRow(acc, 0, m, k, index, dist, i * k);
  }
  return { index, dist, total };
}

/**
 * The k nearest anchors (rows of A) of every row of X, see the module comment.
 * Throws a RangeError when the widths differ or k is outside 1..m.
 */
export function nearestAnchors(X: Mat, A: Mat, k: number): AnchorNeighbours {
  const { rows: n, cols: d } = X;
  const m = A.rows;
  if (A.cols !== d) throw new RangeError(`nearestAnchors: X has ${d} columns, A has ${A.cols}`);
  if (!Number.isInteger(k) || k < 1 || k > m) {
    throw new RangeError(`nearestAnchors: k = ${k} must be an integer in 1..${m} (the anchors)`);
  }
  const index = new Int32Array(n * k);
  const dist = new Float64Array(n * k);
  let total = 0;
  const step = Math.min(n, blockRows(m));
  // One distance block for the whole call: D = X_block·Aᵀ in place, then the expansion
  // max(‖x‖² + ‖a‖² − 2·x·a, 0) of `squaredDistances`, entry by entry with its bits.
  const na = rowSquaredNorms(A);
  const buf = new Float64Array(step * m);
  for (let r0 = 0; r0 < n; r0 += step) {
    const rows = Math.min(step, n - r0);
    const block: Mat = { rows, cols: d, data: X.data.subarray(r0 * d, (r0 + rows) * d) };
    const D = matmulTB(block, A, { rows, cols: m, data: buf.subarray(0, rows * m) }).data;
    const nx = rowSquaredNorms(block);
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < m; j++) D[r * m + j] = Math.max(nx[r]! + na[j]! - 2 * D[r * m + j]!, 0);
      total += selectRow(D, r * m, m, k, index, dist, (r0 + r) * k);
    }
  }
  return { index, dist, total };
}
