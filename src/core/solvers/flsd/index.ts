/**
 * FLSD as a registered solver: the declaration, the checks and the run (`flsd.ts` holds the
 * math). It declares `input: 'incomplete'` and applies the input layer of the incomplete-view
 * baselines itself (views/incomplete-input.ts: unit-L2 samples), then the reference's own
 * convention: each view keeps only its present samples (missing rows removed), with a binary
 * kNN graph over them (graph/knn-binary.ts). The embedding is Pc with unit-L2 rows. See
 * README.md.
 */
import { binaryKnnGraph } from '../../graph/knn-binary';
import type { View } from '../../dataset';
import { csrFromDense } from '../../linalg/kernels';
import { nnz, type Csr, type Mat } from '../../linalg/types';
import { incompleteInput } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import { defineSolver, type ParamsOf, type SolverInput } from '../types';
import {
  dctStart,
  flsdIterate,
  flsdView,
  MIN_ITERATIONS,
  randomStart,
  type FlsdView,
} from './flsd';
import { flsdSchema } from './params';

export { dctStart, flsdIterate, flsdView, randomStart, type FlsdView } from './flsd';
export { flsdSchema, type FlsdParams } from './params';

/** Largest share of nonzero entries at which a dense view is multiplied as CSR. */
const SPARSE_DENSITY = 0.3;

/** Refuses what the method cannot run, naming the view or parameter and the limit. */
function check(ds: SolverInput, params: ParamsOf<typeof flsdSchema>, k: number): void {
  if (ds.views.length === 0) throw new SolverInputError('flsd: the dataset has no views');
  ds.views.forEach((v, i) => {
    if (v.present.length < params.knn + 2) {
      throw new SolverInputError(
        `flsd: view '${v.name}' (view ${i + 1}) has ${v.present.length} present samples; its ` +
          `kNN graph with knn = ${params.knn} needs at least ${params.knn + 2} (lower knn or ` +
          'remove the view)',
      );
    }
    if (params.start === 'dct' && k > v.d) {
      throw new SolverInputError(
        `flsd: start 'dct' takes the first k = ${k} rows of the DCT of size d_v, but view ` +
          `'${v.name}' (view ${i + 1}) has only ${v.d} features; use start 'random'`,
      );
    }
  });
}

/**
 * A view's values as the iteration multiplies them: CSR when at most SPARSE_DENSITY of the
 * entries are nonzero (text views, and views with many all-zero samples, such as BDGP's), so
 * each product costs 2·nnz·k; else dense. Either gives the same graph (the distances are the same
 * sums: the zero terms a dense sum adds are exact).
 */
function operand(values: View['values']): Mat | Csr {
  if (values.kind === 'csr') return values;
  const X: Mat = { rows: values.rows, cols: values.cols, data: values.data };
  let nz = 0;
  for (let p = 0; p < X.data.length; p++) if (X.data[p] !== 0) nz++;
  return nz <= SPARSE_DENSITY * X.data.length ? csrFromDense(X) : X;
}

/**
 * The reference's input per view from the common layer's unit-L2 views: the present samples
 * only (missing rows removed), their binary kNN graph with `knn` neighbours. O(nnz) plus the kNN
 * search.
 */
export function flsdViews(unitViews: readonly View[], knn: number): FlsdView[] {
  return unitViews.map((v) => {
    const X = operand(v.values);
    return flsdView(X, v.present, binaryKnnGraph(X, knn));
  });
}

/** Pc with unit-L2 rows, zero rows left (the reference's output step). */
function unitRows(Pc: Mat): Mat {
  const { rows, cols } = Pc;
  const data = Float64Array.from(Pc.data);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = i * cols; j < (i + 1) * cols; j++) s += data[j]! * data[j]!;
    if (s === 0) continue;
    const w = Math.sqrt(s);
    for (let j = i * cols; j < (i + 1) * cols; j++) data[j] = data[j]! / w;
  }
  return { rows, cols, data };
}

/** FLSD; see README.md. */
export const flsd = defineSolver({
  name: 'flsd',
  title: 'FLSD (graph-regularised sparse factorisation, flexible locality diffusion)',
  description:
    'Wen et al., IEEE TCYB 2020: each view’s present samples are factorised as P_v·U_v with ' +
    'orthonormal U_v, smoothed over the view’s kNN graph, made sparse, and pulled towards one ' +
    'consensus representation shared by the views with learnt view weights. Missing samples ' +
    'are left out of their views, never imputed.',
  schema: flsdSchema,
  deterministic: false,
  input: 'incomplete',
  monotone: true,
  iterationCap: (p) => p.iterations,
  footprint: ({ n, dims, present, k }, p) => {
    // The unit-L2 copies of the views (dense here), the kNN search (its (k + 1)-lists and a
    // reordered copy of the view), the graphs (≤ 2·n_v·(knn + 1) entries, 12 B each, twice
    // while symmetrised), per view four (n_v, k) and two (d_v, k) arrays, Pc and its weights.
    let bytes = 8 * (2 * n * k + n);
    let copy = 0;
    dims.forEach((d, v) => {
      const nv = present[v]!;
      copy += 8 * nv * d;
      bytes += 8 * (4 * nv * k + 2 * d * k) + 12 * 4 * nv * (p.knn + 1);
    });
    const widest = Math.max(0, ...dims.map((d, v) => present[v]! * d));
    return {
      bytes: bytes + copy + 8 * widest,
      quadratic: false,
      note: 'the normalised views, sparse kNN graphs and (n_v, k) factors',
    };
  },
  cost: ({ n, dims, present, k }, p) => {
    // The kNN search, then per iteration two passes over each X_v and two over each graph.
    let solve = 2 * n * k;
    dims.forEach((d, v) => {
      const nv = present[v]!;
      solve += nv * nv * d + p.iterations * (4 * nv * d * k + 8 * nv * (p.knn + 1) * k + d * k * k);
    });
    return { solve, kmeans: n * k * k, perSeed: true };
  },
  *run(ds, params, k, rng) {
    check(ds, params, k);
    const input = incompleteInput(ds);
    const views = flsdViews(input.views, params.knn);
    yield { stage: 'prepare', iteration: 0, objective: null };
    const start =
      params.start === 'dct' ? dctStart(views, ds.n, k) : randomStart(views, ds.n, k, rng);
    const r = yield* flsdIterate(views, start, ds.n, k, params);
    const missing = ds.views.map((v) => ds.n - v.present.length);
    const stop = r.converged
      ? `converged after ${r.objective.length} iterations (objective / Σ‖X_v‖² moved by ` +
        `< ${params.tol} after iteration ${MIN_ITERATIONS})`
      : `stopped at the cap of ${params.iterations} iterations`;
    const V = ds.views.length;
    let absent = 0;
    for (let i = 0; i < ds.n; i++) {
      let s = 0;
      for (let v = 0; v < V; v++) s += input.presence.data[i * V + v]!;
      if (s === 0) absent++;
    }
    return {
      embedding: unitRows(r.Pc),
      objective: r.objective,
      converged: r.converged,
      iterations: r.objective.length,
      notes: [
        'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)); missing ' +
          `samples left out of their views, not imputed (missing per view: ${missing.join(', ')} of ${ds.n})`,
        `start '${params.start}'; ${stop}`,
        ...(absent > 0 ? [`${absent} sample(s) present in no view keep a zero row of Pc`] : []),
      ],
      charts: {
        weights: {
          title: 'View weights α_v',
          labels: ds.views.map((v) => v.name),
          values: Array.from(r.alpha),
          trace: r.alphaTrace,
        },
      },
      diagnostics: {
        alpha: Array.from(r.alpha),
        errors: Array.from(r.errors),
        objectiveNormalised: r.normalised,
        graphEdges: views.map((v) => nnz(v.W)),
      },
    };
  },
});
