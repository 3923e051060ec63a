/**
 * The dense path's sweep over tile pairs (knn.ts): their visiting order, the rows of a pair the
 * bounds cannot rule out, the Gram block of those rows and the scan that rejects most pairs with
 * a comparison before the exact test and the heaps.
 */
import { matmulTB } from '../linalg/kernels';
import type { Mat } from '../linalg/types';
import type { Heaps } from './knn-heaps';
import type { Layout } from './knn-layout';

/** Distance classes of the tile pairs' visiting order. */
const BUCKETS = 4096;
/**
 * Relative margin of every rejection that is not the exact test: a bound or a threshold must
 * exceed the k-th distance by tol·(‖x_i‖² + ‖x_j‖²) (or the like), tol = TOL·(1 + d/256), vastly
 * more than the rounding of the bound (≲ 8·√m·d·ε relative to those norms) and of the computed
 * distance (≲ 2(d + 2)·ε).
 */
const TOL = 1e-9;

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
export function sweep(L: Layout, d: number, heaps: Heaps, T: number): void {
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
