/**
 * Best Single View (BSV): spectral clustering of each view alone, keeping one view's embedding.
 * For view v (views[v]: (n_v, d_v)):
 *   1. X̂_v: (n, d_v), the missing samples filled with the view's mean (`../impute.ts`);
 *   2. W_v: (n, n) CSR, the symmetrised PKN graph of X̂_v with `neighbors` neighbours
 *      (Nie, Wang & Huang, KDD 2014; `graph/pkn.ts`);
 *   3. L_v = D^{-1/2}·W_v·D^{-1/2} (`graph/affinity.ts`), its k+1 largest eigenpairs
 *      λ_1 ≥ … ≥ λ_{k+1} from the block eigensolver (rows in RCM order for cache locality);
 *   4. eigengap g_v = λ_k − λ_{k+1}; F_v: (n, k) the first k eigenvectors, rows scaled to unit
 *      length (Ng, Jordan & Weiss, NIPS 2001).
 * The view with the largest g_v (criterion 'eigengap', first on ties) or the forced view
 * (criterion 'view') gives the embedding, which the protocol clusters with k-means.
 * Cost per view: O(n²·d_v) for the kNN search + the eigensolver's O(nnz·(k+1)) per filter step;
 * memory O(n·d_v + n·neighbors + n·k). See README.md.
 */
import { normalisedAffinity } from '../../graph/affinity';
import { pknGraph } from '../../graph/pkn';
import { permuteCsr, rcmOrder } from '../../graph/reorder';
import { normaliseRows } from '../../graph/spectral';
import { blockEig, csrOp } from '../../linalg/blockeig';
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

/** Largest n·d_v one densified (imputed) view may hold: 2e8 doubles = 1.6 GB. */
export const MAX_VIEW_VALUES = 2e8;

export const bsvSchema: ParamSchema = {
  neighbors: {
    type: 'int',
    min: 3,
    max: 100,
    default: 10,
    doc: 'Neighbours per sample in each view’s PKN (adaptive-neighbour) graph.',
  },
  criterion: {
    type: 'enum',
    values: ['eigengap', 'view'],
    default: 'eigengap',
    doc:
      "How the single view is chosen. 'eigengap' (label-free): the view whose normalised " +
      "affinity has the largest gap λ_k − λ_{k+1}. 'view': the view given by `view`.",
  },
  view: {
    type: 'int',
    min: 1,
    max: 64,
    default: 1,
    doc: "1-based view to use when criterion is 'view' (ignored otherwise).",
  },
};

/** The spectral analysis of one view's graph. */
export interface ViewSpectrum {
  /** (n, k) eigenvectors of the k largest eigenvalues, rows scaled to unit length. */
  readonly embedding: Mat;
  /** (min(k+1, n),) largest eigenvalues of L_v, descending. */
  readonly values: Float64Array;
  /** λ_k − λ_{k+1} (0 when k = n). */
  readonly eigengap: number;
  readonly converged: boolean;
}

/**
 * Steps 2–4 for one (imputed, dense) view X: (n, d): PKN graph, normalised affinity, the k+1
 * largest eigenpairs, the eigengap and the row-normalised k-dimensional embedding.
 */
export function viewSpectrum(X: Mat, neighbors: number, k: number): ViewSpectrum {
  const n = X.rows;
  const W = pknGraph(X, neighbors);
  const perm = rcmOrder(W);
  const L = permuteCsr(normalisedAffinity(W), perm);
  const m = Math.min(k + 1, n);
  const r = blockEig(csrOp(L), m, { bounds: { lower: -1, upper: 1 }, which: 'largest' });
  // First k eigenvector columns, rows put back in sample order: F[perm[i], :] = V[i, :k].
  const F = new Float64Array(n * k);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < k; j++) F[perm[i]! * k + j] = r.vectors.data[i * m + j]!;
  const eigengap = m > k ? r.values[k - 1]! - r.values[k]! : 0;
  return {
    embedding: normaliseRows({ rows: n, cols: k, data: F }),
    values: r.values,
    eigengap,
    converged: r.converged,
  };
}

function* run(
  ds: SolverInput,
  params: Params,
  k: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  const neighbors = params['neighbors'] as number;
  const criterion = params['criterion'] as 'eigengap' | 'view';
  const forced = params['view'] as number;
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
    const s = viewSpectrum(meanImputed(ds.views[v]!, n), neighbors, k);
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
  const notes = [
    criterion === 'eigengap'
      ? `view ${best + 1} of ${V} chosen: largest eigengap ${gapText} (criterion 'eigengap')`
      : `view ${best + 1} of ${V} chosen: forced by parameter 'view' (criterion 'view'; ` +
        `eigengap ${gapText}; other views not computed)`,
    'missing samples of each view imputed with the mean of that view’s present samples ' +
      `(missing in view ${best + 1}: ${missingCount(ds.views[best]!, n)} of ${n})`,
  ];
  if (!chosen.converged)
    notes.push(`the eigensolver did not reach its tolerance for view ${best + 1}`);
  return {
    embedding: chosen.embedding,
    objective: [],
    converged: chosen.converged,
    iterations: candidates.length,
    notes,
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
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  footprint: ({ n, dims }) => ({
    bytes: 8 * n * (Math.max(0, ...dims) + 64),
    quadratic: false,
    note: 'one imputed view and its graph',
  }),
});
