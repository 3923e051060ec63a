/**
 * UEAF (unified embedding alignment with missing-view inference) as a registered solver: the
 * declaration, the checks and the run (`ueaf.ts` holds the math). It declares
 * `input: 'incomplete'` and applies the common input layer of the incomplete-view baselines
 * itself (unit-L2 samples; views/incomplete-input.ts); its own convention is the reference's:
 * missing samples are zero columns that the inferred E_v replaces. It holds dense n × n arrays
 * (the learnt graph S and the matrices built from it), so its footprint is quadratic and it
 * refuses n above MAX_UEAF_N. See README.md.
 */
import { incompleteInput } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type Footprint,
  type ParamsOf,
  type ProblemShape,
  type SolverInput,
} from '../types';
import { ueafSchema } from './params';
import { ueafIterate } from './ueaf';

export { featureGraph, missingOf, ueafIterate, type UeafResult } from './ueaf';
export { ueafSchema, type UeafParams } from './params';

/**
 * Largest n UEAF runs on: about UEAF_SQUARES dense n × n doubles (4.8 GB at this n) and a dense
 * n × n eigendecomposition and Cholesky factorisation per iteration.
 */
export const MAX_UEAF_N = 10_000;

/** Dense n × n doubles at the peak: S, the Laplacian of (S+Sᵀ)/2, A = I + λ2·L_{S∘S}, A's
 * Cholesky factor, and the eigensolver's working copy and back-transformation (2). */
export const UEAF_SQUARES = 6;

function footprint(
  { n, dims, present, k }: ProblemShape,
  p: ParamsOf<typeof ueafSchema>,
): Footprint {
  const c = p.dim === 0 ? k : p.dim;
  // Per view: the normalised copy and its transpose for the feature kNN (2·n_v·d_v), E and the
  // E-step's right-hand side (2·m_v·d_v), the feature graph (≈ 2(knn+1)·d_v entries of 12 B).
  const perView = dims.reduce(
    (s, d, v) => s + 2 * present[v]! * d + 2 * (n - present[v]!) * d + 3 * (p.knn + 1) * d,
    0,
  );
  return {
    bytes: 8 * (UEAF_SQUARES * n * n + perView + 8 * n * c),
    quadratic: true,
    note: `about ${UEAF_SQUARES} dense n × n arrays (the learnt graph S and the matrices of its P- and F-steps)`,
  };
}

/** Refuses what the method cannot run, naming the view or parameter and the limit. */
function check(ds: SolverInput, p: ParamsOf<typeof ueafSchema>, k: number): void {
  const { n } = ds;
  if (ds.views.length === 0) throw new SolverInputError('ueaf: the dataset has no views');
  if (n > MAX_UEAF_N) {
    const shape = {
      n,
      dims: ds.views.map((v) => v.d),
      present: ds.views.map((v) => v.present.length),
      k,
    };
    throw new SolverInputError(
      `ueaf: n = ${n} samples is above the method's limit of ${MAX_UEAF_N}: it holds ` +
        `${UEAF_SQUARES} dense n × n arrays (an estimated ${(footprint(shape, p).bytes / 1e9).toFixed(1)} GB) ` +
        'and eigendecomposes an n × n matrix every iteration',
    );
  }
  const c = p.dim === 0 ? k : p.dim;
  if (c > n - 1) {
    throw new SolverInputError(`ueaf: parameter 'dim' is ${c}, but at most n − 1 = ${n - 1}`);
  }
  ds.views.forEach((v, i) => {
    if (v.present.length === 0) {
      throw new SolverInputError(
        `ueaf: view '${v.name}' (view ${i + 1}) has no present sample; remove the view`,
      );
    }
  });
}

/** UEAF; see README.md. */
export const ueaf = defineSolver({
  name: 'ueaf',
  title: 'UEAF (unified embedding alignment, missing views inferred)',
  description:
    'Wen et al., AAAI 2019: a consensus embedding P aligned with each view through an ' +
    'orthonormal U_v, the missing samples of each view inferred as E_v (smoothed along a kNN ' +
    'graph of the view’s features), and a learnt n × n sample graph S that keeps P locally ' +
    'consistent; views weighted adaptively. As the public MATLAB code computes it.',
  schema: ueafSchema,
  deterministic: false,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.iterations,
  footprint,
  cost: ({ n, dims, present, k }, p) => {
    // Feature graphs: a kNN over d_v points in n_v dimensions (d_v²·n_v). Per iteration: the
    // Cholesky factorisation and the eigensolver on n × n (≈ 5n³), the S-step (4n²c), the
    // products with the views (≈ 6·n·d_v·c) and the E-step CG (≈ 10·m_v·(d_v + nnz)).
    const c = p.dim === 0 ? k : p.dim;
    const graphs = dims.reduce((s, d, v) => s + d * d * present[v]!, 0);
    const views = dims.reduce(
      (s, d, v) => s + 6 * n * d * c + 10 * (n - present[v]!) * d * (p.knn + 2),
      0,
    );
    return {
      solve: graphs + p.iterations * (5 * n * n * n + 4 * n * n * c + views),
      kmeans: n * k * c,
      perSeed: true,
    };
  },
  *run(ds, params, k, rng) {
    check(ds, params, k);
    const input = incompleteInput(ds);
    const dim = params.dim === 0 ? k : params.dim;
    const r = yield* ueafIterate(input.n, input.views, { ...params, dim }, rng);
    const missing = ds.views.map((v) => ds.n - v.present.length);
    return {
      embedding: r.embedding,
      objective: r.objective,
      converged: r.converged,
      iterations: r.objective.length,
      notes: [
        'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)); missing ' +
          'samples are zero columns whose values E_v the method infers ' +
          `(missing per view: ${missing.join(', ')} of ${ds.n})`,
        `feature graphs: binary ${params.knn}-NN over each view's features, tr(L_v) = ` +
          `${r.graphChecks.trace.join(', ')}` +
          (ds.views.some((v) => v.d <= params.knn + 1)
            ? ' (a view of at most knn + 1 features gets the complete graph, as constructW)'
            : ''),
        'the start is random (U_v, E_v, S) from the seed; the reference’s legacy MATLAB ' +
          'generator is not reproduced',
      ],
      charts: {
        weights: {
          title: 'View weights α_v',
          labels: ds.views.map((v) => v.name),
          values: r.alpha,
          trace: r.alphaTrace,
        },
      },
      diagnostics: {
        graphChecks: r.graphChecks,
        alpha: r.alpha,
        singularValues: r.singularValues,
        cgIterations: r.cgIterations,
      },
    };
  },
});
