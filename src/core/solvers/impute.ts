/**
 * Mean imputation of a view's missing samples: the protocol the incomplete-multi-view literature
 * uses to run complete-data baselines (BSV, concatenation + k-means) on incomplete data, applied
 * by `complete.ts` for every solver declaring `input: 'complete'`. For view v with present
 * samples P_v (|P_v| = n_v) and values X_v: (n_v, d_v),
 *   μ_v = (1/n_v)·Σ_{r} X_v[r, :]                         (1, d_v)
 *   X̂_v[i, :] = X_v[r, :] if i = P_v[r],  μ_v otherwise    (n, d_v)
 * A view without any present sample imputes zeros. CSR views are densified.
 * Cost O(n·d_v) time and memory (the dense output), O(nnz) for the mean of a CSR view.
 */
import type { View } from '../dataset';
import type { Mat } from '../linalg/types';

/** μ_v: (d_v,) mean of the present samples' rows of `view` (zeros when none is present). */
export function viewMean(view: View): Float64Array {
  const d = view.d;
  const mean = new Float64Array(d);
  const m = view.present.length;
  if (m === 0) return mean;
  const vals = view.values;
  if (vals.kind === 'dense') {
    for (let r = 0; r < m; r++) {
      const o = r * d;
      for (let j = 0; j < d; j++) mean[j]! += vals.data[o + j]!;
    }
  } else {
    for (let p = 0; p < vals.indptr[m]!; p++) mean[vals.indices[p]!]! += vals.data[p]!;
  }
  for (let j = 0; j < d; j++) mean[j]! /= m;
  return mean;
}

/**
 * X̂_v: (n, d_v) dense row-major, present rows copied from the view, missing rows set to μ_v
 * (`viewMean`). `n` is the dataset's sample count.
 */
export function meanImputed(view: View, n: number): Mat {
  const d = view.d;
  const mean = viewMean(view);
  const data = new Float64Array(n * d);
  const isPresent = new Uint8Array(n);
  const vals = view.values;
  for (let r = 0; r < view.present.length; r++) {
    const i = view.present[r]!;
    isPresent[i] = 1;
    if (vals.kind === 'dense') {
      data.set(vals.data.subarray(r * d, (r + 1) * d), i * d);
    } else {
      for (let p = vals.indptr[r]!; p < vals.indptr[r + 1]!; p++)
        data[i * d + vals.indices[p]!] = vals.data[p]!;
    }
  }
  for (let i = 0; i < n; i++) if (!isPresent[i]) data.set(mean, i * d);
  return { rows: n, cols: d, data };
}
