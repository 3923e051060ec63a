/**
 * APMC (`apmc`) as a registered solver: the declaration, the checks and the run (`apmc.ts`
 * and its helpers hold the math). It declares `input: 'incomplete'`: it applies the common
 * input layer of the incomplete-view baselines itself (unit-L2 samples in the reference's
 * arithmetic, views/reference-norm.ts) and reads each view's present samples only. See
 * README.md.
 */
import { defaultBlockWidth } from '../../linalg/blockeig';
import { referenceUnitRowsView } from '../../views/reference-norm';
import { SolverInputError } from '../params';
import { defineSolver, type ParamsOf, type ProblemShape, type SolverInput } from '../types';
import { DENSE_SPECTRUM_BELOW, pairGraphs, spectrum } from './apmc';
import { hasView, presenceGroups, type Groups } from './groups';
import { apmcSchema } from './params';

export { apmcSchema, type ApmcParams } from './params';
export { pairGraphs, spectrum, type ApmcSpectrum } from './apmc';
export { presenceGroups, type Groups } from './groups';
export { pairGraph, type PairGraph } from './similarity';
export { degrees, similarityOp, similarityTrace } from './operator';
export { denseSimilarity, similarityChecks, type SimilarityChecks } from './dense';

type Params = ParamsOf<typeof apmcSchema>;

/** 1-based view names of a pair for messages. */
function pairName(ds: SolverInput, a: number, b: number): string {
  return `views ${a + 1} and ${b + 1} ('${ds.views[a]!.name}', '${ds.views[b]!.name}')`;
}

/** Refuses what APMC cannot run, naming the view, pair or sample and the limit. */
function check(ds: SolverInput, params: Params): Groups {
  const V = ds.views.length;
  if (V < 2) {
    throw new SolverInputError(
      `apmc: the dataset has ${V} view(s); APMC links samples through pairs of views and needs ` +
        'at least 2',
    );
  }
  ds.views.forEach((v, i) => {
    if (v.present.length === 0) {
      throw new SolverInputError(
        `apmc: view '${v.name}' (view ${i + 1}) has no present sample, so it pairs with no ` +
          'view; remove it before running',
      );
    }
  });
  const groups = presenceGroups(ds);
  const none = groups.patterns.indexOf(0);
  if (none >= 0) {
    const count = groups.start[none + 1]! - groups.start[none]!;
    throw new SolverInputError(
      `apmc: ${count} sample(s) are present in no view (the first is sample ` +
        `${groups.order[groups.start[none]!]! + 1}); APMC has no similarity for them: remove them`,
    );
  }
  for (const [a, b] of groups.pairs) {
    let m = 0;
    groups.patterns.forEach((p, g) => {
      if (hasView(p, V, a) && hasView(p, V, b)) m += groups.start[g + 1]! - groups.start[g]!;
    });
    if (m < params.anchors) {
      throw new SolverInputError(
        `apmc: ${pairName(ds, a, b)} share ${m} sample(s), fewer than anchors = ` +
          `${params.anchors}: every view pair needs at least that many paired samples (lower ` +
          "'anchors' or remove a view)",
      );
    }
  }
  return groups;
}

/** Float64 counts of the largest arrays, see `footprint` below. */
function footprintBytes({ n, dims, present, k }: ProblemShape, anchors: number): number {
  const V = dims.length;
  const groups = Math.min(n, 2 ** Math.min(V, 20) - 1);
  const b = defaultBlockWidth(k + 1);
  let dense = 0;
  let widest = 0;
  let graphs = 0;
  let buffers = 0;
  for (let a = 0; a < V; a++) {
    dense += present[a]! * dims[a]!;
    for (let c = a + 1; c < V; c++) {
      const m = Math.max(0, present[a]! + present[c]! - n);
      const rows = Math.min(n, present[a]! + present[c]!);
      widest = Math.max(widest, present[a]! * dims[a]!, present[c]! * dims[c]!);
      // Z (value + index) at ≤ 2·anchors a row, the two views' neighbour lists, U per group.
      graphs += 1.5 * rows * 2 * anchors + 1.5 * 2 * rows * anchors;
      buffers = Math.max(buffers, (Math.min(groups, rows) + 1) * Math.max(m, 1) * b);
    }
  }
  // The gathered rows of one view, a distance block, Z of every pair, the operator's buffers and
  // the eigensolver's eight n × b blocks; up to DENSE_SPECTRUM_BELOW samples L and its full
  // eigendecomposition instead (three n × n arrays, at most 6 MB).
  const spectral = n <= DENSE_SPECTRUM_BELOW ? 3 * n * n : 8 * n * b;
  return 8 * (dense + widest + (1 << 19) + graphs + buffers + spectral);
}

/** APMC; see README.md. */
export const apmc = defineSolver({
  name: 'apmc',
  title: 'APMC (anchors from paired samples)',
  description:
    'Partial multi-view clustering through anchors (Guo and Ye, AAAI 2019): for each pair of ' +
    'views, the samples present in both are anchors; every sample is linked to its nearest ' +
    'anchors in each view it has, the pair similarities are averaged into one graph, and its ' +
    'Laplacian eigenvectors are clustered by k-means. No missing value is filled.',
  schema: apmcSchema,
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  footprint: (shape, p) => ({
    bytes: footprintBytes(shape, p.anchors),
    quadratic: false,
    note: 'the views as dense rows, each pair’s sparse anchor graph, the eigensolver’s blocks',
  }),
  cost: ({ n, dims, present, k }, p) => {
    // Distances of each pair's rows to its anchors in both views, then the eigensolver's
    // products (a few hundred blocks of width ≈ k + 5 through the anchor graphs).
    const V = dims.length;
    let solve = 0;
    for (let a = 0; a < V; a++) {
      for (let c = a + 1; c < V; c++) {
        const m = Math.max(
          1,
          present[a]! + present[c]! - n,
          Math.min(present[a]!, present[c]!) / 2,
        );
        solve += 2 * m * (present[a]! * dims[a]! + present[c]! * dims[c]!);
        solve += 300 * (k + 5) * 4 * (present[a]! + present[c]!) * p.anchors;
      }
    }
    return { solve, kmeans: n * k * k, perSeed: false };
  },
  *run(ds, params, k) {
    const groups = check(ds, params);
    const views = ds.views.map(referenceUnitRowsView);
    yield { stage: 'prepare', iteration: 0, objective: null };
    const pairs = yield* pairGraphs(views, groups, params.anchors, params.guard);
    const unpicked = pairs.map((p) => p.unpicked);
    if (!params.guard && unpicked.some((u) => u > 0)) {
      throw new SolverInputError(
        'apmc: some anchors are among no sample’s ' +
          `${params.anchors} nearest (per view pair: ` +
          pairs.map((p) => `${pairName(ds, p.a, p.b)}: ${p.unpicked} of ${p.m}`).join('; ') +
          '), so their weight is 1/0 and the published code’s similarity is NaN (duplicate ' +
          "samples tie at distance 0). Set guard to true to give them weight 0 (the 'APMC " +
          "(guarded)' variant) or raise 'anchors'",
      );
    }
    const sp = spectrum(groups, pairs, k);
    yield {
      stage: 'spectral',
      iteration: 0,
      objective: null,
      values: { lambda2: sp.values[1] ?? 0 },
    };
    const V = ds.views.length;
    const notes = [
      'each present sample divided by max(1e-12, ‖x‖) (the reference’s arithmetic); missing samples ' +
        'are not filled: each pair of views links the samples present in either to the ' +
        `${Math.min(...pairs.map((p) => p.m))}…${Math.max(...pairs.map((p) => p.m))} samples present in both ` +
        `(${params.anchors} nearest anchors per sample and view)`,
      ...(V > 3
        ? [
            `${V} views: the published code has 2- and 3-view versions only; here every one of ` +
              `the ${pairs.length} view pairs is used and each similarity is the mean over the ` +
              'pairs containing both samples (the 3-view rule)',
          ]
        : []),
      ...(params.guard && unpicked.some((u) => u > 0)
        ? [
            `guard: ${unpicked.join(', ')} anchor(s) per view pair are among nobody’s nearest ` +
              'and were given weight 0 (the published code gives NaN)',
          ]
        : []),
      ...(sp.converged ? [] : ['the Laplacian eigensolver stopped before its tolerance']),
    ];
    return {
      embedding: sp.embedding,
      objective: [],
      converged: sp.converged,
      iterations: 0,
      notes,
      charts: {
        spectrum: {
          kind: 'bars',
          title: `The ${sp.values.length} smallest eigenvalues of the Laplacian D − S`,
          values: [...sp.values],
        },
      },
      diagnostics: {
        laplacianSmallest: [...sp.values],
        residualNorms: [...sp.residualNorms],
        similaritySum: sp.sum,
        similarityTrace: sp.trace,
        anchorsPerPair: pairs.map((p) => p.m),
        unpickedPerPair: unpicked,
        sigmaPerPair: pairs.map((p) => [...p.sigma]),
        eigIterations: sp.iterations,
        eigMatvecs: sp.matvecs,
      },
    };
  },
});
