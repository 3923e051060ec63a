/**
 * MVGL (Zhan, Zhang, Guan & Wang, IEEE TCYB 2018): per-view rank-constrained graphs, then a
 * global graph with exactly c components learnt from their weighted sum. Labels are the
 * connected components of the final global graph (the method's own labelling, no k-means).
 */
import type { Mat } from '../../linalg/types';
import { float64Array, threadPool } from '../../parallel';
import { SolverInputError } from '../params';
import { defineSolver, type SolverInput } from '../types';
import { mvglIterate } from './mvgl';
import { mvglSchema } from './params';

/** The views as dense (n, d_v) matrices (complete input: every sample present). */
function denseViews(input: SolverInput, k: number, neighbors: number): Mat[] {
  const n = input.n;
  if (neighbors > n - 2) {
    throw new SolverInputError(
      `mvgl: neighbors = ${neighbors} needs at least ${neighbors + 2} samples, the data has ${n}`,
    );
  }
  if (k + 1 > n) {
    throw new SolverInputError(`mvgl: ${k} clusters need at least ${k + 1} samples, have ${n}`);
  }
  const shared = threadPool() !== null && input.views.length > 1;
  return input.views.map((view) => {
    if (view.d === 0 || view.present.length !== n) {
      throw new SolverInputError(
        `mvgl: view '${view.name}' has ${view.present.length} of ${n} samples and ${view.d} ` +
          'features; MVGL needs every sample in every view and at least one feature',
      );
    }
    // In shared memory when helper threads will learn some of the view graphs (no copies).
    const X: Mat = { rows: n, cols: view.d, data: float64Array(n * view.d, shared) };
    const v = view.values;
    if (v.kind === 'dense') X.data.set(v.data);
    else {
      for (let i = 0; i < n; i++) {
        for (let p = v.indptr[i]!; p < v.indptr[i + 1]!; p++) {
          X.data[i * view.d + v.indices[p]!] = v.data[p]!;
        }
      }
    }
    for (let p = 0; p < X.data.length; p++) {
      if (!Number.isFinite(X.data[p]!)) {
        throw new SolverInputError(`mvgl: view '${view.name}' holds a non-finite value`);
      }
    }
    return X;
  });
}

export const mvgl = defineSolver({
  name: 'mvgl',
  title: 'MVGL: graph learning for multi-view clustering',
  description:
    'Zhan, Zhang, Guan & Wang (IEEE TCYB 2018): learns a rank-constrained graph per view, ' +
    'then a global graph with exactly c connected components from their per-sample weighted ' +
    'sum; the clusters are its components. Reproduces the authors’ MATLAB code (k = 15, ' +
    'islocal = 1, 30 inner iterations, outer tolerance 1e-3, 30 outer passes).',
  schema: mvglSchema,
  deterministic: true,
  input: 'complete',
  monotone: false,
  graph: 'the final symmetric global graph, whose connected components are the labels',
  iterationCap: (p) => p.outerIterations,
  footprint: ({ n, dims, k }, p) => {
    // The dense copies of the views; stage 2's graphs live on the union of the views'
    // symmetrised kNN patterns (up to 2·k·V entries a row, 12 bytes each), and about 2V + 6 of
    // them are live at once (S_v and their weighted copies, S0, A, S, transposes); the weights'
    // (V + 1)·n scratch, the eigensolver's blocks (≈ 8 of n × (c + 4)), the kNN and GEMM
    // workspace; the dense path adds n × n twice.
    const V = dims.length;
    const views = 8 * n * dims.reduce((a, d) => a + d, 0);
    const graphs = 12 * 2 * n * p.neighbors * V * (2 * V + 6) + 2 ** 20;
    const eig = 8 * 8 * n * (k + 5);
    const dense = p.eigensolver === 'dense' ? 16 * n * n : 0;
    return {
      bytes: views + graphs + eig + 8 * (V + 2) * n + dense,
      quadratic: p.eigensolver === 'dense',
      note:
        p.eigensolver === 'dense'
          ? 'the views, sparse graphs, and two dense n × n arrays for the full decomposition'
          : 'the views, V + 3 sparse kNN-pattern graphs and the eigensolver blocks',
    };
  },
  cost: ({ n, dims, k }, p) => {
    const V = dims.length;
    const knn = n * n * dims.reduce((a, d) => a + d, 0);
    const eig =
      p.eigensolver === 'dense' ? 10 * n ** 3 : 200 * 2 * n * 2 * p.neighbors * (k + 1) * V;
    const inner = p.innerIterations * (V + p.outerIterations) * (eig + n * p.neighbors * k);
    return {
      solve: knn + inner + p.outerIterations * n * V * V * p.neighbors,
      kmeans: 0,
      perSeed: false,
    };
  },
  *run(input, params, k) {
    const Xs = denseViews(input, k, params.neighbors);
    const r = yield* mvglIterate(Xs, k, {
      neighbors: params.neighbors,
      innerIterations: params.innerIterations,
      outerIterations: params.outerIterations,
      tolerance: params.tolerance,
      eigensolver: params.eigensolver,
    });
    const n = input.n;
    const V = Xs.length;
    const meanAlpha = Array.from({ length: V }, (_, v) => {
      let s = 0;
      for (let j = 0; j < n; j++) s += r.alpha[v * n + j]!;
      return s / n;
    });
    return {
      embedding: r.F,
      labels: r.labels,
      objective: r.objective,
      converged: r.converged,
      iterations: r.objective.length,
      graph: { kind: 'affinity', W: r.graph },
      notes: [
        'labels are the connected components of the final global graph (no k-means)',
        ...(r.components !== k
          ? [`the final global graph has ${r.components} components, not ${k}`]
          : []),
        ...(r.converged ? [] : [`stopped by the cap of ${params.outerIterations} outer passes`]),
      ],
      charts: {
        weights: {
          title: 'Mean weight α_v per view',
          labels: input.views.map((v) => v.name),
          values: meanAlpha,
          trace: r.passes.map((p) => p.alphaMean),
        },
      },
      diagnostics: { views: r.views, passes: r.passes, components: r.components },
    };
  },
});
