/**
 * The Lloyd reassignment scan with distances through GEMM (kmeans.ts):
 *
 *   ‖x_i − c_j‖² ≈ a_ij = ‖x̃_i‖² − 2·x̃_i·c̃_j + ‖c̃_j‖²,   x̃ = x − μ, c̃ = c − μ,
 *
 * X̃·C̃ᵀ (n × k) by `gemm` (any kernel: packed, FMA or plain), μ the column means of X (the
 * expansion is translation invariant; centring keeps ‖x̃‖² small against the distances, as
 * scikit-learn centres X). The expansion cancels, so its values only choose candidates: with
 * E_i a bound on |a_ij − D_ij| for every j (D_ij the exact-difference distance the full scan
 * compares), a centre j with a_ij > min_j a_ij + 2E_i cannot be a nearest centre. The own
 * distance is always computed exactly (it is the SSE's term); when the approximate minimum is
 * unique beyond 2E_i it decides alone, else every candidate is computed exactly and the full
 * scan's rule applied to them (the first minimum, taken when strictly closer). Labels, SSE and
 * centres are therefore those of the exact scan, whatever the GEMM's summation order.
 *
 * Error bound: each term of the expansion is a dot product of length d, so
 * |a_ij − ‖x̃_i − c̃_j‖²| ≤ γ_{d+2}(‖x̃_i‖ + ‖c̃_j‖)² (γ_m = m·ε/(1 − m·ε), any summation order,
 * fused or not); the centring roundings move the distance by ≤ 3ε(‖x̃_i‖ + ‖c̃_j‖)², and the
 * exact-difference value is within (d + 3)ε of the true one. E_i = 4(d + 8)·ε·(‖x̃_i‖ + max_j
 * ‖c̃_j‖)² is twice their sum. Cost per scan 2n·k·d flops in the GEMM, O(n·(k + d)) here.
 */
import { gemm } from '../linalg/gemm';
import { chunkBounds, float64Array } from '../parallel';
import type { Mat } from '../linalg/types';
import { BOUND_SLACK, centreMoves, halfGaps, SKIP_MARGIN } from './kmeans-bounds';
import { sqDist, type Work } from './kmeans-work';

/** Buffers of the GEMM scan, made on its first use in a call. */
export interface GemmWork {
  /** (n, d) X − μ (in shared memory when helpers split the rows), and (n,) ‖x_i − μ‖². */
  readonly Xc: Mat;
  readonly xx: Float64Array;
  /** (d,) μ, the column means of X. */
  readonly mean: Float64Array;
  /** (k, d) C − μ, and (k,) ‖c_j − μ‖². */
  readonly Cc: Mat;
  readonly cc: Float64Array;
  /** (n,) per row: the approximate nearest centre, the smallest and second smallest a_ij. */
  readonly arg: Int32Array;
  readonly amin: Float64Array;
  readonly second: Float64Array;
  /** (rows, k) X̃·C̃ᵀ scratch for one chunk of rows. */
  G: Float64Array;
}

const EPS = 2 ** -52;

/** Rows of X̃·C̃ᵀ per GEMM call: the chunk's product stays in cache for its scan. */
const CHUNK = 2048;

/**
 * The GEMM buffers for w (centred X and its squared norms), made once per call; X̃ and ‖x̃‖²
 * in shared memory when `shared` (helpers read them).
 */
export function gemmWork(w: Work, shared: boolean): GemmWork {
  if (w.gemm) return w.gemm;
  const { X, k } = w;
  const { rows: n, cols: d, data } = X;
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let p = 0; p < d; p++) mean[p]! += data[i * d + p]!;
  for (let p = 0; p < d; p++) mean[p]! /= n;
  const xc = float64Array(n * d, shared);
  const xx = float64Array(n, shared);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = 0; p < d; p++) {
      const t = data[i * d + p]! - mean[p]!;
      xc[i * d + p] = t;
      s += t * t;
    }
    xx[i] = s;
  }
  w.gemm = {
    Xc: { rows: n, cols: d, data: xc },
    xx,
    mean,
    Cc: { rows: k, cols: d, data: new Float64Array(k * d) },
    cc: new Float64Array(k),
    arg: new Int32Array(n),
    amin: new Float64Array(n),
    second: new Float64Array(n),
    G: new Float64Array(0),
  };
  return w.gemm;
}

/** C̃ = C − μ and its squared norms; returns max_j ‖c̃_j‖ (rounded up). */
function centredCentres(w: Work, g: GemmWork): number {
  const { k, C } = w;
  const d = w.X.cols;
  const { mean, Cc, cc } = g;
  let cmax = 0;
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let p = 0; p < d; p++) {
      const t = C[j * d + p]! - mean[p]!;
      Cc.data[j * d + p] = t;
      s += t * t;
    }
    cc[j] = s;
    if (s > cmax) cmax = s;
  }
  return Math.sqrt(cmax) * (1 + 1e-6);
}

/** Input of the helper task 'kmeans.approx' (`core/tasks.ts`): rows i0 … i1 − 1. */
export interface ApproxTaskInput {
  readonly Xc: Mat;
  readonly xx: Float64Array;
  readonly Cc: Mat;
  readonly cc: Float64Array;
  readonly i0: number;
  readonly i1: number;
}

/** The approximate pass of rows i0 … i1 − 1 on a helper: [arg, amin, second] of those rows. */
export function approxTask(input: ApproxTaskInput): [Int32Array, Float64Array, Float64Array] {
  const { i0, i1 } = input;
  const m = i1 - i0;
  const arg = new Int32Array(m);
  const amin = new Float64Array(m);
  const second = new Float64Array(m);
  approxRows(input.Xc, input.xx, input.Cc, input.cc, i0, i1, arg, amin, second, 0, {
    G: new Float64Array(0),
  });
  return [arg, amin, second];
}

/**
 * For rows i0 … i1 − 1: a_ij = ‖x̃_i‖² − 2(X̃·C̃ᵀ)_ij + ‖c̃_j‖² through `gemm` in chunks of
 * CHUNK rows; arg[o] the first index of the smallest, amin[o] and second[o] the two smallest
 * values (o = i − i0 + at).
 */
function approxRows(
  Xc: Mat,
  xx: Float64Array,
  Cc: Mat,
  cc: Float64Array,
  i0: number,
  i1: number,
  arg: Int32Array,
  amin: Float64Array,
  second: Float64Array,
  at: number,
  scratch: { G: Float64Array },
): void {
  const d = Xc.cols;
  const k = Cc.rows;
  if (scratch.G.length < CHUNK * k) scratch.G = new Float64Array(CHUNK * k);
  const G = scratch.G;
  for (let c0 = i0; c0 < i1; c0 += CHUNK) {
    const rows = Math.min(CHUNK, i1 - c0);
    const A: Mat = { rows, cols: d, data: Xc.data.subarray(c0 * d, (c0 + rows) * d) };
    gemm(A, Cc, { rows, cols: k, data: G.subarray(0, rows * k) }, { transB: true });
    twoSmallest(G, xx, cc, c0, rows, k, arg, amin, second, at + c0 - i0);
  }
}

/** The two smallest a_ij of each of `rows` rows from row c0 (G their products), at out + o. */
function twoSmallest(
  G: Float64Array,
  xx: Float64Array,
  cc: Float64Array,
  c0: number,
  rows: number,
  k: number,
  arg: Int32Array,
  amin: Float64Array,
  second: Float64Array,
  out: number,
): void {
  for (let o = 0; o < rows; o++) {
    const base = xx[c0 + o]!;
    const r = o * k;
    let m1 = Infinity;
    let m2 = Infinity;
    let a = 0;
    for (let j = 0; j < k; j++) {
      const v = base - 2 * G[r + j]! + cc[j]!;
      if (v < m1) {
        m2 = m1;
        m1 = v;
        a = j;
      } else if (v < m2) m2 = v;
    }
    arg[out + o] = a;
    amin[out + o] = m1;
    second[out + o] = m2;
  }
}

/**
 * The approximate pass over every row, the chunks after the first on helpers when w.pool is
 * set (each computes exactly what this thread would: results do not depend on the pool).
 */
function approxAll(w: Work, g: GemmWork): void {
  const n = w.X.rows;
  const pool = w.pool;
  const parts = pool ? Math.min(pool.helpers + 1, Math.floor(n / CHUNK)) : 1;
  const bounds = chunkBounds(n, Math.max(1, parts));
  const input = (t: number): ApproxTaskInput => ({
    Xc: g.Xc,
    xx: g.xx,
    Cc: g.Cc,
    cc: g.cc,
    i0: bounds[t]!,
    i1: bounds[t + 1]!,
  });
  for (let t = 1; t < bounds.length - 1; t++) pool!.start(t - 1, 'kmeans.approx', input(t));
  let error: unknown = null;
  try {
    approxRows(g.Xc, g.xx, g.Cc, g.cc, 0, bounds[1]!, g.arg, g.amin, g.second, 0, g);
  } catch (e) {
    error = e;
  }
  for (let t = 1; t < bounds.length - 1; t++) {
    try {
      const [a, m1, m2] = pool!.finish(t - 1) as [Int32Array, Float64Array, Float64Array];
      g.arg.set(a, bounds[t]);
      g.amin.set(m1, bounds[t]);
      g.second.set(m2, bounds[t]);
    } catch (e) {
      error ??= e;
    }
  }
  if (error !== null) throw error;
}

/**
 * The reassignment scan over every row on GEMM distances (see the file comment): adds the own
 * distances to w.sse, records the moves, accumulates the next centres' sums in row order (as
 * `scanRows`, so the centres are the same bits), and leaves in w.lower a valid lower bound for
 * Hamerly's scan (`boundedScan`) of every row. With `counting` (w.lower valid on entry for the
 * centres w.prevC), w.unskipped := the rows Hamerly's test would not have skipped.
 */
export function gemmScan(w: Work, counting: boolean): void {
  const g = gemmWork(w, w.pool !== null);
  const { X, k, C, labels, lower, moveRow, moveTo, nextSums, nextCounts, half } = w;
  const { rows: n, cols: d, data } = X;
  const cmax = centredCentres(w, g);
  approxAll(w, g);
  const { xx, arg, amin, second } = g;
  const tol = 4 * (d + 8) * EPS;
  let max1 = 0;
  let max2 = 0;
  let arg1 = -1;
  if (counting) {
    [max1, max2, arg1] = centreMoves(C, w.prevC, w.delta, k, d);
    halfGaps(C, half, k, d);
  }
  let unskipped = 0;
  let sse = w.sse;
  let moves = w.moves;
  for (let i = 0; i < n; i++) {
    const a = labels[i]!;
    const own = sqDist(data, i, C, a, d);
    sse += own;
    if (counting && !wouldSkip(lower[i]! - (a === arg1 ? max2 : max1), own, half[a]!)) {
      unskipped++;
    }
    const e = Math.sqrt(xx[i]!) + cmax;
    const err = tol * e * e;
    const m1 = amin[i]!;
    const m2 = second[i]!;
    let target: number;
    let others: number;
    if (m2 > m1 + 2 * err) {
      // One candidate: it is the nearest centre, strictly closer than any other (own included).
      target = arg[i]!;
      others = m2;
    } else {
      target = recheck(w, g, i, a, own, m1 + 2 * err);
      others = target === arg[i] ? m2 : m1;
    }
    if (target !== a) {
      moveRow[moves] = i;
      moveTo[moves++] = target;
    }
    const lo = others - err;
    lower[i] = lo > 0 ? Math.sqrt(lo * (1 - BOUND_SLACK)) : 0;
    nextCounts[target]!++;
    const c = target * d;
    const x = i * d;
    for (let p = 0; p < d; p++) nextSums[c + p]! += data[x + p]!;
  }
  w.sse = sse;
  w.moves = moves;
  w.unskipped = counting ? unskipped : n;
}

/** Hamerly's test of `boundedScan`: lo a lower bound on the other distances, own exact. */
function wouldSkip(lo: number, own: number, halfGap: number): boolean {
  const need = own * (1 + SKIP_MARGIN);
  if (lo > 0 && lo * lo >= need) return true;
  const h = 2 * halfGap - Math.sqrt(own * (1 + BOUND_SLACK));
  return h > 0 && h * h >= need;
}

/**
 * The full scan's decision for row i among the candidates j with a_ij ≤ limit (the others
 * cannot be nearest): exact distances, the first minimum, taken when strictly below `own`.
 * a_ij is recomputed here by a dot product (any rounding of it is within the same bound E_i).
 */
function recheck(w: Work, g: GemmWork, i: number, a: number, own: number, limit: number): number {
  const { k, C, X } = w;
  const d = X.cols;
  const xc = g.Xc.data;
  const cc = g.Cc.data;
  const base = g.xx[i]!;
  let best = -1;
  let min = Infinity;
  for (let j = 0; j < k; j++) {
    let dot = 0;
    for (let p = 0; p < d; p++) dot += xc[i * d + p]! * cc[j * d + p]!;
    if (base - 2 * dot + g.cc[j]! > limit) continue;
    const dij = j === a ? own : sqDist(X.data, i, C, j, d);
    if (dij < min) {
      min = dij;
      best = j;
    }
  }
  return min < own ? best : a;
}
