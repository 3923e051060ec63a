/**
 * Concatenation baseline: every view mean-imputed (`../impute.ts`), optionally normalised, and
 * laid side by side,
 *   E = [X̂_1 | X̂_2 | … | X̂_V]:  (n, Σ_v d_v),  views[v]: (n_v, d_v) → X̂_v: (n, d_v),
 * which the evaluation protocol clusters with k-means. No iterations, no randomness (k-means,
 * the only random part, belongs to the protocol). Cost O(n·Σd_v) time and memory; refused above
 * MAX_CONCAT_VALUES values (see README.md).
 */
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import { meanImputed, missingCount } from '../impute';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type ParamSchema,
  type Params,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';

/** Largest n·Σd_v the dense concatenation may hold: 2e8 doubles = 1.6 GB. */
export const MAX_CONCAT_VALUES = 2e8;

export type ConcatNormalize = 'none' | 'zscore' | 'l2-rows';

export const kmeansConcatSchema: ParamSchema = {
  normalize: {
    type: 'enum',
    values: ['none', 'zscore', 'l2-rows'],
    default: 'none',
    doc:
      "Scaling applied to each view before concatenation. 'none': raw features. 'zscore': every " +
      'feature centred and divided by its standard deviation over the present samples (constant ' +
      "features become 0; imputed samples become 0). 'l2-rows': each sample's row of each view " +
      'scaled to unit Euclidean length, so every view weighs the same in the distances.',
  },
};

/**
 * In-place per-view normalisation of X̂_v (n, d) whose present rows are `present`.
 * 'zscore' uses the present samples' mean and (population) standard deviation per column,
 * 'l2-rows' divides each row by its Euclidean norm (zero rows stay zero).
 */
function normaliseView(X: Mat, present: Int32Array, mode: ConcatNormalize): void {
  const { rows: n, cols: d, data } = X;
  if (mode === 'zscore') {
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
  } else if (mode === 'l2-rows') {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += data[i * d + j]! * data[i * d + j]!;
      if (s === 0) continue;
      const f = 1 / Math.sqrt(s);
      for (let j = 0; j < d; j++) data[i * d + j]! *= f;
    }
  }
}

/**
 * E: (n, Σd_v), the concatenation of the mean-imputed (then normalised) views.
 * Throws when n·Σd_v exceeds MAX_CONCAT_VALUES.
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
  for (const view of ds.views) {
    const X = meanImputed(view, n);
    normaliseView(X, view.present, mode);
    const d = view.d;
    // Copy row blocks: row i of X̂_v goes to columns offset .. offset + d − 1 of row i of E.
    for (let i = 0; i < n; i++) data.set(X.data.subarray(i * d, (i + 1) * d), i * total + offset);
    offset += d;
  }
  return { rows: n, cols: total, data };
}

function* run(
  ds: SolverInput,
  params: Params,
  _k: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  const mode = params['normalize'] as ConcatNormalize;
  const embedding = concatenateViews(ds, mode);
  yield { stage: 'prepare', iteration: 0, objective: null, values: { columns: embedding.cols } };
  const missing = ds.views.map((v) => missingCount(v, ds.n));
  const notes = [
    'missing samples of each view imputed with the mean of that view’s present samples ' +
      `(missing per view: ${missing.join(', ')})`,
    `views concatenated into an n × Σd = ${ds.n} × ${embedding.cols} dense matrix` +
      (mode === 'none' ? ' without normalisation' : ` after '${mode}' normalisation per view`),
  ];
  if (ds.views.some((v) => v.values.kind === 'csr'))
    notes.push('sparse (CSR) views were densified');
  return {
    embedding,
    objective: [],
    converged: true,
    iterations: 0,
    notes,
    diagnostics: { missingPerView: missing, dims: ds.views.map((v) => v.d) },
  };
}

/** Concatenated views (mean-imputed) for k-means. See README.md. */
export const kmeansConcat = defineSolver({
  name: 'kmeans-concat',
  title: 'k-means on concatenated views',
  description:
    'Baseline: the views, each with its missing samples filled with the mean of its present ' +
    'samples, are concatenated feature-wise and clustered by k-means (run by the evaluation ' +
    'protocol).',
  schema: kmeansConcatSchema,
  deterministic: true,
  run,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  footprint: ({ n, dims }) => {
    const total = dims.reduce((a, d) => a + d, 0);
    return {
      bytes: 8 * n * (total + Math.max(0, ...dims)),
      quadratic: false,
      note: 'the n × Σd concatenation',
    };
  },
});
