/**
 * A label-free silhouette that does not change with k: the silhouette (Rousseeuw 1987,
 * scikit-learn's definition, metrics/silhouette.ts) of the labels in each view's own feature
 * space, over the samples present in it, averaged over the views weighted by their number of
 * present samples:  s = Σ_v n_v·s_v / Σ_v n_v  over the views where s_v is defined.
 *
 * The distances of each view are computed once (`ViewDistances`) and reused for every k of a
 * sweep: O(n_v²·d_v) once, then O(n_v²) per k. Above `maxSamples` present samples (default
 * 2,000) a view keeps a seeded uniform sample of that many of them, the same for every k, and
 * the result says so. Distances are kept in single precision (n_v² floats: 16 MB at 2,000);
 * the score is a ranking aid, not a reference value.
 */
import type { View } from '../dataset';
import { matmulTB } from '../linalg/kernels';
import type { Mat } from '../linalg/types';
import type { Rng } from '../random';

/** Most present samples per view whose distances are kept (above: a seeded sample). */
export const MAX_SILHOUETTE_SAMPLES = 2000;

/** Rows per block of the Gram product of a dense view. */
const BLOCK = 256;

/** One view's pairwise Euclidean distances over the samples it keeps. */
export interface ViewDistances {
  readonly name: string;
  /** Sample indices (into 0..n−1) the distances are over, ascending. */
  readonly samples: Int32Array;
  /** Present samples of the view (samples.length when not sampled). */
  readonly present: number;
  /** (s, s) row-major distances, s = samples.length. */
  readonly dist: Float32Array;
}

/** `size` distinct indices of 0..count−1, uniformly (a partial Fisher–Yates), ascending. */
function sampleRows(count: number, size: number, rng: Rng): Int32Array {
  const idx = Int32Array.from({ length: count }, (_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + rng.int(count - i);
    const t = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = t;
  }
  return idx.slice(0, size).sort();
}

/** Squared norms and the distances of the kept rows of a dense view, by blocks of the Gram. */
function denseDistances(X: Mat, rows: Int32Array, out: Float32Array): void {
  const s = rows.length;
  const d = X.cols;
  const sub: Mat = { rows: s, cols: d, data: new Float64Array(s * d) };
  rows.forEach((r, i) => sub.data.set(X.data.subarray(r * d, (r + 1) * d), i * d));
  const sq = new Float64Array(s);
  for (let i = 0; i < s; i++) {
    let t = 0;
    for (let p = i * d; p < (i + 1) * d; p++) t += sub.data[p]! * sub.data[p]!;
    sq[i] = t;
  }
  const gram: Mat = { rows: 0, cols: s, data: new Float64Array(Math.min(BLOCK, s) * s) };
  for (let r0 = 0; r0 < s; r0 += BLOCK) {
    const b = Math.min(BLOCK, s - r0);
    const block: Mat = { rows: b, cols: d, data: sub.data.subarray(r0 * d, (r0 + b) * d) };
    const g: Mat = { rows: b, cols: s, data: gram.data.subarray(0, b * s) };
    matmulTB(block, sub, g);
    for (let i = 0; i < b; i++) {
      for (let j = 0; j < s; j++) {
        const d2 = sq[r0 + i]! + sq[j]! - 2 * g.data[i * s + j]!;
        out[(r0 + i) * s + j] = r0 + i === j || d2 <= 0 ? 0 : Math.sqrt(d2);
      }
    }
  }
}

/** The distances of the kept rows of a sparse view: sorted-index merges, O(s²·nnz per row). */
function sparseDistances(
  values: View['values'] & { kind: 'csr' },
  rows: Int32Array,
  out: Float32Array,
): void {
  const s = rows.length;
  const { indptr, indices, data } = values;
  const sq = new Float64Array(s);
  rows.forEach((r, i) => {
    let t = 0;
    for (let p = indptr[r]!; p < indptr[r + 1]!; p++) t += data[p]! * data[p]!;
    sq[i] = t;
  });
  for (let i = 0; i < s; i++) {
    const ri = rows[i]!;
    for (let j = i + 1; j < s; j++) {
      const rj = rows[j]!;
      let p = indptr[ri]!;
      let q = indptr[rj]!;
      const pe = indptr[ri + 1]!;
      const qe = indptr[rj + 1]!;
      let dotv = 0;
      while (p < pe && q < qe) {
        const a = indices[p]!;
        const b = indices[q]!;
        if (a === b) dotv += data[p++]! * data[q++]!;
        else if (a < b) p++;
        else q++;
      }
      const d2 = sq[i]! + sq[j]! - 2 * dotv;
      const dist = d2 > 0 ? Math.sqrt(d2) : 0;
      out[i * s + j] = dist;
      out[j * s + i] = dist;
    }
  }
}

/**
 * View `index`'s distances over its present samples (a seeded sample of `maxSamples` above
 * that, drawn from `rng.fork('view/<index + 1>')`); null for fewer than 3 present samples.
 */
export function viewDistance(
  v: View,
  index: number,
  rng: Rng,
  maxSamples = MAX_SILHOUETTE_SAMPLES,
): ViewDistances | null {
  const nv = v.present.length;
  if (nv < 3) return null;
  const rows =
    nv > maxSamples
      ? sampleRows(nv, maxSamples, rng.fork(`view/${index + 1}`))
      : Int32Array.from({ length: nv }, (_, i) => i);
  const dist = new Float32Array(rows.length * rows.length);
  if (v.values.kind === 'csr') sparseDistances(v.values, rows, dist);
  else denseDistances(v.values, rows, dist);
  return { name: v.name, samples: rows.map((r) => v.present[r]!), present: nv, dist };
}

/** Every view's `viewDistance`, the views with fewer than 3 present samples left out. */
export function viewDistances(
  views: readonly View[],
  rng: Rng,
  maxSamples = MAX_SILHOUETTE_SAMPLES,
): ViewDistances[] {
  return views.flatMap((v, index) => viewDistance(v, index, rng, maxSamples) ?? []);
}

/**
 * Mean silhouette of `labels` (n,) over the samples of one view's distances; null when those
 * samples hold fewer than 2 or more than s − 1 distinct labels (the silhouette is undefined).
 */
export function silhouetteOfDistances(vd: ViewDistances, labels: ArrayLike<number>): number | null {
  const s = vd.samples.length;
  const codeOf = new Map<number, number>();
  const codes = new Int32Array(s);
  for (let i = 0; i < s; i++) {
    const l = labels[vd.samples[i]!]!;
    let c = codeOf.get(l);
    if (c === undefined) codeOf.set(l, (c = codeOf.size));
    codes[i] = c;
  }
  const k = codeOf.size;
  if (k < 2 || k > s - 1) return null;
  const size = new Float64Array(k);
  for (const c of codes) size[c]!++;
  const sums = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < s; i++) {
    const own = codes[i]!;
    if (size[own] === 1) continue; // s(i) = 0
    sums.fill(0);
    const row = i * s;
    for (let j = 0; j < s; j++) sums[codes[j]!]! += vd.dist[row + j]!;
    const a = sums[own]! / (size[own]! - 1);
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own) b = Math.min(b, sums[c]! / size[c]!);
    const m = Math.max(a, b);
    if (m > 0) total += (b - a) / m;
  }
  return total / s;
}

export interface ViewSilhouette {
  /** Σ_v n_v·s_v / Σ_v n_v over the views where s_v is defined; null when none is. */
  readonly score: number | null;
  /** s_v of each view kept by `viewDistances`, in order (null: undefined there). */
  readonly perView: readonly (number | null)[];
}

/** The presence-weighted silhouette of `labels` over the views (see the file comment). */
export function viewSilhouette(
  distances: readonly ViewDistances[],
  labels: ArrayLike<number>,
): ViewSilhouette {
  let num = 0;
  let den = 0;
  const perView = distances.map((vd) => {
    const s = silhouetteOfDistances(vd, labels);
    if (s !== null) {
      num += vd.present * s;
      den += vd.present;
    }
    return s;
  });
  return { score: den > 0 ? num / den : null, perView };
}
