/**
 * Concatenation baseline as a registered solver: the declaration and the run (`kmeans-concat.ts`
 * holds the math). It declares `input: 'complete'`: the protocol fills each view's missing
 * samples first (`../complete.ts`). No iterations, no randomness (k-means, the only random
 * part, belongs to the protocol).
 */
import type { Rng } from '../../random';
import { fillNote } from '../complete';
import {
  defineSolver,
  type ParamsOf,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { concatenateViews } from './kmeans-concat';
import { kmeansConcatSchema } from './params';

export { concatenateViews, MAX_CONCAT_VALUES, type ConcatNormalize } from './kmeans-concat';
export { kmeansConcatSchema } from './params';

function* run(
  ds: SolverInput,
  params: ParamsOf<typeof kmeansConcatSchema>,
  _k: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  const mode = params.normalize;
  const embedding = concatenateViews(ds, mode);
  yield { stage: 'prepare', iteration: 0, objective: null, values: { columns: embedding.cols } };
  const missing = ds.views.map((v, i) => ds.n - (ds.observed?.[i] ?? v.present).length);
  const filled = fillNote(ds);
  const notes = [
    ...(filled ? [filled] : []),
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
  input: 'complete',
  monotone: false,
  iterationCap: () => null,
  footprint: ({ n, dims, present }, p) => {
    const total = dims.reduce((a, d) => a + d, 0);
    // The filled copies of views with missing samples, E, and one normalised view's copy.
    const filled = dims.reduce((a, d, v) => a + (present[v]! < n ? d : 0), 0);
    const copy = p.normalize === 'none' ? 0 : Math.max(0, ...dims);
    return {
      bytes: 8 * n * (filled + total + copy),
      quadratic: false,
      note: 'the filled views and the n × Σd concatenation',
    };
  },
  cost: ({ n, dims, k }) => {
    // Filling, normalising and copying n × Σd values once; k-means then runs on all Σd columns.
    const total = dims.reduce((a, d) => a + d, 0);
    return { solve: 3 * n * total, kmeans: n * k * total, perSeed: false };
  },
});
