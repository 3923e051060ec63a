/**
 * Exact k nearest neighbours of the rows of a data matrix under squared Euclidean distance
 *   d(i, j) = ‖x_i − x_j‖² = ‖x_i‖² + ‖x_j‖² − 2·x_i·x_jᵀ,
 * self excluded, ties broken by the lower index (the result is the k smallest pairs (d, j) in
 * lexicographic order, so it does not depend on the order of the computation). Distances that
 * cancellation makes slightly negative are clamped to 0.
 *
 * Dense X (n×d): the Gram products come from `matmulTB` on square tiles of rows; the distance
 * matrix is symmetric, so only tiles (I, J) with J ≥ I are computed and each pair updates both
 * rows: n²·d flops (half of the full product), memory O(n·k) plus one T×T tile.
 * Sparse X (n×d CSR, e.g. bag-of-words views): row i's products with all rows come from an
 * inverted index (the CSR transpose), Σ_t df_t² flops in all (df_t = rows using feature t) plus
 * n² for the distances, memory O(n + nnz + n·k). Nothing is densified.
 * Selection keeps a max-heap of k candidates per row: O(n² + n·k·log k) comparisons at worst,
 * and most candidates are rejected by one comparison with the row's current k-th distance.
 */
import { matmulTB } from '../linalg/kernels';
import type { Csr, Mat } from '../linalg/types';

/** k nearest neighbours of each of n rows: (n, k) row-major, each row sorted by (distance, index). */
export interface Knn {
  readonly n: number;
  readonly k: number;
  /** (n, k) neighbour indices. */
  readonly indices: Int32Array;
  /** (n, k) squared Euclidean distances, ascending along each row. */
  readonly distances: Float64Array;
}

export interface KnnOptions {
  /** Tile size T for the dense path (rows per Gram block). Default 256. */
  readonly tile?: number;
}

/** The k nearest other rows of X (dense n×d or CSR), by squared Euclidean distance. */
export function knn(X: Mat | Csr, k: number, options: KnnOptions = {}): Knn {
  const n = X.rows;
  if (!Number.isInteger(k) || k < 1 || k > n - 1) {
    throw new Error(`knn: k = ${k} must be an integer in 1..${n - 1} (n = ${n} rows)`);
  }
  const heaps = new Heaps(n, k);
  if ('indptr' in X) knnCsr(X, heaps);
  else knnDense(X, heaps, options.tile ?? 256);
  return heaps.sorted();
}

/** Squared row norms of a dense n×d matrix. */
function rowNorms(X: Mat): Float64Array {
  const { rows, cols, data } = X;
  const sq = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let p = i * cols; p < (i + 1) * cols; p++) s += data[p]! * data[p]!;
    sq[i] = s;
  }
  return sq;
}

/** Upper-triangular tile sweep: G = X_I·X_Jᵀ for J ≥ I, each pair offered to both rows. */
function knnDense(X: Mat, heaps: Heaps, T: number): void {
  const { rows: n, cols: d } = X;
  const sq = rowNorms(X);
  const G = new Float64Array(T * T);
  const rowsOf = (i0: number, i1: number): Mat => ({
    rows: i1 - i0,
    cols: d,
    data: X.data.subarray(i0 * d, i1 * d),
  });
  for (let i0 = 0; i0 < n; i0 += T) {
    const i1 = Math.min(n, i0 + T);
    const XI = rowsOf(i0, i1);
    for (let j0 = i0; j0 < n; j0 += T) {
      const j1 = Math.min(n, j0 + T);
      const nj = j1 - j0;
      matmulTB(XI, rowsOf(j0, j1), {
        rows: i1 - i0,
        cols: nj,
        data: G.subarray(0, (i1 - i0) * nj),
      });
      for (let i = i0; i < i1; i++) {
        const g = (i - i0) * nj;
        const sqi = sq[i]!;
        for (let j = j0 === i0 ? i + 1 : j0; j < j1; j++) {
          const dist = Math.max(0, sqi + sq[j]! - 2 * G[g + j - j0]!);
          heaps.offer(i, j, dist);
          heaps.offer(j, i, dist);
        }
      }
    }
  }
}

/** Row by row through an inverted index: acc[j] = x_i·x_jᵀ for all j, then the distances. */
function knnCsr(X: Csr, heaps: Heaps): void {
  const n = X.rows;
  const { indptr, indices, data } = X;
  const Xt = transpose(X);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) sq[i]! += data[p]! * data[p]!;
  const acc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const v = data[p]!;
      const t = indices[p]!;
      for (let q = Xt.indptr[t]!; q < Xt.indptr[t + 1]!; q++)
        acc[Xt.indices[q]!]! += v * Xt.data[q]!;
    }
    const sqi = sq[i]!;
    for (let j = 0; j < n; j++) {
      if (j !== i) heaps.offer(i, j, Math.max(0, sqi + sq[j]! - 2 * acc[j]!));
    }
    acc.fill(0);
  }
}

/** The transpose of a CSR matrix, as CSR (column indices sorted). O(nnz + rows + cols). */
export function transpose(S: Csr): Csr {
  const { rows, cols, indptr, indices, data } = S;
  const nz = indptr[rows]!;
  const tp = new Int32Array(cols + 1);
  for (let p = 0; p < nz; p++) tp[indices[p]! + 1]!++;
  for (let j = 0; j < cols; j++) tp[j + 1]! += tp[j]!;
  const next = tp.slice(0, cols);
  const ti = new Int32Array(nz);
  const td = new Float64Array(nz);
  for (let i = 0; i < rows; i++)
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const q = next[indices[p]!]!++;
      ti[q] = i;
      td[q] = data[p]!;
    }
  return { rows: cols, cols: rows, indptr: tp, indices: ti, data: td };
}

/**
 * n bounded max-heaps of (distance, index) pairs under lexicographic order, k slots each,
 * stored in two (n, k) arrays. `worst[r]` caches the root of a full heap (else +∞) so that a
 * rejected candidate costs one comparison.
 */
class Heaps {
  private readonly dist: Float64Array;
  private readonly idx: Int32Array;
  private readonly size: Int32Array;
  private readonly worst: Float64Array;

  constructor(
    private readonly n: number,
    private readonly k: number,
  ) {
    this.dist = new Float64Array(n * k);
    this.idx = new Int32Array(n * k);
    this.size = new Int32Array(n);
    this.worst = new Float64Array(n).fill(Infinity);
  }

  /** Offers candidate j at distance d to row r. */
  offer(r: number, j: number, d: number): void {
    const w = this.worst[r]!;
    if (d > w) return;
    const o = r * this.k;
    if (d === w && j > this.idx[o]!) return;
    const s = this.size[r]!;
    if (s < this.k) {
      this.siftUp(o, s, d, j);
      this.size[r] = s + 1;
      if (s + 1 === this.k) this.worst[r] = this.dist[o]!;
    } else {
      this.siftDown(o, d, j);
      this.worst[r] = this.dist[o]!;
    }
  }

  private siftUp(o: number, pos: number, d: number, j: number): void {
    let p = pos;
    while (p > 0) {
      const parent = (p - 1) >> 1;
      if (!this.less(o + parent, d, j)) break;
      this.dist[o + p] = this.dist[o + parent]!;
      this.idx[o + p] = this.idx[o + parent]!;
      p = parent;
    }
    this.dist[o + p] = d;
    this.idx[o + p] = j;
  }

  /** Replaces the root of a full heap by (d, j) and restores the heap order. */
  private siftDown(o: number, d: number, j: number): void {
    const k = this.k;
    let p = 0;
    for (;;) {
      let ch = 2 * p + 1;
      if (ch >= k) break;
      if (ch + 1 < k && this.less(o + ch, this.dist[o + ch + 1]!, this.idx[o + ch + 1]!)) ch++;
      if (this.less(o + ch, d, j)) break; // (pairs are distinct: no equality case)
      this.dist[o + p] = this.dist[o + ch]!;
      this.idx[o + p] = this.idx[o + ch]!;
      p = ch;
    }
    this.dist[o + p] = d;
    this.idx[o + p] = j;
  }

  /** Entry at q is lexicographically smaller than (d, j). */
  private less(q: number, d: number, j: number): boolean {
    const dq = this.dist[q]!;
    return dq < d || (dq === d && this.idx[q]! < j);
  }

  /** The heaps as sorted (n, k) rows (ascending distance, then index). */
  sorted(): Knn {
    const { n, k } = this;
    const order = new Int32Array(k);
    const indices = new Int32Array(n * k);
    const distances = new Float64Array(n * k);
    for (let r = 0; r < n; r++) {
      const o = r * k;
      for (let q = 0; q < k; q++) order[q] = q;
      order.sort(
        (a, b) => this.dist[o + a]! - this.dist[o + b]! || this.idx[o + a]! - this.idx[o + b]!,
      );
      for (let q = 0; q < k; q++) {
        indices[o + q] = this.idx[o + order[q]!]!;
        distances[o + q] = this.dist[o + order[q]!]!;
      }
    }
    return { n, k, indices, distances };
  }
}
