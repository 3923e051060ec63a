/**
 * AMGL (Nie, Li & Li, IJCAI 2016) as a registered solver: checks the dataset and parameters,
 * builds the views' PKN graphs and normalised Laplacians, runs the iteration of `amgl.ts` one
 * step per iteration, and returns the last F (n, c), not row-normalised, which the protocol
 * clusters with k-means (the paper protocol of the fixtures).
 *
 * Steps: 'prepare' (graphs), one 'solve' step per iteration with Obj_t, α_v and tr(FᵀL_vF).
 * Deterministic (no randomness anywhere), so the paper protocol solves once.
 */
import { defaultBlockWidth } from '../../linalg/blockeig';
import { MAX_VIEW_VALUES } from '../../limits';
import type { Rng } from '../../random';
import { denseValues, fillNote } from '../complete';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type Footprint,
  type ProblemShape,
  type SolverCost,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { amglGraphs, amglIterate, TRACE_FLOOR, type AmglViewGraph } from './amgl';
import { amglSchema, MAX_DENSE_N, type AmglParams } from './params';

export { amglSchema, MAX_DENSE_N } from './params';

function fail(message: string): never {
  throw new SolverInputError(`amgl: ${message}`);
}

/** The checks of the fixtures' `view_graph_check`, per view. */
export interface AmglGraphCheck {
  readonly sum: number;
  readonly nnz: number;
  readonly fro: number;
  readonly diagonalNonzeros: number;
  readonly minDegree: number;
  readonly laplacianTrace: number;
  readonly laplacianFro: number;
}

/** Sum, stored entries, Frobenius norm, non-zero diagonal entries, min degree of W; tr and ‖·‖_F of L. */
export function graphCheck(g: AmglViewGraph): AmglGraphCheck {
  const { W, L, degrees } = g;
  let sum = 0;
  let fro = 0;
  let diagonalNonzeros = 0;
  for (let i = 0; i < W.rows; i++) {
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      const w = W.data[p]!;
      sum += w;
      fro += w * w;
      if (W.indices[p] === i && w !== 0) diagonalNonzeros++;
    }
  }
  let trace = 0;
  let lfro = 0;
  for (let i = 0; i < L.rows; i++) {
    for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
      const x = L.data[p]!;
      lfro += x * x;
      if (L.indices[p] === i) trace += x;
    }
  }
  let minDegree = Infinity;
  for (let i = 0; i < degrees.length; i++) minDegree = Math.min(minDegree, degrees[i]!);
  return {
    sum,
    nnz: W.data.length,
    fro: Math.sqrt(fro),
    diagonalNonzeros,
    minDegree,
    laplacianTrace: trace,
    laplacianFro: Math.sqrt(lfro),
  };
}

function checkInput(ds: SolverInput, params: AmglParams, c: number): void {
  const { n } = ds;
  if (ds.views.length === 0) fail('the dataset has no views');
  if (params.neighbors > n - 2) {
    fail(
      `parameter 'neighbors' is ${params.neighbors}, but n = ${n} samples allow at most ` +
        `${Math.max(0, n - 2)} (each PKN row needs k + 1 other samples)`,
    );
  }
  if (params.eigensolver === 'dense' && n > MAX_DENSE_N) {
    fail(
      `eigensolver 'dense' holds a dense n × n matrix and is limited to n ≤ ${MAX_DENSE_N}; ` +
        `n = ${n} (use eigensolver 'sparse')`,
    );
  }
  if (c > n) fail(`k = ${c} clusters exceeds n = ${n} samples`);
  for (const v of ds.views) {
    if (v.d === 0) fail(`view '${v.name}' has no features`);
    if (n * v.d > MAX_VIEW_VALUES) {
      fail(`view '${v.name}' would densify to n·d = ${n * v.d} values, above ${MAX_VIEW_VALUES}`);
    }
  }
}

function* run(
  ds: SolverInput,
  params: AmglParams,
  c: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  checkInput(ds, params, c);
  const { n } = ds;
  const notes: string[] = [
    `PKN graphs with k = ${params.neighbors}; eigensolver '${params.eigensolver}'; ` +
      'embedding F not row-normalised (as the reference)',
  ];
  const filled = fillNote(ds);
  if (filled) notes.push(filled);
  const graphs = amglGraphs(
    ds.views.map((v) => denseValues(v, n)),
    params.neighbors,
  );
  graphs.forEach((g, v) => {
    if (g.isolated > 0) {
      notes.push(
        `view '${ds.views[v]!.name}': ${g.isolated} sample(s) without a graph neighbour of ` +
          `positive weight (their ${params.neighbors + 1} nearest samples all at one distance, ` +
          'e.g. mean-filled missing samples, which coincide): isolated vertices of L_v ' +
          '(D^{-1/2} taken as 0 there, where the reference divides by zero)',
      );
    }
  });
  yield { stage: 'prepare', iteration: 0, objective: null };
  const r = yield* amglIterate(graphs, c, {
    iterations: params.iterations,
    tolerance: params.tolerance,
    eigensolver: params.eigensolver,
  });
  const iterations = r.objective.length;
  notes.push(
    r.converged
      ? `converged after ${iterations} iterations (signed relative decrease < ${params.tolerance})`
      : `stopped at the iteration cap (${iterations}) without meeting the tolerance`,
  );
  if (r.eigMisses > 0) {
    notes.push(`the block eigensolver missed its tolerance in ${r.eigMisses} iteration(s)`);
  }
  if (r.floored > 0) {
    notes.push(
      `in ${r.floored} iteration(s) some view's tr(FᵀL_vF) reached ${TRACE_FLOOR} (its graph ` +
        'holds F’s span); its weight was capped at 1/(2√' +
        `${TRACE_FLOOR}) where the reference would divide by zero`,
    );
  }
  const ev = r.finalEigenvalues;
  if (ev.length > c) {
    const gap = ev[c]! - ev[c - 1]!;
    if (!(gap > 1e-10 * Math.max(1, Math.abs(ev[c]!)))) {
      notes.push(
        `M's ${c}-th and ${c + 1}-th eigenvalues are equal (${ev[c - 1]!.toPrecision(8)}): ` +
          'F is one choice within a larger eigenspace',
      );
    }
  }
  const alpha = r.alphaTrace.at(-1) ?? [];
  return {
    embedding: r.F,
    objective: r.objective,
    converged: r.converged,
    iterations,
    notes,
    charts: {
      weights: {
        title: 'View weights α_v = 1/(2√tr(FᵀL_vF)) per iteration (not normalised)',
        labels: ds.views.map((v) => v.name),
        values: alpha,
        trace: r.alphaTrace,
      },
      spectrum: {
        kind: 'bars',
        title: `The ${ev.length} smallest eigenvalues of M = Σ_v α_v·L_v (last iteration)`,
        values: ev,
      },
    },
    diagnostics: {
      alpha,
      alphaTrace: r.alphaTrace,
      traces: r.traceHistory,
      firstEigenvalues: r.firstEigenvalues,
      finalEigenvalues: r.finalEigenvalues,
      graphs: graphs.map(graphCheck),
    },
  };
}

/** Scratch the numerics keep between calls (GEMM packing, the kernels' module memory). */
const KERNEL_WORKSPACE = 2 ** 20;

/**
 * Bytes at the peak (README "Complexity"): the filled views; per view W_v and L_v (at most
 * 2nk + n entries each, 12 bytes an entry) and the neighbour lists they come from; M on the
 * union pattern with the per-view slots; the block eigensolver's 8 blocks of n × b
 * (b = c + 1 + guard), F, its warm start and a product block. 'dense' adds the n × n M and the
 * full decomposition's n × n arrays.
 */
function footprint({ n, dims, present, k }: ProblemShape, p: AmglParams): Footprint {
  const V = dims.length;
  const filled = 8 * n * dims.reduce((a, d, v) => a + (present[v]! < n ? d : 0), 0);
  // A helper thread building some of the graphs gets a copy of the views (counted whether or not
  // the host has a helper; freed once the graphs are built).
  const helperCopy = V >= 2 ? 8 * n * dims.reduce((a, d) => a + d, 0) : 0;
  const entries = 2 * n * p.neighbors + n;
  const graphs = V * (2 * 12 * entries + 8 * n) + 3 * 12 * n * (p.neighbors + 1);
  const m = Math.min(k + 1, n);
  const b = Math.min(n, defaultBlockWidth(m));
  if (p.eigensolver === 'dense') {
    return {
      bytes: filled + helperCopy + graphs + 8 * 4 * n * n + 8 * 3 * n * k + KERNEL_WORKSPACE,
      quadratic: true,
      note: 'the dense n × n M and its eigendecomposition (about 4 n × n arrays)',
    };
  }
  const union = 12 * V * entries + 4 * V * entries;
  const eig = 8 * n * (8 * b + 3 * m) + 12 * V * entries;
  return {
    bytes: filled + helperCopy + graphs + union + eig + 8 * 3 * n * k + KERNEL_WORKSPACE,
    quadratic: false,
    note: 'the view graphs and Laplacians, M on their union pattern and n × (c + guard) blocks',
  };
}

/**
 * Work (README "Complexity"): the exact kNN of every view (n²·d_v), then per iteration the
 * block eigensolver (a few outer iterations of a degree ≤ 60 filter: ≈ 200 products of M with
 * n × b blocks, 2·nnz(M)·b each, plus O(n·b²) Rayleigh–Ritz) and V traces; 'dense': a full
 * decomposition (≈ 5n³) per iteration. Deterministic: one solve per protocol.
 */
function cost({ n, dims, k }: ProblemShape, p: AmglParams): SolverCost {
  const V = dims.length;
  const knn = dims.reduce((a, d) => a + n * n * d, 0);
  const nnz = V * (2 * n * p.neighbors + n);
  const b = defaultBlockWidth(k + 1);
  const iteration =
    p.eigensolver === 'dense' ? 5 * n * n * n : 200 * 2 * nnz * b + 20 * n * b * b + 2 * nnz * k;
  return { solve: knn + p.iterations * iteration, kmeans: n * k * k, perSeed: false };
}

export const amgl = defineSolver({
  name: 'amgl',
  title: 'AMGL (auto-weighted multiple graph learning)',
  description:
    'Nie, Li & Li (IJCAI 2016): one spectral embedding F shared by the views’ normalised PKN ' +
    'Laplacians, each view weighted by 1/(2√tr(FᵀL_vF)) and reweighted until the objective ' +
    'Σ_v √tr(FᵀL_vF) settles; no parameter to tune. As the public code (k = 5 neighbours, ' +
    'raw features), with the eigenproblem solved on the sparse matrix.',
  schema: amglSchema,
  deterministic: true,
  input: 'complete',
  monotone: true,
  iterationCap: (p) => p.iterations,
  footprint,
  cost,
  run,
});
