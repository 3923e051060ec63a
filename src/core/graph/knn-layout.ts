/**
 * The dense path's row layout (knn.ts): the rows cut into tiles of T, either as they are or,
 * with the bounds, reordered along a few principal axes by a k-d split so that every tile is a
 * compact box in the projected space.
 */
import { matmulTA, matmulTB } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

/** Rows sampled for the axes, and subspace iterations. */
const SAMPLE = 1024;
const ITERATIONS = 8;

/**
 * The rows in the order the tiles are cut from, and what the bounds need. Position q holds the
 * row `order[q]` of X (order null: q itself); heaps are kept by position, neighbours by their
 * index in X.
 */
export interface Layout {
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
export function plainLayout(X: Mat, sq: Float64Array, T: number): Layout {
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
export function spatialLayout(X: Mat, sqX: Float64Array, T: number, m: number): Layout {
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
