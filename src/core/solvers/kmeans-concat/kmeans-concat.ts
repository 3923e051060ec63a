/**
 * The concatenation baseline's math: every (completed) view optionally normalised ('zscore'
 * per column on the observed samples, 'l2-rows' each row to unit length), and the views
 * laid side by side,
 *   E = [X̂_1 | X̂_2 | … | X̂_V]:  (n, Σ_v d_v),  X̂_v: (n, d_v),
 * which the evaluation protocol clusters with k-means. Cost O(n·Σd_v) time and memory; refused
 * above MAX_CONCAT_VALUES values (see README.md).
 */
import { normaliseRows } from '../../graph/spectral';
import type { Mat } from '../../linalg/types';
import { denseValues, observedSamples } from '../complete';
import { SolverInputError } from '../params';
import type { SolverInput } from '../types';

/** Largest n·Σd_v the dense concatenation may hold: 2e8 doubles = 1.6 GB. */
export const MAX_CONCAT_VALUES = 2e8;

export type ConcatNormalize = 'none' | 'zscore' | 'l2-rows';

/**
 * In-place z-score of X̂_v (n, d) whose originally present rows are `present`: each column
 * centred on the present samples' mean and divided by their (population) standard deviation.
 */
function zscoreColumns(X: Mat, present: Int32Array): void {
  const { rows: n, cols: d, data } = X;
  const m = present.length;
  const mean = new Float64Array(d);
  const sq = new Float64Array(d);
  for (const i of present) for (let j = 0; j < d; j++) mean[j]! += data[i * d + j]!;
  for (let j = 0; j < d; j++) mean[j]! /= Math.max(m, 1);
  for (const i of present)
    for (let j = 0; j < d; j++) {
      const t = data[i * d + j]! - mean[j]!;
      sq[j]! += t * t;
    }
  const inv = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const sd = Math.sqrt(sq[j]! / Math.max(m, 1));
    inv[j] = sd > 0 ? 1 / sd : 0;
  }
  for (let i = 0; i < n; i++)
    for (let j = 0; j < d; j++) data[i * d + j] = (data[i * d + j]! - mean[j]!) * inv[j]!;
}

/**
 * E: (n, Σd_v), the concatenation of the completed (then normalised) views of `ds` (every view
 * holds all n samples: `fillMissing`). Throws when n·Σd_v exceeds MAX_CONCAT_VALUES.
 */
export function concatenateViews(ds: SolverInput, mode: ConcatNormalize): Mat {
  const { n } = ds;
  const total = ds.views.reduce((s, v) => s + v.d, 0);
  if (n * total > MAX_CONCAT_VALUES) {
    throw new SolverInputError(
      `kmeans-concat: the dense concatenation would hold n·Σd = ${n}·${total} = ${n * total} ` +
        `values (${((n * total * 8) / 1e9).toFixed(1)} GB), above the limit of ` +
        `${MAX_CONCAT_VALUES} (${(MAX_CONCAT_VALUES * 8) / 1e9} GB); reduce the views' dimensions`,
    );
  }
  const data = new Float64Array(n * total);
  let offset = 0;
  ds.views.forEach((view, v) => {
    const d = view.d;
    const values = denseValues(view, n);
    let X = values;
    if (mode === 'l2-rows') X = normaliseRows(values);
    else if (mode === 'zscore') {
      // The z-score works in place, so it gets a copy of the view's own array.
      X = { rows: n, cols: d, data: values.data.slice() };
      zscoreColumns(X, observedSamples(ds, v));
    }
    // Row i of X̂_v goes to columns offset .. offset + d − 1 of row i of E, one view at a time,
    // so only one normalised copy is alive (linalg/rows concatColumns would hold them all).
    for (let i = 0; i < n; i++) data.set(X.data.subarray(i * d, (i + 1) * d), i * total + offset);
    offset += d;
  });
  return { rows: n, cols: total, data };
}
