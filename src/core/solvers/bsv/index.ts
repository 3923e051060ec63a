/**
 * Best Single View (BSV) as a registered solver: the declaration, the checks and the run
 * (`bsv.ts` holds the math). It declares `input: 'complete'`: the protocol fills each view's
 * missing samples with the view's mean first (`../complete.ts`). The view with the largest
 * eigengap (criterion 'eigengap', first on ties) or the forced view (criterion 'view') gives
 * the embedding, which the protocol clusters with k-means. See README.md.
 */
import { MAX_VIEW_VALUES } from '../../limits';
import type { Rng } from '../../random';
import { denseValues, fillNote } from '../complete';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type ParamsOf,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { viewSpectrum, type ViewSpectrum } from './bsv';
import { bsvSchema } from './params';

export { viewSpectrum, type ViewSpectrum } from './bsv';
export { bsvSchema } from './params';
export { MAX_VIEW_VALUES } from '../../limits';

function* run(
  ds: SolverInput,
  params: ParamsOf<typeof bsvSchema>,
  k: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  const { neighbors, criterion, view: forced } = params;
  const V = ds.views.length;
  const { n } = ds;
  if (V === 0) throw new SolverInputError('bsv: the dataset has no views');
  if (criterion === 'view' && forced > V) {
    throw new SolverInputError(
      `bsv: parameter 'view' is ${forced}, but the dataset has ${V} views (1..${V})`,
    );
  }
  if (neighbors > n - 2) {
    throw new SolverInputError(
      `bsv: parameter 'neighbors' is ${neighbors}, but n = ${n} samples allow at most ${n - 2}`,
    );
  }
  for (const v of ds.views) {
    if (n * v.d > MAX_VIEW_VALUES) {
      throw new SolverInputError(
        `bsv: view '${v.name}' would densify to n·d = ${n}·${v.d} = ${n * v.d} values, above ` +
          `the limit of ${MAX_VIEW_VALUES}`,
      );
    }
  }
  const candidates = criterion === 'view' ? [forced - 1] : ds.views.map((_, v) => v);
  const gaps: (number | null)[] = new Array<number | null>(V).fill(null);
  const spectra: (number[] | null)[] = new Array<number[] | null>(V).fill(null);
  let best = -1;
  let bestSpectrum: ViewSpectrum | null = null;
  for (const v of candidates) {
    const s = viewSpectrum(denseValues(ds.views[v]!, n), neighbors, k);
    gaps[v] = s.eigengap;
    spectra[v] = Array.from(s.values);
    if (bestSpectrum === null || s.eigengap > bestSpectrum.eigengap) {
      best = v;
      bestSpectrum = s;
    }
    yield { stage: 'solve', iteration: v + 1, objective: null, values: { eigengap: s.eigengap } };
  }
  const chosen = bestSpectrum!;
  const gapText = chosen.eigengap.toPrecision(3);
  const filled = fillNote(ds);
  const notes = [
    criterion === 'eigengap'
      ? `view ${best + 1} of ${V} chosen: largest eigengap ${gapText} (criterion 'eigengap')`
      : `view ${best + 1} of ${V} chosen: forced by parameter 'view' (criterion 'view'; ` +
        `eigengap ${gapText}; other views not computed)`,
    ...(filled ? [filled] : []),
  ];
  if (!chosen.converged)
    notes.push(`the eigensolver did not reach its tolerance for view ${best + 1}`);
  return {
    embedding: chosen.embedding,
    objective: [],
    converged: chosen.converged,
    iterations: candidates.length,
    notes,
    charts: {
      weights: {
        title: 'Eigengap λ_k − λ_{k+1} per view (the largest is chosen)',
        labels: ds.views.map((v) => v.name),
        values: gaps.map((g) => g ?? 0),
      },
    },
    diagnostics: {
      chosenView: best + 1,
      criterion,
      eigengaps: gaps,
      eigenvalues: spectra,
    },
  };
}

/** Best Single View by spectral clustering; see README.md. */
export const bsv = defineSolver({
  name: 'bsv',
  title: 'Best Single View (spectral)',
  description:
    'Baseline: spectral clustering (PKN graph, normalised affinity, k eigenvectors) of one view, ' +
    'its missing samples filled with the view’s mean. The view is chosen without labels, by the ' +
    'largest eigengap λ_k − λ_{k+1}, or forced by the user.',
  schema: bsvSchema,
  deterministic: true,
  run,
  input: 'complete',
  monotone: false,
  iterationCap: () => null,
  footprint: ({ n, dims, present, k }, p) => {
    // The filled copies of views with missing samples, then per view: its kNN lists and PKN
    // graph (≈ 4 arrays of n·(neighbors + 1)), the eigensolver's block of k + 1 columns (a few
    // n × (k + 1) blocks) and a CSR densified when the view is sparse.
    const filled = dims.reduce((a, d, v) => a + (present[v]! < n ? d : 0), 0);
    const graph = 6 * (p.neighbors + 1) + 8 * (k + 1);
    return {
      bytes: 8 * n * (filled + Math.max(0, ...dims) + graph),
      quadratic: false,
      note: 'the filled views, one view’s graph and eigenvectors',
    };
  },
  cost: ({ n, dims, k }, p) => {
    // Per candidate view: the exact kNN search (n²·d_v), then the eigensolver's Chebyshev steps
    // on the sparse graph (a hundred or so, each nnz·(k + 1), nnz ≈ 2·n·neighbors) and its dense
    // n × (k + 1) work; solved once (deterministic), k-means then runs on n × k.
    const views = p.criterion === 'view' ? [dims[p.view - 1] ?? 0] : dims;
    const eigen = 100 * 2 * n * (p.neighbors + 1) * (k + 1) + 10 * n * (k + 1) ** 2;
    return {
      solve: views.reduce((a, d) => a + n * n * d + eigen, 0),
      kmeans: n * k * k,
      perSeed: false,
    };
  },
});
