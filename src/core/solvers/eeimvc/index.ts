/**
 * EEIMVC (`eeimvc`) as a registered solver: the declaration, the checks and the run
 * (`eeimvc.ts` holds the math). It declares `input: 'incomplete'` and applies the common input
 * layer of the incomplete-view baselines itself (unit-L2 samples; views/incomplete-input.ts),
 * then the method's own convention: each view's linear kernel on its present samples only,
 * centred and normalised on that block, zeros for the missing samples. See README.md.
 */
import { normaliseRows } from '../../graph/spectral';
import { SPARSE_BELOW, sparseView } from '../../kernels/factor';
import { MAX_VIEW_VALUES } from '../../limits';
import { incompleteInput } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import { defineSolver, type ParamsOf, type SolverInput, type SolverOutput } from '../types';
import { defaultBlockWidth } from '../../linalg/blockeig';
import { eeimvcFactors, eeimvcIterate, eeimvcStart } from './eeimvc';
import { eeimvcSchema } from './params';

export { fixColumnSigns } from '../../linalg/signs';
export { eeimvcFactors, eeimvcIterate, eeimvcStart, type EeimvcStart } from './eeimvc';
export { eeimvcSchema, type EeimvcParams } from './params';

/** Refuses what the method cannot run, naming the view and the limit. */
function check(ds: SolverInput, k: number): void {
  if (ds.views.length === 0) throw new SolverInputError('eeimvc: the dataset has no views');
  if (k >= ds.n) {
    throw new SolverInputError(`eeimvc: k = ${k} clusters need more than k samples (n = ${ds.n})`);
  }
  ds.views.forEach((v, i) => {
    if (v.present.length <= k) {
      throw new SolverInputError(
        `eeimvc: view '${v.name}' (view ${i + 1}) has ${v.present.length} present samples; ` +
          `its base partition needs the top k = ${k} eigenvectors of its kernel, so at least ` +
          `${k + 1} present samples`,
      );
    }
    if (v.present.length * v.d > MAX_VIEW_VALUES) {
      throw new SolverInputError(
        `eeimvc: view '${v.name}' would densify to n_v·d = ${v.present.length}·${v.d} values ` +
          `(its centred kernel factor), above the limit of ${MAX_VIEW_VALUES}`,
      );
    }
  });
}

/**
 * Bytes at the peak: the unit-L2 copy of each view (n_v·d_v doubles) and, for a sparse one,
 * X and Xᵀ as CSR (at most SPARSE_BELOW·n_v·d_v entries of 12 bytes each), 2V + 4 (n, k)
 * arrays, the eigensolver's 8 (n, b) blocks and its operator's scratch.
 */
function footprintBytes(
  n: number,
  dims: readonly number[],
  present: readonly number[],
  k: number,
): number {
  const b = defaultBlockWidth(k);
  let copies = 0;
  let scratch = 0;
  dims.forEach((d, v) => {
    copies += (1 + (2 * 12 * SPARSE_BELOW) / 8) * present[v]! * d + present[v]! + d;
    scratch += (2 * present[v]! + d) * b;
  });
  return 8 * (copies + scratch + (2 * dims.length + 4) * n * k + 8 * n * b);
}

/** EEIMVC; see README.md. */
export const eeimvc = defineSolver({
  name: 'eeimvc',
  title: 'EEIMVC (late fusion with imputed base partitions)',
  description:
    'Efficient and Effective Incomplete Multi-view Clustering (Liu et al., TPAMI 2021): each ' +
    'view’s base partition is the top-k eigenvectors of its kernel on its present samples; the ' +
    'rows of its missing samples are imputed while a consensus partition, rotations and view ' +
    'weights are learnt by alternation. Linear in n after the start.',
  schema: eeimvcSchema,
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.iterations,
  footprint: ({ n, dims, present, k }) => ({
    bytes: footprintBytes(n, dims, present, k),
    quadratic: false,
    note: 'the centred kernel factors of the views (Σ n_v·d_v), 2V + 4 n × k partitions, the eigensolver blocks',
  }),
  cost: ({ n, dims, present, k }, p) => {
    // The start: kernel factors and about 300 block products of width b with each factor (the
    // views' and H0's solves); then per iteration O(n·k²·V).
    const factors = dims.reduce((a, d, v) => a + present[v]! * d, 0);
    const b = defaultBlockWidth(k);
    return {
      solve: factors * (1 + 2 * 4 * 300 * b) + p.iterations * 6 * n * k * k * dims.length,
      kmeans: n * k * k,
      perSeed: false,
    };
  },
  *run(ds, params: ParamsOf<typeof eeimvcSchema>, k) {
    check(ds, k);
    const { n } = ds;
    // Sparse views go to CSR first, so the input layer scales only their nonzeros.
    const input = incompleteInput({ ...ds, views: ds.views.map(sparseView) });
    const factors = eeimvcFactors(input.views);
    yield { stage: 'kernels', iteration: 0, objective: null };
    const start = eeimvcStart(n, input.views, factors, k, params.qnorm);
    yield { stage: 'start', iteration: 0, objective: null };
    const r = yield* eeimvcIterate(start, n, k, params);
    const missing = ds.views.map((v) => n - v.present.length);
    const output: SolverOutput = {
      embedding: normaliseRows(r.Hstar),
      objective: r.objective,
      converged: r.converged,
      iterations: r.objective.length,
      notes: [
        'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)); each view’s ' +
          'linear kernel on its present samples only, centred and normalised on that block ' +
          `(missing per view: ${missing.join(', ')} of ${n}); the missing rows of each base ` +
          'partition are imputed by the iteration',
        'eigenvectors signed so that each column’s largest-magnitude entry is positive (the ' +
          'reference’s fixed-start rule; its ARPACK signs are not portable)',
        ...(start.converged
          ? []
          : [
              'an eigensolve of the start stopped above its residual tolerance (eigenvalues ' +
                'nearly tied at position k): the start is not determined to full precision',
            ]),
      ],
      charts: {
        weights: {
          title: 'View weights β',
          labels: ds.views.map((v) => v.name),
          values: Array.from(r.beta),
          trace: r.betaTrace,
        },
        spectrum: {
          kind: 'bars',
          title: 'Top-k eigenvalues of the averaged kernels (H0)',
          values: Array.from(start.h0Values),
        },
      },
      diagnostics: {
        beta: Array.from(r.beta),
        baseEigenvalues: start.baseValues.map((v) => Array.from(v)),
        h0Eigenvalues: Array.from(start.h0Values),
      },
    };
    return output;
  },
});
