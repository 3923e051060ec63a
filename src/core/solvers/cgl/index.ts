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
import type { Mat } from '../../linalg/types';
import { createRng, type Rng } from '../../random';
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
import { buildGraphs, cglIterate, consensusEmbedding, type CglPath } from './cgl';
import { connectivityConstraint } from '../../graph/clr';
import { conjugateWeight, type Shrinkage } from './shrink';

/** Largest n for the dense path (it holds V + 2 dense n × n arrays per view). */
export const MAX_DENSE_N = 1000;
/** Largest n·d_v one densified view may hold (as `bsv`). */
export const MAX_VIEW_VALUES = 2e8;
/** Most slices whose σ and σ' the diagnostics keep (evenly spaced, the DC slice first). */
export const SPECTRUM_SLICES = 1024;

const common = (rhoDefault: number): ParamSchema => ({
  lambda: {
    type: 'number',
    min: 0,
    max: 1e6,
    default: 0,
    doc:
      'λ, weight of the view-graph term λ·tr(FᵀAF) (reference grid 1 … 5000). 0 means ' +
      '1/√n, the seed paper’s setting; the value used is in the notes.',
  },
  rho: {
    type: 'number',
    min: 0,
    max: 1e6,
    default: rhoDefault,
    doc: 'ρ, weight of the tensor low-rank penalty (reference grid 1 … 5000).',
  },
  neighbors: {
    type: 'int',
    min: 1,
    max: 100,
    default: 15,
    doc: 'Neighbours k of the view graphs and of the consensus graph (PKN); the reference uses 15.',
  },
  iterations: {
    type: 'int',
    min: 2,
    max: 1000,
    default: 100,
    doc: 'Most objective values, the initial one included (the reference’s max_iter = 100).',
  },
  minIterations: {
    type: 'int',
    min: 2,
    max: 1000,
    default: 41,
    doc: 'The stop test applies from this many objective values on (the reference: iter > 40).',
  },
  tolerance: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-6,
    doc: 'Stop when |Δobjective| / |previous objective| falls below this.',
  },
  connectivity: {
    type: 'boolean',
    default: false,
    doc:
      'The seed’s connectivity constraint (Algorithm 1): adjust the consensus graph until it has ' +
      'exactly c connected components and label by components. Off in the CGL reference.',
  },
  sampleOrder: {
    type: 'enum',
    values: ['file', 'shuffled'],
    default: 'file',
    doc:
      "The FFT runs along the sample order, so results depend on it. 'file' reproduces the " +
      "reference; 'shuffled' applies a seeded permutation (orderSeed) and maps labels back. " +
      'Files sorted by class (HW, 100Leaves) flatter file order when ρ is large.',
  },
  orderSeed: {
    type: 'int',
    min: 0,
    max: 2147483647,
    default: 0,
    doc: "Seed of the permutation when sampleOrder is 'shuffled'.",
  },
  path: {
    type: 'enum',
    values: ['factorised', 'dense'],
    default: 'factorised',
    doc:
      "'factorised' never forms an n × n array (O(n·V·c) memory); 'dense' materialises the " +
      `n × V × n tensor (n ≤ ${MAX_DENSE_N}; the tests’ ground truth).`,
  },
});

export const cglSchema: ParamSchema = common(10);

export const cgmvcNcSchema: ParamSchema = (() => {
  const base = common(1);
  const { lambda, rho, ...rest } = base;
  return {
    lambda: lambda!,
    rho: rho!,
    gamma: {
      type: 'number',
      min: 0,
      max: 1e6,
      exclusiveMin: true,
      default: 0.1,
      doc: 'γ of the t-Gamma quasi-norm (seed paper: 0.1 works best).',
    },
    ...rest,
  };
})();

function fail(method: string, message: string): never {
  throw new SolverInputError(`${method}: ${message}`);
}

/** Rows permuted: out[i, :] = X[perm[i], :]. */
function gather(X: Mat, perm: Int32Array): Mat {
  const { rows, cols } = X;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    data.set(X.data.subarray(perm[i]! * cols, (perm[i]! + 1) * cols), i * cols);
  return { rows, cols, data };
}

/** Rows put back: out[perm[i], :] = X[i, :]. */
function scatter(X: Mat, perm: Int32Array): Mat {
  const { rows, cols } = X;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    data.set(X.data.subarray(i * cols, (i + 1) * cols), perm[i]! * cols);
  return { rows, cols, data };
}

/** σ and σ' of the slices for charts, and what fraction the shrinkage kept (all n slices). */
function spectrumDiagnostics(
  sigma: Float64Array,
  kept: Float64Array,
  n: number,
  V: number,
): Record<string, unknown> {
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

function makeRun(method: 'cgl' | 'cgmvc-nc') {
  return function* run(
    ds: SolverInput,
    params: Params,
    c: number,
    _rng: Rng,
  ): Generator<SolverStep, SolverOutput, void> {
    const { n } = ds;
    const V = ds.views.length;
    const neighbors = params['neighbors'] as number;
    const path = params['path'] as CglPath;
    const sampleOrder = params['sampleOrder'] as 'file' | 'shuffled';
    const orderSeed = params['orderSeed'] as number;
    const rho = params['rho'] as number;
    const lambdaParam = params['lambda'] as number;
    const lambda = lambdaParam > 0 ? lambdaParam : 1 / Math.sqrt(n);
    const shrinkage: Shrinkage =
      method === 'cgl'
        ? { kind: 'wtnn', rho }
        : { kind: 'tgamma', rho, gamma: params['gamma'] as number };
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
    const missing = ds.views.map((v) => missingCount(v, n));
    if (missing.some((m) => m > 0)) {
      notes.push(
        'missing samples imputed with the mean of each view’s present samples (missing per view: ' +
          `${missing.join(', ')} of ${n})`,
      );
    }
    const views = ds.views.map((v) => {
      const X = meanImputed(v, n);
      return perm ? gather(X, perm) : X;
    });
    const graphs = buildGraphs(views, neighbors);
    yield { stage: 'prepare', iteration: 0, objective: null };
    const gen = cglIterate(graphs, c, {
      lambda,
      shrinkage,
      neighbors,
      iterations: params['iterations'] as number,
      minIterations: params['minIterations'] as number,
      tolerance: params['tolerance'] as number,
      path,
    });
    let r = gen.next();
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
    const st = r.value;
    const cons = consensusEmbedding(st.Fbar, neighbors, c, path);
    yield { stage: 'embed', iteration: 0, objective: null };
    let labels: Int32Array | undefined;
    let connectivity: Record<string, unknown> | undefined;
    if (params['connectivity'] as boolean) {
      const Fcat = st.factor?.Fcat ?? concat(st.Fbar);
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
        ? `converged after ${iterations} objective values (relative change < ${params['tolerance'] as number})`
        : `stopped at the iteration cap (${iterations} objective values) without meeting the tolerance`,
    );
    if (st.eigMisses > 0)
      notes.push(`the H-step eigensolver missed its tolerance ${st.eigMisses} time(s)`);
    if (!cons.converged)
      notes.push('the consensus graph’s eigensolver did not reach its tolerance');
    if (st.zeroRows > 0)
      notes.push(`${st.zeroRows} sample(s) had a zero embedding row in some view`);
    const spectrum = spectrumDiagnostics(st.sigma, st.kept, n, V);
    const keptSum = spectrum['keptSum'] as number;
    notes.push(
      `shrinkage kept ${(100 * keptSum).toFixed(4)}% of the Fourier-slice singular values' sum ` +
        `(removed a fraction ${(1 - keptSum).toExponential(2)}; ` +
        `${(100 * (spectrum['zeroedFraction'] as number)).toFixed(1)}% of the values set to 0)`,
    );
    const embedding = perm ? scatter(cons.embedding, perm) : cons.embedding;
    return {
      embedding,
      ...(labels ? { labels } : {}),
      objective: st.objective,
      converged: st.converged,
      iterations,
      notes,
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

function concat(F: readonly Mat[]): Mat {
  const n = F[0]!.rows;
  const c = F[0]!.cols;
  const w = F.length * c;
  const data = new Float64Array(n * w);
  for (let i = 0; i < n; i++)
    F.forEach((M, v) => data.set(M.data.subarray(i * c, (i + 1) * c), i * w + v * c));
  return { rows: n, cols: w, data };
}

function scatterLabels(labels: Int32Array, perm: Int32Array): Int32Array {
  const out = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) out[perm[i]!] = labels[i]!;
  return out;
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
  run: makeRun('cgl'),
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p['iterations'] as number,
  footprint: ({ n, dims }, p) => {
    const V = dims.length;
    return p['path'] === 'dense'
      ? { bytes: 8 * (V + 2) * n * n, quadratic: true, note: `${V + 2} dense n × n arrays` }
      : { bytes: 8 * V * (V + 4) * n * 64, quadratic: false, note: 'per view n × c factors' };
  },
});

export const cgmvcNc = defineSolver({
  name: 'cgmvc-nc',
  title: 'CGMVC-NC (consensus graph, t-Gamma non-convex tensor norm)',
  description:
    'The seed paper’s method: CGL with the tensor nuclear norm replaced by the t-Gamma ' +
    'quasi-norm (fixed-point shrinkage, γ = 0.1). Same pipeline and exact factorised computation.',
  schema: cgmvcNcSchema,
  deterministic: true,
  run: makeRun('cgmvc-nc'),
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p['iterations'] as number,
  footprint: ({ n, dims }, p) => {
    const V = dims.length;
    return p['path'] === 'dense'
      ? { bytes: 8 * (V + 2) * n * n, quadratic: true, note: `${V + 2} dense n × n arrays` }
      : { bytes: 8 * V * (V + 4) * n * 64, quadratic: false, note: 'per view n × c factors' };
  },
});
