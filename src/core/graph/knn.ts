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
 *   comparison or two; the rest are checked exactly and offered to the heaps (~3–5 ns a pair
 *   here, against ≈ 18 ns for the two heap offers every pair used to make).
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
 *   saves depends on the data: at n = 20,000, 65% of the pairs on the synthetic views with
 *   d = 20 (the k-th distance is ≈ 0.2 of the mean distance), 52% with d = 50, 90% on tight
 *   clusters (spectral embeddings), nothing on isotropic Gaussian noise (where the layout costs
 *   ≈ 5% more than the plain sweep).
 * Sparse X (n×d CSR, e.g. bag-of-words views): row i's products with all rows come from an
 * inverted index (the CSR transpose), Σ_t df_t² flops in all (df_t = rows using feature t) plus
 * n² for the distances, memory O(n + nnz + n·k). Nothing is densified.
 * Selection keeps a max-heap of k candidates per row: O(n² + n·k·log k) comparisons at worst,
 * and most candidates are rejected by one comparison with the row's current k-th distance.
 */
import { matmulTA, matmulTB } from '../linalg/kernels';
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
 * layout's cost (a few ms, more on a cold JIT) is not repaid (at n = 2000 the k-th distance is
 * too large a part of the spread for the bounds to skip much); with more features, four axes
 * rarely hold enough of the distances, and the reordered copy of X grows.
 */
const BOUNDS_MIN_TILES = 32;
const BOUNDS_MAX_DIM = 256;
/** Distance classes of the tile pairs' visiting order. */
const BUCKETS = 4096;
/** Principal axes of the bounds. More axes tighten a row's bound but widen the tiles' boxes. */
const AXES = 4;
/** Rows sampled for the axes, and subspace iterations. */
const SAMPLE = 1024;
const ITERATIONS = 8;
/**
 * Relative margin of every rejection that is not the exact test: a bound or a threshold must
 * exceed the k-th distance by tol·(‖x_i‖² + ‖x_j‖²) (or the like), tol = TOL·(1 + d/256), vastly
 * more than the rounding of the bound (≲ 8·√m·d·ε relative to those norms) and of the computed
 * distance (≲ 2(d + 2)·ε).
 */
const TOL = 1e-9;

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
  const sq = rowNorms(X);
  const layout =
    X.cols > 0 &&
    (options.bounds ??
      (n >= BOUNDS_MIN_TILES * T && X.cols <= BOUNDS_MAX_DIM && sq.every(Number.isFinite)))
      ? spatialLayout(X, sq, T, Math.min(AXES, X.cols))
      : plainLayout(X, sq, T);
  sweep(layout, X.cols, heaps, T);
  return heaps.sorted(layout.order);
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

/**
 * The rows in the order the tiles are cut from, and what the bounds need. Position q holds the
 * row `order[q]` of X (order null: q itself); heaps are kept by position, neighbours by their
 * index in X.
 */
interface Layout {
  /** (n, d) rows by position. */
  readonly Y: Float64Array;
  /** Their squared norms. */
  readonly sq: Float64Array;
  readonly order: Int32Array | null;
  /** Tile t holds positions starts[t] … starts[t + 1] − 1. */
  readonly starts: Int32Array;
  /** Projected coordinates per row (0: no bounds). */
  readonly m: number;
  /** (n, m) projections P·y_q by position. */
  readonly proj: Float64Array;
  /** (tiles, m) the boxes: per tile and axis, the least and the largest projection. */
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Largest squared norm per tile. */
  readonly sqMax: Float64Array;
}

/** X as it is, cut into consecutive tiles, without bounds. */
function plainLayout(X: Mat, sq: Float64Array, T: number): Layout {
  const starts = new Int32Array(Math.ceil(X.rows / T) + 1);
  for (let t = 0; t < starts.length; t++) starts[t] = Math.min(X.rows, t * T);
  const none = new Float64Array(0);
  return { Y: X.data, sq, order: null, starts, m: 0, proj: none, lo: none, hi: none, sqMax: none };
}

/**
 * X's rows ordered by a k-d split of their projections on m principal axes: a range of more
 * than T rows is partitioned along its widest axis after ⌊L/2⌋·T rows (L = its number of
 * tiles), so every tile but the last has T rows; then X, the norms and the projections are
 * copied in that order, and each tile's box and largest norm recorded.
 * O(n·d·m + n·m·log(n/T)) time, O(n·(d + m)) memory.
 */
function spatialLayout(X: Mat, sqX: Float64Array, T: number, m: number): Layout {
  const { rows: n, cols: d, data } = X;
  const projX = matmulTB(X, { rows: m, cols: d, data: principalAxes(X, m) }).data;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const key = new Float64Array(n);
  const starts: number[] = [];
  // Ranges still to split, left before right, so that the tiles come out in order.
  const stack = [0, n];
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a <= T) {
      starts.push(a);
      continue;
    }
    keysAlongWidest(projX, m, order, a, b, key);
    const cut = a + Math.floor(Math.ceil((b - a) / T) / 2) * T;
    partitionAt(key, order, a, b, cut);
    stack.push(cut, b, a, cut);
  }
  starts.push(n);

  // Each row copied whole (a native copy: this runs once per call, mostly before the JIT).
  const Y = new Float64Array(n * d);
  const sq = new Float64Array(n);
  const proj = new Float64Array(n * m);
  for (let q = 0; q < n; q++) {
    const i = order[q]!;
    Y.set(data.subarray(i * d, (i + 1) * d), q * d);
    sq[q] = sqX[i]!;
    for (let t = 0; t < m; t++) proj[q * m + t] = projX[i * m + t]!;
  }
  const tiles = starts.length - 1;
  const lo = new Float64Array(tiles * m);
  const hi = new Float64Array(tiles * m);
  const sqMax = new Float64Array(tiles);
  for (let a = 0; a < tiles; a++)
    sqMax[a] = tileBox(proj, sq, m, starts[a]!, starts[a + 1]!, lo, hi, a);
  return { Y, sq, order, starts: Int32Array.from(starts), m, proj, lo, hi, sqMax };
}

/**
 * key[q] ← the projection of row order[q] on the axis along which rows order[a..b) spread
 * widest, for q in [a, b). O((b − a)·m).
 */
function keysAlongWidest(
  projX: Float64Array,
  m: number,
  order: Int32Array,
  a: number,
  b: number,
  key: Float64Array,
): void {
  let axis = 0;
  let widest = -1;
  for (let t = 0; t < m; t++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let q = a; q < b; q++) {
      const v = projX[order[q]! * m + t]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (hi - lo > widest) {
      widest = hi - lo;
      axis = t;
    }
  }
  for (let q = a; q < b; q++) key[q] = projX[order[q]! * m + axis]!;
}

/**
 * The box of positions q0 … q1 − 1 (per axis, the least and the largest projection) into row a
 * of lo and hi; returns their largest squared norm.
 */
function tileBox(
  proj: Float64Array,
  sq: Float64Array,
  m: number,
  q0: number,
  q1: number,
  lo: Float64Array,
  hi: Float64Array,
  a: number,
): number {
  let sqMax = 0;
  for (let t = 0; t < m; t++) {
    lo[a * m + t] = Infinity;
    hi[a * m + t] = -Infinity;
  }
  for (let q = q0; q < q1; q++) {
    if (sq[q]! > sqMax) sqMax = sq[q]!;
    for (let t = 0; t < m; t++) {
      const v = proj[q * m + t]!;
      if (v < lo[a * m + t]!) lo[a * m + t] = v;
      if (v > hi[a * m + t]!) hi[a * m + t] = v;
    }
  }
  return sqMax;
}

/**
 * Reorders key[a..b) (and order alongside) so that key[q] ≤ key[cut] ≤ key[q'] for q < cut ≤ q'
 * (Hoare's selection, median-of-three pivots): O(b − a) on average.
 */
function partitionAt(
  key: Float64Array,
  order: Int32Array,
  a: number,
  b: number,
  cut: number,
): void {
  let lo = a;
  let hi = b - 1;
  const swap = (u: number, v: number): void => {
    const kt = key[u]!;
    key[u] = key[v]!;
    key[v] = kt;
    const ot = order[u]!;
    order[u] = order[v]!;
    order[v] = ot;
  };
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    if (key[mid]! < key[lo]!) swap(mid, lo);
    if (key[hi]! < key[lo]!) swap(hi, lo);
    if (key[hi]! < key[mid]!) swap(hi, mid);
    const pivot = key[mid]!;
    let u = lo;
    let v = hi;
    while (u <= v) {
      while (key[u]! < pivot) u++;
      while (key[v]! > pivot) v--;
      if (u <= v) swap(u++, v--);
    }
    if (cut <= v) hi = v;
    else if (cut >= u) lo = u;
    else return;
  }
}

/**
 * m orthonormal axes (rows of P, m×d) spanning roughly the leading principal subspace of X: a
 * few subspace iterations W ← SᵀS·W on s ≤ SAMPLE evenly spaced rows S of X, centred, from a
 * fixed start, with modified Gram–Schmidt (run twice) after each. Only the bounds' tightness
 * depends on how well they are found; an axis that vanishes (rank < m) is left at zero, which
 * keeps the bound valid. O(ITERATIONS·s·d·m).
 */
function principalAxes(X: Mat, m: number): Float64Array {
  const { rows: n, cols: d, data } = X;
  const s = Math.min(n, SAMPLE);
  const S: Mat = { rows: s, cols: d, data: new Float64Array(s * d) };
  const mean = new Float64Array(d);
  for (let r = 0; r < s; r++) {
    const i = Math.floor((r * n) / s);
    S.data.set(data.subarray(i * d, (i + 1) * d), r * d);
    for (let p = 0; p < d; p++) mean[p]! += data[i * d + p]!;
  }
  for (let r = 0; r < s; r++) for (let p = 0; p < d; p++) S.data[r * d + p]! -= mean[p]! / s;
  // A fixed, full-rank start, W[t][p] = cos(p·(t + 1) + t): the axes depend on X only.
  let W: Mat = { rows: m, cols: d, data: new Float64Array(m * d) };
  for (let t = 0; t < m; t++)
    for (let p = 0; p < d; p++) W.data[t * d + p] = Math.cos(p * (t + 1) + t);
  orthonormalRows(W.data, m, d);
  for (let it = 0; it < ITERATIONS; it++) {
    W = matmulTA(matmulTB(S, W), S); // (S·Wᵀ)ᵀ·S = W·SᵀS, m×d
    orthonormalRows(W.data, m, d);
  }
  return W.data;
}

/**
 * Modified Gram–Schmidt on the m rows of W (m×d), twice. A row left with less than 1e-8 of its
 * length by the projections carries no direction of its own (rank < m) and is set to zero.
 */
function orthonormalRows(W: Float64Array, m: number, d: number): void {
  const norm = (t: number): number => {
    let s = 0;
    for (let p = 0; p < d; p++) s += W[t * d + p]! * W[t * d + p]!;
    return Math.sqrt(s);
  };
  for (let pass = 0; pass < 2; pass++)
    for (let t = 0; t < m; t++) {
      const before = norm(t);
      for (let u = 0; u < t; u++) {
        let c = 0;
        for (let p = 0; p < d; p++) c += W[t * d + p]! * W[u * d + p]!;
        for (let p = 0; p < d; p++) W[t * d + p]! -= c * W[u * d + p]!;
      }
      const after = norm(t);
      const f = after > 1e-8 * before ? 1 / after : 0;
      for (let p = 0; p < d; p++) W[t * d + p]! *= f;
    }
}

/**
 * All tile pairs (a, b), a ≤ b, coded a·tiles + b, in the order the sweep visits them: without
 * bounds the diagonal first (which fills every heap with candidates from its own tile, so the
 * rejection works from the first off-diagonal pair on), then by increasing b − a (the nearer
 * rows of a file stored in some order, such as by class, first); with them the diagonal first,
 * then by the distance between the boxes, in BUCKETS equal steps up to the largest (a counting
 * sort). Only the speed depends on the order. O(tiles²).
 */
function schedule(L: Layout): Int32Array {
  const tiles = L.starts.length - 1;
  const pairs = new Int32Array((tiles * (tiles + 1)) / 2);
  let c = 0;
  if (L.m === 0) {
    for (let g = 0; g < tiles; g++)
      for (let a = 0; a + g < tiles; a++) pairs[c++] = a * (tiles + 1) + g;
    return pairs;
  }
  for (let a = 0; a < tiles; a++) for (let b = a; b < tiles; b++) pairs[c++] = a * tiles + b;
  const gap = new Float64Array(pairs.length);
  let top = 0;
  for (let p = 0; p < pairs.length; p++) {
    gap[p] = boxGap(L, Math.floor(pairs[p]! / tiles), pairs[p]! % tiles);
    if (gap[p]! > top) top = gap[p]!;
  }
  // Bucket 0: the diagonal; 1 + ⌊√(gap/top)·BUCKETS⌋ (≤ BUCKETS) for the others. (A NaN gap,
  // from non-finite data forced through the bounds, goes to bucket 1.)
  const bucket = new Int32Array(pairs.length);
  const count = new Int32Array(BUCKETS + 2);
  for (let p = 0; p < pairs.length; p++) {
    const g = gap[p]!;
    const v =
      Math.floor(pairs[p]! / tiles) === pairs[p]! % tiles
        ? 0
        : 1 + (g > 0 ? Math.min(BUCKETS - 1, Math.floor(Math.sqrt(g / top) * BUCKETS)) : 0);
    bucket[p] = v;
    count[v + 1]!++;
  }
  for (let v = 0; v <= BUCKETS; v++) count[v + 1]! += count[v]!;
  const out = new Int32Array(pairs.length);
  for (let p = 0; p < pairs.length; p++) out[count[bucket[p]!]!++] = pairs[p]!;
  return out;
}

/** Squared distance between the boxes of tiles a and b (0 when they overlap). */
function boxGap(L: Layout, a: number, b: number): number {
  const { m, lo, hi } = L;
  let s = 0;
  for (let t = 0; t < m; t++) {
    const g = Math.max(lo[b * m + t]! - hi[a * m + t]!, lo[a * m + t]! - hi[b * m + t]!, 0);
    s += g * g;
  }
  return s;
}

/**
 * The tile sweep: for each scheduled pair (a, b), the rows of a and of b that the bounds cannot
 * exclude (all of them without bounds) are gathered, multiplied, and their distances offered.
 */
function sweep(L: Layout, d: number, heaps: Heaps, T: number): void {
  const { Y, sq, starts, m, sqMax } = L;
  const tiles = starts.length - 1;
  const worst = heaps.worst;
  const tol = TOL * (1 + d / 256);
  // Gathering copies rows only when the bounds drop some of a tile's (never without bounds).
  const A = new Float64Array(m > 0 ? T * d : 0);
  const B = new Float64Array(m > 0 ? T * d : 0);
  const G = new Float64Array(T * T);
  const rows = new Int32Array(T);
  const cols = new Int32Array(T);
  const sqR = new Float64Array(T);
  const sqC = new Float64Array(T);
  const colLim = new Float64Array(T);
  const colW = new Float64Array(T);
  const tileMax = (a: number): number => {
    let w = 0;
    for (let q = starts[a]!; q < starts[a + 1]!; q++) if (!(worst[q]! <= w)) w = worst[q]!;
    return w;
  };
  for (const ab of schedule(L)) {
    const a = Math.floor(ab / tiles);
    const b = ab % tiles;
    let ra: number;
    let cb: number;
    if (m > 0 && a !== b) {
      const wa = tileMax(a);
      const wb = tileMax(b);
      if (boxGap(L, a, b) - tol * (sqMax[a]! + sqMax[b]!) > Math.max(wa, wb)) continue;
      ra = needed(L, worst, a, b, wb, tol, rows);
      if (ra === 0) continue;
      cb = needed(L, worst, b, a, wa, tol, cols);
      if (cb === 0) continue;
    } else {
      ra = 0;
      for (let q = starts[a]!; q < starts[a + 1]!; q++) rows[ra++] = q;
      cb = 0;
      for (let q = starts[b]!; q < starts[b + 1]!; q++) cols[cb++] = q;
    }
    const XA = gather(Y, d, rows, ra, A, sq, sqR);
    const XB = a === b ? XA : gather(Y, d, cols, cb, B, sq, sqC);
    if (a === b) sqC.set(sqR.subarray(0, ra));
    matmulTB(XA, XB, { rows: ra, cols: cb, data: G.subarray(0, ra * cb) });
    selectBlock(G, ra, cb, rows, cols, sqR, sqC, a === b, tol, colLim, colW, heaps, L.order);
  }
}

/**
 * Positions q of tile a whose bound against the box of tile b does not exclude them: the
 * squared distance from P·y_q to the box, less the margin, is not above both the row's k-th
 * distance and wb (the largest k-th distance in b). Written into out; returns their number.
 */
function needed(
  L: Layout,
  worst: Float64Array,
  a: number,
  b: number,
  wb: number,
  tol: number,
  out: Int32Array,
): number {
  const { m, proj, lo, hi, sq, starts } = L;
  const margin = tol * L.sqMax[b]!;
  const q0 = starts[a]!;
  const q1 = starts[a + 1]!;
  let c = 0;
  if (m === 4) {
    // The default, written out: the box's bounds in registers.
    const l0 = lo[4 * b]!;
    const l1 = lo[4 * b + 1]!;
    const l2 = lo[4 * b + 2]!;
    const l3 = lo[4 * b + 3]!;
    const h0 = hi[4 * b]!;
    const h1 = hi[4 * b + 1]!;
    const h2 = hi[4 * b + 2]!;
    const h3 = hi[4 * b + 3]!;
    for (let q = q0; q < q1; q++) {
      const v0 = proj[4 * q]!;
      const v1 = proj[4 * q + 1]!;
      const v2 = proj[4 * q + 2]!;
      const v3 = proj[4 * q + 3]!;
      const g0 = v0 < l0 ? l0 - v0 : v0 > h0 ? v0 - h0 : 0;
      const g1 = v1 < l1 ? l1 - v1 : v1 > h1 ? v1 - h1 : 0;
      const g2 = v2 < l2 ? l2 - v2 : v2 > h2 ? v2 - h2 : 0;
      const g3 = v3 < l3 ? l3 - v3 : v3 > h3 ? v3 - h3 : 0;
      const s = g0 * g0 + g1 * g1 + g2 * g2 + g3 * g3;
      const w = worst[q]!;
      if (!(s - margin - tol * sq[q]! > (w > wb ? w : wb))) out[c++] = q;
    }
    return c;
  }
  for (let q = q0; q < q1; q++) {
    let s = 0;
    for (let t = 0; t < m; t++) {
      const v = proj[q * m + t]!;
      const l = lo[b * m + t]!;
      const h = hi[b * m + t]!;
      const g = v < l ? l - v : v > h ? v - h : 0;
      s += g * g;
    }
    const w = worst[q]!;
    if (!(s - margin - tol * sq[q]! > (w > wb ? w : wb))) out[c++] = q;
  }
  return c;
}

/**
 * The rows at the listed positions as an (r, d) matrix, and their squared norms into sqOut: a
 * view of Y when they are consecutive, else copied into buf.
 */
function gather(
  Y: Float64Array,
  d: number,
  list: Int32Array,
  r: number,
  buf: Float64Array,
  sq: Float64Array,
  sqOut: Float64Array,
): Mat {
  for (let t = 0; t < r; t++) sqOut[t] = sq[list[t]!]!;
  const q0 = list[0]!;
  if (list[r - 1]! - q0 === r - 1)
    return { rows: r, cols: d, data: Y.subarray(q0 * d, (q0 + r) * d) };
  for (let t = 0; t < r; t++) {
    const src = list[t]! * d;
    for (let p = 0; p < d; p++) buf[t * d + p] = Y[src + p]!;
  }
  return { rows: r, cols: d, data: buf.subarray(0, r * d) };
}

/**
 * Offers the pairs of a Gram block G (r×c: G[s, t] = y_rows[s]·y_cols[t]) to both rows' heaps;
 * on the diagonal (the same rows on both sides) only the pairs t > s. A pair x = sqR[s] + sqC[t]
 * − 2G can enter a heap only if x ≤ w_s or x ≤ w_t (their k-th distances). Two scans, chosen per
 * block:
 * - by G alone: x ≤ w_s needs e = sqR[s] − 2G ≤ w_s − min sqC, and x ≤ w_t needs
 *   e ≤ w_t − sqC[t]; so a pair with G < (sqR[s] − max(those limits))/2, less a margin for
 *   rounding, fails both, and costs one load and one comparison (`pairLimit`); the rest are
 *   tested against both limits, then exactly. Most pairs fail when the norms vary less than the
 *   k-th distances (z-scored rows: not at all);
 * - exact: x itself against w_s and w_t (three loads, two comparisons), for blocks where the
 *   first passes too many pairs (rows far from the origin compared with their spread, such as
 *   tight clusters of spectral embeddings): the scan switches when more than a quarter of its
 *   first eight rows' pairs got past the first comparison.
 * A pair that passes is offered to each heap whose k-th distance it does not exceed.
 */
function selectBlock(
  G: Float64Array,
  r: number,
  c: number,
  rows: Int32Array,
  cols: Int32Array,
  sqR: Float64Array,
  sqC: Float64Array,
  diagonal: boolean,
  tol: number,
  colLim: Float64Array,
  colW: Float64Array,
  heaps: Heaps,
  order: Int32Array | null,
): void {
  const worst = heaps.worst;
  let sqMin = Infinity;
  let sqMax = 0;
  for (let t = 0; t < c; t++) {
    const v = sqC[t]!;
    if (v < sqMin) sqMin = v;
    if (v > sqMax) sqMax = v;
  }
  for (let s = 0; s < r; s++) if (sqR[s]! > sqMax) sqMax = sqR[s]!;
  // |e| ≤ 2·sqMax; an infinite k-th distance (a heap not yet full) makes its limit +∞. colW
  // may lag behind worst (offers only lower it), which lets through more, never fewer, pairs.
  let colMax = -Infinity;
  for (let t = 0; t < c; t++) {
    const w = worst[cols[t]!]!;
    const v = w - sqC[t]! + tol * (w + 2 * sqMax);
    colW[t] = w;
    colLim[t] = v;
    if (!(v <= colMax)) colMax = v;
  }
  let exact = false;
  let scanned = 0;
  let passed = 0;
  for (let s = 0; s < r; s++) {
    const i = rows[s]!;
    const oi = order === null ? i : order[i]!;
    const sqi = sqR[s]!;
    let wi = worst[i]!;
    const g0 = s * c;
    const t0 = diagonal ? s + 1 : 0;
    if (exact) {
      for (let t = t0; t < c; t++) {
        const x = sqi + sqC[t]! - 2 * G[g0 + t]!;
        if (x > wi && x > colW[t]!) continue;
        const j = cols[t]!;
        const dist = Math.max(0, x);
        if (!(dist > wi)) {
          heaps.offer(i, order === null ? j : order[j]!, dist);
          wi = worst[i]!;
        }
        if (!(dist > worst[j]!)) heaps.offer(j, oi, dist);
      }
      continue;
    }
    let rowLim = wi - sqMin + tol * (wi + 2 * sqMax);
    let gLim = pairLimit(sqi, rowLim, colMax, sqMax, tol);
    for (let t = t0; t < c; t++) {
      const gst = G[g0 + t]!;
      if (gst < gLim) continue;
      passed++;
      const g2 = 2 * gst;
      const e = sqi - g2;
      if (e > rowLim && e > colLim[t]!) continue;
      const x = sqi + sqC[t]! - g2;
      const j = cols[t]!;
      if (x > wi && x > worst[j]!) continue;
      const dist = Math.max(0, x);
      if (!(dist > wi)) {
        heaps.offer(i, order === null ? j : order[j]!, dist);
        wi = worst[i]!;
        rowLim = wi - sqMin + tol * (wi + 2 * sqMax);
        gLim = pairLimit(sqi, rowLim, colMax, sqMax, tol);
      }
      if (!(dist > worst[j]!)) heaps.offer(j, oi, dist);
    }
    if (s < 8) {
      scanned += c - t0;
      if (s === 7 && passed * 4 > scanned) exact = true;
    }
  }
}

/**
 * The least G[s, t] a pair of row s may have and pass `selectBlock`'s limits: e = sqR[s] − 2G ≤
 * lim = max(rowLim, colMax) needs G ≥ (sqR[s] − lim)/2, less a margin for rounding (−∞ when lim
 * is +∞).
 */
function pairLimit(
  sqi: number,
  rowLim: number,
  colMax: number,
  sqMax: number,
  tol: number,
): number {
  const lim = rowLim > colMax ? rowLim : colMax;
  return 0.5 * (sqi - lim) - tol * (sqi + sqMax + Math.abs(lim));
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
  /** Read by the sweeps' fast rejection; written only here. */
  readonly worst: Float64Array;

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
      this.siftDown(o, this.k, d, j);
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

  /** Replaces the root of a heap of `size` entries by (d, j) and restores the heap order. */
  private siftDown(o: number, size: number, d: number, j: number): void {
    const k = size;
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

  /**
   * The heaps as sorted (n, k) rows (ascending distance, then index): heap q is the row
   * order[q] of the result (order null: q). Heapsort: the root (the largest) goes last, the
   * heap shrinks by one; O(n·k log k). Every heap is full by then (each row was offered, or
   * provably did not need, every other row). Empties the heaps.
   */
  sorted(order: Int32Array | null): Knn {
    const { n, k } = this;
    const indices = new Int32Array(n * k);
    const distances = new Float64Array(n * k);
    for (let q = 0; q < n; q++) {
      const o = q * k;
      const r = (order === null ? q : order[q]!) * k;
      for (let end = k - 1; end >= 0; end--) {
        indices[r + end] = this.idx[o]!;
        distances[r + end] = this.dist[o]!;
        this.siftDown(o, end, this.dist[o + end]!, this.idx[o + end]!);
      }
    }
    return { n, k, indices, distances };
  }
}
