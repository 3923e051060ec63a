/**
 * CGL (Li et al., "Consensus Graph Learning for Multi-view Clustering", IEEE TMM 2021) and
 * CGMVC-NC (seed paper `shared/papers/002_*`, the same model with the t-Gamma quasi-norm): one
 * solver family, the T-step's shrinkage the only difference (README.md).
 *
 * views[v]: (n, d_v) → embedding (n, c): the spectral embedding of the consensus graph, rows
 * normalised (the protocol's k-means clusters it), or component labels when the connectivity
 * constraint is on and reaches c components. Steps: 'prepare' (graphs), one 'solve' step per
 * pass with the objective and its terms, 'embed'.
 */
import { MAX_VIEW_VALUES } from '../../limits';
import { concatColumns, gatherRows, scatterRows } from '../../linalg/rows';
import { createRng, type Rng } from '../../random';
import { denseValues, fillNote } from '../complete';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type Footprint,
  type ParamsOf,
  type ProblemShape,
  type SolverCost,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { buildGraphs, cglIterate, consensusEmbedding } from './cgl';
import { connectivityConstraint } from '../../graph/clr';
import { cglSchema, cgmvcNcSchema, MAX_DENSE_N } from './params';
import { conjugateWeight, type Shrinkage } from './shrink';

export { cglSchema, cgmvcNcSchema, MAX_DENSE_N } from './params';
export { MAX_VIEW_VALUES } from '../../limits';

type CglParams = ParamsOf<typeof cglSchema>;

/** Most slices whose σ and σ' the diagnostics keep (evenly spaced, the DC slice first). */
export const SPECTRUM_SLICES = 1024;

function fail(method: string, message: string): never {
  throw new SolverInputError(`${method}: ${message}`);
}

/** σ and σ' of every `sliceStep`-th slice, and what fraction the shrinkage kept of all. */
interface SliceSpectrum {
  readonly slices: number[];
  /** sigma[s]: (V,) the singular values of slice slices[s]; kept likewise after shrinkage. */
  readonly sigma: number[][];
  readonly kept: number[][];
  readonly keptSum: number;
  readonly keptEnergy: number;
  readonly zeroedFraction: number;
  readonly sliceCount: number;
  readonly sliceStep: number;
}

/** σ and σ' of the slices for charts, and what fraction the shrinkage kept (all n slices). */
function spectrumDiagnostics(
  sigma: Float64Array,
  kept: Float64Array,
  n: number,
  V: number,
): SliceSpectrum {
  const m = sigma.length / V;
  let s1 = 0;
  let k1 = 0;
  let s2 = 0;
  let k2 = 0;
  let zeroed = 0;
  let count = 0;
  for (let s = 0; s < m; s++) {
    const w = conjugateWeight(s, n);
    for (let i = 0; i < V; i++) {
      const a = sigma[s * V + i]!;
      const b = kept[s * V + i]!;
      s1 += w * a;
      k1 += w * b;
      s2 += w * a * a;
      k2 += w * b * b;
      if (b === 0) zeroed += w;
      count += w;
    }
  }
  const step = Math.max(1, Math.ceil(m / SPECTRUM_SLICES));
  const slices: number[] = [];
  const sig: number[][] = [];
  const kep: number[][] = [];
  for (let s = 0; s < m; s += step) {
    slices.push(s);
    sig.push(Array.from(sigma.subarray(s * V, (s + 1) * V)));
    kep.push(Array.from(kept.subarray(s * V, (s + 1) * V)));
  }
  return {
    slices,
    sigma: sig,
    kept: kep,
    keptSum: s1 > 0 ? k1 / s1 : 1,
    keptEnergy: s2 > 0 ? k2 / s2 : 1,
    zeroedFraction: count > 0 ? zeroed / count : 0,
    sliceCount: m,
    sliceStep: step,
  };
}

/**
 * The run of one family member: `shrinkageOf` is the T-step's shrinkage from its parameters
 * (CGL's weighted tensor nuclear norm, CGMVC-NC's t-Gamma quasi-norm).
 */
function makeRun<P extends CglParams>(method: string, shrinkageOf: (params: P) => Shrinkage) {
  return function* run(
    ds: SolverInput,
    params: P,
    c: number,
    _rng: Rng,
  ): Generator<SolverStep, SolverOutput, void> {
    const { n } = ds;
    const V = ds.views.length;
    const { neighbors, path, sampleOrder, orderSeed, rho } = params;
    const lambdaParam = params.lambda;
    const lambda = lambdaParam > 0 ? lambdaParam : 1 / Math.sqrt(n);
    const shrinkage = shrinkageOf(params);
    if (V === 0) fail(method, 'the dataset has no views');
    if (neighbors > n - 2) {
      fail(
        method,
        `parameter 'neighbors' is ${neighbors}, but n = ${n} samples allow at most ${n - 2}`,
      );
    }
    if (path === 'dense' && n > MAX_DENSE_N) {
      fail(
        method,
        `path 'dense' holds n × n arrays and is limited to n ≤ ${MAX_DENSE_N}; n = ${n}`,
      );
    }
    for (const v of ds.views) {
      if (n * v.d > MAX_VIEW_VALUES) {
        fail(
          method,
          `view '${v.name}' would densify to n·d = ${n * v.d} values, above ${MAX_VIEW_VALUES}`,
        );
      }
    }
    const notes: string[] = [
      `λ = ${lambda.toPrecision(6)}${lambdaParam > 0 ? '' : ' (1/√n)'}, ρ = ${rho}` +
        (shrinkage.kind === 'tgamma' ? `, γ = ${shrinkage.gamma}` : '') +
        `, k = ${neighbors}, path '${path}'`,
    ];
    let perm: Int32Array | null = null;
    if (sampleOrder === 'shuffled') {
      perm = createRng(orderSeed).shuffle(Int32Array.from({ length: n }, (_, i) => i));
      notes.push(
        `sample order: shuffled (seeded permutation, orderSeed ${orderSeed}); the FFT ran along ` +
          'the shuffled order, labels and embedding are in file order',
      );
    } else {
      notes.push(
        'sample order: file (as the reference); the FFT runs along it, so a file sorted by class ' +
          "can score higher than a shuffled one (sampleOrder 'shuffled')",
      );
    }
    const filled = fillNote(ds);
    if (filled) notes.push(filled);
    const views = ds.views.map((v) => {
      const X = denseValues(v, n);
      return perm ? gatherRows(X, perm) : X;
    });
    const graphs = buildGraphs(views, neighbors);
    yield { stage: 'prepare', iteration: 0, objective: null };
    const gen = cglIterate(graphs, c, {
      lambda,
      shrinkage,
      neighbors,
      iterations: params.iterations,
      minIterations: params.minIterations,
      tolerance: params.tolerance,
      path,
    });
    let r = gen.next();
    // Closed between passes (a cancel), this generator must close the inner one too: its
    // `finally` ends the helper threads' sessions.
    try {
      while (!r.done) {
        const it = r.value;
        const values: Record<string, number> = {
          graph: it.graph.reduce((a, x) => a + x, 0),
          tensor: it.tensor.reduce((a, x) => a + x, 0),
          penalty: it.penalty,
          tubalRank: it.tubalRank,
          relChange: it.relChange,
        };
        it.graph.forEach((x, v) => (values[`graph_v${v + 1}`] = x));
        it.tensor.forEach((x, v) => (values[`tensor_v${v + 1}`] = x));
        if (shrinkage.kind === 'tgamma') values['fixedPointPasses'] = it.maxPasses;
        yield { stage: 'solve', iteration: it.pass, objective: it.objective, values };
        r = gen.next();
      }
    } finally {
      if (!r.done) gen.return(undefined as never);
    }
    const st = r.value;
    const cons = consensusEmbedding(st.Fbar, neighbors, c, path);
    yield { stage: 'embed', iteration: 0, objective: null };
    let labels: Int32Array | undefined;
    let connectivity: Record<string, unknown> | undefined;
    if (params.connectivity) {
      const Fcat = st.factor?.Fcat ?? concatColumns(st.Fbar);
      const cc = connectivityConstraint(Fcat, cons.W, neighbors, c);
      connectivity = { components: cc.components, rounds: cc.rounds, beta: cc.beta };
      if (cc.labels) {
        labels = perm ? scatterLabels(cc.labels, perm) : cc.labels;
        notes.push(
          `connectivity constraint: ${c} connected components after ${cc.rounds} round(s) ` +
            `(β = ${cc.beta.toPrecision(3)}); labels are the components`,
        );
      } else {
        notes.push(
          `connectivity constraint: ${cc.components} components instead of ${c} after ` +
            `${cc.rounds} rounds; labels from k-means on the spectral embedding instead`,
        );
      }
    }
    const iterations = st.objective.length;
    notes.push(
      st.converged
        ? `converged after ${iterations} objective values (relative change < ${params.tolerance})`
        : `stopped at the iteration cap (${iterations} objective values) without meeting the tolerance`,
    );
    if (st.eigMisses > 0)
      notes.push(`the H-step eigensolver missed its tolerance ${st.eigMisses} time(s)`);
    if (!cons.converged)
      notes.push('the consensus graph’s eigensolver did not reach its tolerance');
    if (st.zeroRows > 0)
      notes.push(`${st.zeroRows} sample(s) had a zero embedding row in some view`);
    const spectrum = spectrumDiagnostics(st.sigma, st.kept, n, V);
    const { keptSum } = spectrum;
    notes.push(
      `shrinkage kept ${(100 * keptSum).toFixed(4)}% of the Fourier-slice singular values' sum ` +
        `(removed a fraction ${(1 - keptSum).toExponential(2)}; ` +
        `${(100 * spectrum.zeroedFraction).toFixed(1)}% of the values set to 0)`,
    );
    const embedding = perm ? scatterRows(cons.embedding, perm) : cons.embedding;
    return {
      embedding,
      graph: { kind: 'affinity', W: cons.W },
      ...(labels ? { labels } : {}),
      objective: st.objective,
      converged: st.converged,
      iterations,
      notes,
      charts: {
        spectrum: {
          kind: 'slices',
          title: 'Singular values σ of the Fourier slices, and σ′ kept by the shrinkage',
          slices: spectrum.slices,
          sigma: spectrum.sigma,
          kept: spectrum.kept,
        },
      },
      diagnostics: {
        method,
        path,
        sampleOrder,
        ...(perm ? { orderSeed } : {}),
        lambda,
        rho,
        ...(shrinkage.kind === 'tgamma' ? { gamma: shrinkage.gamma } : {}),
        terms: {
          graph: st.terms.graph.map((g) => g.reduce((a, x) => a + x, 0)),
          tensor: st.terms.tensor.map((g) => g.reduce((a, x) => a + x, 0)),
          penalty: st.terms.penalty,
          graphPerView: st.terms.graph,
          tensorPerView: st.terms.tensor,
        },
        tubalRank: st.terms.tubalRank,
        spectrum,
        ...(connectivity ? { connectivity } : {}),
      },
    };
  };
}

function scatterLabels(labels: Int32Array, perm: Int32Array): Int32Array {
  const out = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) out[perm[i]!] = labels[i]!;
  return out;
}

/** What the GEMM and FFT kernels' memory adds to a run that is the first to use them. */
const KERNEL_WORKSPACE = 2 ** 20;

/**
 * What CGL allocates: the filled copies of views with missing samples and per view its kNN
 * lists and graph; then per sample the n × c factors of every view and their Fourier slices
 * (factorised path), or about 2V + 2 dense n × n arrays with the per-pass temporaries (dense).
 */
function footprint({ n, dims, present, k }: ProblemShape, p: CglParams): Footprint {
  const V = dims.length;
  const filled = 8 * n * dims.reduce((a, d, v) => a + (present[v]! < n ? d : 0), 0);
  const graphs = 8 * n * 4 * V * (p.neighbors + 1);
  if (p.path === 'dense') {
    return {
      bytes: filled + graphs + 8 * (6 * V + 2) * n * n + KERNEL_WORKSPACE,
      quadratic: true,
      note: `about ${2 * V + 2} dense n × n arrays and their per-pass copies`,
    };
  }
  return {
    bytes: filled + graphs + 8 * n * 2 * V * (V + 4) * k + KERNEL_WORKSPACE,
    quadratic: false,
    note: 'the view graphs and per view n × c factors',
  };
}

/** The graph both methods hand out for the eigengap. */
const CONSENSUS_GRAPH = 'the consensus adaptive-neighbour graph';

/**
 * What CGL computes (README "Complexity"): the views' exact kNN graphs (n²·d_v each), then per
 * pass the T-step (V²c²n + V²c·n·log₂n, or the dense n × V × n tensor's FFT and products) and
 * per view three products with its graph (nnz·c + n·V·c², nnz ≈ 2·n·neighbors), to the cap; the
 * consensus embedding once. Deterministic: one solve per protocol, however many seeds.
 */
function cost({ n, dims, k }: ProblemShape, p: CglParams): SolverCost {
  const V = dims.length;
  const c = k;
  const logn = Math.log2(Math.max(n, 2));
  const knn = dims.reduce((a, d) => a + n * n * d, 0);
  const nnz = 2 * n * p.neighbors;
  const tstep =
    p.path === 'dense' ? V * n * n * (logn + c) : V * V * c * c * n + V * V * c * n * logn;
  const pass = tstep + 3 * V * (nnz * c + n * V * c * c);
  const embed = 100 * nnz * (c + 1);
  return { solve: knn + p.iterations * pass + embed, kmeans: n * k * c, perSeed: false };
}

export const cgl = defineSolver({
  name: 'cgl',
  title: 'CGL (consensus graph learning, weighted tensor nuclear norm)',
  description:
    'Li et al., IEEE TMM 2021: per-view spectral embeddings coupled through a low-rank tensor ' +
    '(weighted t-SVD shrinkage), then a consensus adaptive-neighbour graph and its spectral ' +
    'embedding. Exact reproduction of the reference code, computed without any n × n array.',
  schema: cglSchema,
  deterministic: true,
  run: makeRun<CglParams>('cgl', (p) => ({ kind: 'wtnn', rho: p.rho })),
  input: 'complete',
  monotone: false,
  graph: CONSENSUS_GRAPH,
  iterationCap: (p) => p.iterations,
  footprint,
  cost,
});

export const cgmvcNc = defineSolver({
  name: 'cgmvc-nc',
  title: 'CGMVC-NC (consensus graph, t-Gamma non-convex tensor norm)',
  description:
    'The seed paper’s method: CGL with the tensor nuclear norm replaced by the t-Gamma ' +
    'quasi-norm (fixed-point shrinkage, γ = 0.1). Same pipeline and exact factorised computation.',
  schema: cgmvcNcSchema,
  deterministic: true,
  run: makeRun<ParamsOf<typeof cgmvcNcSchema>>('cgmvc-nc', (p) => ({
    kind: 'tgamma',
    rho: p.rho,
    gamma: p.gamma,
  })),
  input: 'complete',
  monotone: false,
  graph: CONSENSUS_GRAPH,
  iterationCap: (p) => p.iterations,
  footprint,
  cost,
});
