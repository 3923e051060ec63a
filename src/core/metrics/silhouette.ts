/**
 * Silhouette (Rousseeuw 1987), with scikit-learn's definitions (`silhouette_samples`,
 * `silhouette_score`), Euclidean distance:
 *
 *   a(i) = Σ_{j ∈ C_i, j ≠ i} d(i, j) / (|C_i| − 1)         mean distance within i's cluster
 *   b(i) = min_{C ≠ C_i} Σ_{j ∈ C} d(i, j) / |C|             mean distance to the nearest other cluster
 *   s(i) = (b(i) − a(i)) / max(a(i), b(i)),  s(i) = 0 when |C_i| = 1 (or a = b = 0)
 *   score = mean_i s(i)
 *
 * Distances are formed by blocks of rows as in scikit-learn's `euclidean_distances`:
 * d(i, j)² = ‖x_i‖² + ‖x_j‖² − 2 x_i·x_j, clipped at 0, with d(i, i) = 0; the Gram block
 * X[block] · Xᵀ comes from the `matmulTB` kernel. Time O(n²·d), memory O(BLOCK·n + n·k).
 *
 * Above `maxExact` samples (default 5,000) the score is that of a uniform random subset of
 * `sampleSize` samples drawn with the given rng (scikit-learn's `sample_size`: the silhouette of
 * the subset, not of sampled points against all n). The result says which was done and how many
 * samples were used.
 */
import { matmulTB } from '../linalg/kernels';
import type { Mat } from '../linalg/types';
import type { Rng } from '../random';
import { encodeLabels } from './contingency';

/** Rows per distance block: BLOCK × n doubles of scratch (10 MB at n = 5,000). */
const BLOCK = 256;

export interface SilhouetteOptions {
  /** Largest n computed exactly (default 5,000). */
  maxExact?: number;
  /** Subset size above `maxExact` (default `maxExact`). */
  sampleSize?: number;
}

export interface SilhouetteResult {
  /** Mean silhouette over the samples used. */
  score: number;
  /** True when every sample was used. */
  exact: boolean;
  /** Number of samples the score was computed on (n when exact). */
  sampleSize: number;
  /** Number of samples given. */
  n: number;
}

function checkInputs(X: Mat, labels: ArrayLike<number>): void {
  if (X.data.length !== X.rows * X.cols) {
    throw new RangeError(
      `silhouette: X.data has ${X.data.length} entries, not ${X.rows}x${X.cols}`,
    );
  }
  if (labels.length !== X.rows) {
    throw new RangeError(`silhouette: ${labels.length} labels for ${X.rows} samples`);
  }
}

/**
 * For the rows i = r0 .. r0 + gram.rows − 1: sums[(i − r0)·k + c] = Σ_{j in cluster c, j ≠ i} d(i, j),
 * through the Gram block gram = X[r0 ..] · Xᵀ ((gram.rows, n), overwritten).
 */
function clusterDistanceSums(
  X: Mat,
  sq: Float64Array,
  codes: Int32Array,
  k: number,
  r0: number,
  gram: Mat,
  sums: Float64Array,
): void {
  const n = X.rows;
  const d = X.cols;
  const block: Mat = {
    rows: gram.rows,
    cols: d,
    data: X.data.subarray(r0 * d, (r0 + gram.rows) * d),
  };
  matmulTB(block, X, gram);
  sums.fill(0);
  for (let b = 0; b < gram.rows; b++) {
    const i = r0 + b;
    const g = b * n;
    const s = b * k;
    for (let j = 0; j < n; j++) {
      const d2 = sq[i]! + sq[j]! - 2 * gram.data[g + j]!;
      if (j !== i && d2 > 0) sums[s + codes[j]!]! += Math.sqrt(d2);
    }
  }
}

/**
 * s(i) for every sample (n,), exactly (all n² distances). Needs 2 ≤ #labels ≤ n − 1, as
 * scikit-learn does.
 */
export function silhouetteSamples(X: Mat, labels: ArrayLike<number>): Float64Array {
  checkInputs(X, labels);
  const n = X.rows;
  const { codes, values } = encodeLabels(labels, 'labels');
  const k = values.length;
  if (k < 2 || k > n - 1) {
    throw new RangeError(`silhouette: ${k} distinct labels for ${n} samples; valid is 2 to n − 1`);
  }
  const size = new Float64Array(k);
  for (const c of codes) size[c]!++;
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = i * X.cols; p < (i + 1) * X.cols; p++) s += X.data[p]! * X.data[p]!;
    sq[i] = s;
  }
  const out = new Float64Array(n);
  const full: Mat = {
    rows: Math.min(BLOCK, n),
    cols: n,
    data: new Float64Array(Math.min(BLOCK, n) * n),
  };
  const sums = new Float64Array(full.rows * k);
  for (let r0 = 0; r0 < n; r0 += BLOCK) {
    const rows = Math.min(BLOCK, n - r0);
    const gram =
      rows === full.rows ? full : { rows, cols: n, data: full.data.subarray(0, rows * n) };
    clusterDistanceSums(X, sq, codes, k, r0, gram, sums);
    for (let b = 0; b < rows; b++) {
      const own = codes[r0 + b]!;
      if (size[own] === 1) continue; // s = 0
      const a = sums[b * k + own]! / (size[own]! - 1);
      let nearest = Infinity;
      for (let c = 0; c < k; c++) {
        if (c !== own) nearest = Math.min(nearest, sums[b * k + c]! / size[c]!);
      }
      const denom = Math.max(a, nearest);
      out[r0 + b] = denom > 0 ? (nearest - a) / denom : 0;
    }
  }
  return out;
}

/** `size` distinct indices of 0..n−1, uniformly (a partial Fisher–Yates), ascending. */
function sampleIndices(n: number, size: number, rng: Rng): Int32Array {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + rng.int(n - i);
    const t = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = t;
  }
  return idx.slice(0, size).sort();
}

/**
 * The silhouette score of `labels` (n,) on the rows of X (n × d): exact for n ≤ maxExact, else
 * on a seeded random subset (see the file comment). `rng` is used only when sampling.
 */
export function silhouette(
  X: Mat,
  labels: ArrayLike<number>,
  rng: Rng,
  options: SilhouetteOptions = {},
): SilhouetteResult {
  checkInputs(X, labels);
  const n = X.rows;
  const maxExact = options.maxExact ?? 5000;
  const sampleSize = options.sampleSize ?? maxExact;
  if (!Number.isInteger(maxExact) || maxExact < 3) {
    throw new RangeError(`silhouette: maxExact must be an integer >= 3, got ${maxExact}`);
  }
  if (!Number.isInteger(sampleSize) || sampleSize < 3) {
    throw new RangeError(`silhouette: sampleSize must be an integer >= 3, got ${sampleSize}`);
  }
  const mean = (s: Float64Array): number => s.reduce((acc, x) => acc + x, 0) / s.length;
  if (n <= maxExact || sampleSize >= n) {
    return { score: mean(silhouetteSamples(X, labels)), exact: true, sampleSize: n, n };
  }
  const idx = sampleIndices(n, sampleSize, rng);
  const d = X.cols;
  const sub: Mat = { rows: sampleSize, cols: d, data: new Float64Array(sampleSize * d) };
  const subLabels = new Float64Array(sampleSize);
  idx.forEach((i, r) => {
    sub.data.set(X.data.subarray(i * d, (i + 1) * d), r * d);
    subLabels[r] = labels[i]!;
  });
  return { score: mean(silhouetteSamples(sub, subLabels)), exact: false, sampleSize, n };
}
