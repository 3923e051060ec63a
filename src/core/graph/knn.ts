/**
 * Exact k nearest neighbours of the rows of a data matrix under squared Euclidean distance
 *   d(i, j) = ‖x_i − x_j‖² = ‖x_i‖² + ‖x_j‖² − 2·x_i·x_jᵀ,
 * self excluded, ties broken by the lower index (the result is the k smallest pairs (d, j) in
 * lexicographic order, so it does not depend on the order of the computation). Distances that
 * cancellation makes slightly negative are clamped to 0.
 *
 * Dense X (n×d): the Gram products come from `matmulTB` on blocks of at most T×T rows; the
 * distance matrix is symmetric, so only tile pairs (I, J) with J ≥ I are multiplied and each pair
 * updates both rows: at most n²·d flops (half of the full product), memory O(n·k) plus a T×T
 * block (and O(n·d) with the bounds). Every distance is formed as above from the GEMM's dot
 * product, which for d ≤ 256 is the plain sequential sum over the features (and beyond, the same
 * blocked sum for every pair), so the values depend neither on the tiling nor on the order of
 * the rows; everything else only decides which pairs need no distance.
 * - Rejection (`selectBlock`): a block is scanned row by row against the row's current k-th
 *   distance and its columns', so that a pair that can enter neither heap costs a load and a
 *   comparison or two; the rest are checked exactly and offered to the heaps (far cheaper
 *   than the two heap offers every pair would otherwise make).
 * - Bounds (by default for n ≥ 32T, d ≤ 256, finite norms): the rows are reordered along m = 4
 *   principal axes P of a sample of rows (a k-d split into tiles of T rows, `spatialLayout`), so
 *   a tile is a compact box in the projected space. Since ‖P·(x_i − x_j)‖² ≤ ‖x_i − x_j‖² for
 *   orthonormal axes, the squared distance from a row's projection to a tile's box is a lower
 *   bound on its distance to every row of the tile. Tile pairs are visited in increasing order of
 *   the distance between their boxes (the diagonal tiles first, which fill every heap with near
 *   candidates); of a pair, only the rows whose bound does not exceed both their own k-th
 *   distance and the other tile's largest one are gathered and multiplied, so whole pairs and
 *   parts of pairs are skipped, never a pair that could enter a heap (the bound keeps a margin of
 *   tol·(‖x_i‖² + ‖x_j‖²), far above the rounding of the bound and of the computed distance).
 *   Cost O(s·d·m) for the axes (s ≤ 1024 sampled rows), O(n·d·m) for the projections,
 *   O(n·m·log(n/T)) for the ordering, O(n·d) to reorder X, O(n²·m/T) for the row bounds. What it
 *   saves depends on the data: most pairs on clustered views and tight clusters (spectral
 *   embeddings), nothing on isotropic Gaussian noise (where the layout is a small extra cost).
 * Sparse X (n×d CSR, e.g. bag-of-words views): row i's products with all rows come from an
 * inverted index (the CSR transpose), Σ_t df_t² flops in all (df_t = rows using feature t) plus
 * n² for the distances, memory O(n + nnz + n·k). Nothing is densified.
 * Selection keeps a max-heap of k candidates per row: O(n² + n·k·log k) comparisons at worst,
 * and most candidates are rejected by one comparison with the row's current k-th distance.
 *
 * Files: this one is the entry and the sparse path; knn-layout.ts cuts the dense rows into tiles
 * (with the bounds' reordering), knn-sweep.ts visits the tile pairs, knn-heaps.ts keeps the
 * candidates; the CSR transpose is linalg/sparse.ts's `transposeCsr`.
 */
import { rowSquaredNorms } from '../linalg/rows';
import { transposeCsr } from '../linalg/sparse';
import type { Csr, Mat } from '../linalg/types';
import { Heaps } from './knn-heaps';
import { plainLayout, spatialLayout } from './knn-layout';
import { sweep } from './knn-sweep';

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
  /** Tile size T for the dense path (rows per Gram block). Default 128. */
  readonly tile?: number;
  /**
   * Dense path: reorder the rows and skip pairs by the projected bounds (default: when n ≥ 32T,
   * d ≤ 256 and every row norm is finite). The result is the same either way.
   */
  readonly bounds?: boolean;
}

/** Rows per tile: a 128×128 Gram tile (128 KiB) stays in L2 while its distances are scanned. */
const TILE = 128;
/**
 * Bounds by default from this many tiles on, and up to this many features: with fewer rows the
 * layout's cost is not repaid (the k-th distance is too large a part of the spread for the
 * bounds to skip much); with more features, four axes
 * rarely hold enough of the distances, and the reordered copy of X grows.
 */
const BOUNDS_MIN_TILES = 32;
const BOUNDS_MAX_DIM = 256;
/** Principal axes of the bounds. More axes tighten a row's bound but widen the tiles' boxes. */
const AXES = 4;
/** The k nearest other rows of X (dense n×d or CSR), by squared Euclidean distance. */
export function knn(X: Mat | Csr, k: number, options: KnnOptions = {}): Knn {
  const n = X.rows;
  if (!Number.isInteger(k) || k < 1 || k > n - 1) {
    throw new Error(`knn: k = ${k} must be an integer in 1..${n - 1} (n = ${n} rows)`);
  }
  const heaps = new Heaps(n, k);
  if ('indptr' in X) {
    knnCsr(X, heaps);
    return heaps.sorted(null);
  }
  const T = options.tile ?? TILE;
  const sq = rowSquaredNorms(X);
  const layout =
    X.cols > 0 &&
    (options.bounds ??
      (n >= BOUNDS_MIN_TILES * T && X.cols <= BOUNDS_MAX_DIM && sq.every(Number.isFinite)))
      ? spatialLayout(X, sq, T, Math.min(AXES, X.cols))
      : plainLayout(X, sq, T);
  sweep(layout, X.cols, heaps, T);
  return heaps.sorted(layout.order);
}

/** Row by row through an inverted index: acc[j] = x_i·x_jᵀ for all j, then the distances. */
function knnCsr(X: Csr, heaps: Heaps): void {
  const n = X.rows;
  const { indptr, indices, data } = X;
  const Xt = transposeCsr(X);
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
