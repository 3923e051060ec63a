/**
 * MLRSSC and kernel MLRSSC (Brbić & Kopriva, "Multi-view low-rank sparse subspace clustering",
 * Pattern Recognition 73, 2018) as four registered solvers from one iteration (`mlrssc.ts`):
 * `mlrssc-pairwise` and `mlrssc-centroid` on the linear kernels K_v = X_v·X_vᵀ,
 * `kmlrssc-pairwise` and `kmlrssc-centroid` on a chosen kernel (Gaussian by default).
 *
 * views[v]: (n, d_v) → kernels K_v (n, n) → C (n, n) → affinity Af = |C| + |Cᵀ| → the embedding
 * of `spectral_clustering.m` (n, c) (embed.ts), which the protocol clusters with k-means.
 * Steps: 'prepare' (kernels), one 'solve' step per ADMM iteration (values: μ and the four
 * residuals), 'embed'. Deterministic: the paper protocol solves once.
 */
import { MAX_VIEW_VALUES } from '../../limits';
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import { fillNote } from '../complete';
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
import { referenceEmbedding } from './embed';
import { buildKernels, type KernelChoice } from './kernels';
import { affinity, mlrsscSteps } from './mlrssc';
import {
  kmlrsscCentroidSchema,
  kmlrsscPairwiseSchema,
  MAX_N,
  mlrsscCentroidSchema,
  mlrsscPairwiseSchema,
  type KmlrsscParams,
  type MlrsscParams,
} from './params';

export {
  kmlrsscCentroidSchema,
  kmlrsscPairwiseSchema,
  MAX_N,
  mlrsscCentroidSchema,
  mlrsscPairwiseSchema,
} from './params';

type Variant = 'pairwise' | 'centroid';
/** Trace, sum and Frobenius norm of one kernel (the fixtures' `kernel_check`). */
export interface KernelCheck {
  readonly trace: number;
  readonly sum: number;
  readonly fro: number;
}

function kernelCheck(K: Mat): KernelCheck {
  const n = K.rows;
  let trace = 0;
  let sum = 0;
  let fro = 0;
  for (let i = 0; i < n; i++) trace += K.data[i * n + i]!;
  for (let i = 0; i < n * n; i++) {
    const x = K.data[i]!;
    sum += x;
    fro += x * x;
  }
  return { trace, sum, fro: Math.sqrt(fro) };
}

const fro = (m: Mat): number => {
  let s = 0;
  for (let i = 0; i < m.data.length; i++) s += m.data[i]! * m.data[i]!;
  return Math.sqrt(s);
};
const nnz = (m: Mat): number => {
  let s = 0;
  for (let i = 0; i < m.data.length; i++) if (m.data[i] !== 0) s++;
  return s;
};

function checkInput(method: string, ds: SolverInput, k: KernelChoice, c: number): void {
  const fail = (message: string): never => {
    throw new SolverInputError(`${method}: ${message}`);
  };
  const { n } = ds;
  const V = ds.views.length;
  if (V === 0) fail('the dataset has no views');
  if (n > MAX_N) {
    fail(`the method holds dense n × n arrays and is limited to n ≤ ${MAX_N}; n = ${n}`);
  }
  if (c > n) fail(`k = ${c} clusters exceeds n = ${n} samples`);
  for (const v of ds.views) {
    if (v.d === 0) fail(`view '${v.name}' has no features`);
    if (n * v.d > MAX_VIEW_VALUES) {
      fail(`view '${v.name}' would densify to n·d = ${n * v.d} values, above ${MAX_VIEW_VALUES}`);
    }
  }
  if (k.sigma !== null) {
    if (k.kernel !== 'gaussian') {
      fail(`parameter 'sigma' applies to kernel 'gaussian' only; kernel is '${k.kernel}'`);
    }
    if (k.sigma.length !== V) {
      fail(
        `parameter 'sigma' lists ${k.sigma.length} width(s), but the dataset has ${V} views ` +
          `(${ds.views.map((v) => `'${v.name}'`).join(', ')}): give one per view, in view order`,
      );
    }
    if (k.sigmaScale !== 1) {
      fail(`give either 'sigma' (the widths) or 'sigmaScale' (a multiple of the median rule)`);
    }
  }
}

function makeRun<P extends MlrsscParams>(
  method: string,
  variant: Variant,
  kernelOf: (p: P) => KernelChoice,
) {
  return function* run(
    ds: SolverInput,
    params: P,
    c: number,
    _rng: Rng,
  ): Generator<SolverStep, SolverOutput, void> {
    const kc = kernelOf(params);
    checkInput(method, ds, kc, c);
    const notes: string[] = [];
    const filled = fillNote(ds);
    if (filled) notes.push(filled);
    const kernels = buildKernels(method, ds, kc);
    const kernelChecks = kernels.K.map(kernelCheck);
    notes.push(
      `kernel '${kc.kernel}'` +
        (kernels.sigma
          ? `, σ = ${kernels.sigma.map((s) => s.toPrecision(6)).join(', ')}` +
            (kc.sigma ? ' (given)' : ` (${kc.sigmaScale} × opt_sigma, the median distance)`)
          : kc.kernel === 'polynomial'
            ? `, degree ${kc.degree}`
            : '') +
        `; λ = (${params.lambda1}, ${params.lambda2}, ${params.lambda3}), μ0 = ${params.mu0}, ` +
        `μ_max = ${params.maxMu}, ρ = ${params.rho}; path '${params.path}'`,
    );
    yield { stage: 'prepare', iteration: 0, objective: null };
    const steps = mlrsscSteps(kernels.K, {
      variant,
      lambda1: params.lambda1,
      lambda2: params.lambda2,
      lambda3: params.lambda3,
      mu0: params.mu0,
      maxMu: params.maxMu,
      rho: params.rho,
      iterations: params.iterations,
      tolerance: params.tolerance,
      path: params.path,
    });
    let next = steps.next();
    try {
      while (!next.done) {
        const { iteration, mu, residuals } = next.value;
        const [a1, a2, a3, a4] = residuals;
        yield {
          stage: 'solve',
          iteration,
          objective: null,
          values: { mu, residualC1: a1, residualC2: a2, residualC3: a3, residualA: a4 },
        };
        next = steps.next();
      }
    } finally {
      // Closed mid-run (cancel): the iteration's own cleanup runs too, so a helper thread drops
      // the buffers it keeps between an iteration's tasks.
      if (!next.done) steps.return(undefined as never);
    }
    const r = next.value;
    notes.push(
      r.converged
        ? `converged after ${r.iterations} iterations (every residual ≤ ${params.tolerance})`
        : `stopped at the iteration cap (${r.iterations}) without meeting the tolerance ` +
            `${params.tolerance} (the reference's absolute max-abs test)`,
    );
    const C2 = r.C2.map((m) => ({ fro: fro(m), nnz: nnz(m) }));
    let cTrace = 0;
    for (let i = 0; i < ds.n; i++) cTrace += r.C.data[i * ds.n + i]!;
    const Af = affinity(r.C);
    let afSum = 0;
    for (let i = 0; i < Af.data.length; i++) afSum += Af.data[i]!;
    const afFro = fro(Af);
    const afNnz = nnz(Af);
    const emb = referenceEmbedding(Af, c);
    yield { stage: 'embed', iteration: 0, objective: null };
    const ev = emb.values;
    if (ev.length > c && !(ev[c]! - ev[c - 1]! > 1e-10 * Math.max(1, Math.abs(ev[c]!)))) {
      notes.push(
        `N's ${c}-th and ${c + 1}-th eigenvalues are equal (${ev[c - 1]!.toPrecision(8)}): ` +
          'the embedding is one choice within a larger eigenspace',
      );
    }
    return {
      embedding: emb.embedding,
      objective: [],
      converged: r.converged,
      iterations: r.iterations,
      notes,
      charts: {
        spectrum: {
          kind: 'bars',
          title: `The ${ev.length} smallest eigenvalues of N = I − G·Af·G (Af = |C| + |Cᵀ|)`,
          values: ev,
        },
      },
      diagnostics: {
        method,
        variant,
        kernel: kc.kernel,
        sigma: kernels.sigma,
        optSigma: kernels.optSigma,
        kernelChecks,
        mu: r.mu,
        residuals: r.residuals,
        C2,
        rankC1: r.rankC1,
        cTrace,
        affinity: { sum: afSum, fro: afFro, nnz: afNnz },
        lapFro: emb.lapFro,
        smallestEigenvalues: ev,
      },
    };
  };
}

/** What the GEMM and eigensolver kernels keep between calls. */
const KERNEL_WORKSPACE = 2 ** 20;

/**
 * The n × n doubles at the peak (README "Memory"), counted from mlrssc.ts: per view K, A, C1,
 * C2, C3, Λ2, Λ3, Λ4 and, on the 'fast' path, the eigenvectors of K (9V; 'dense': 8V); on the
 * 'dense' path the pairwise variant's copy of the previous C2s (V; the fast path sums a running
 * prefix instead); C*, the agreement sum, B, A_prev and the
 * inverse's scratch (5); the SVT's U, V, the SVD's working copies and the recomposition's
 * factors (8); on the 'fast' path the Gram route's BᵀB, recomposition matrix and polar factor
 * (3) and, for a helper thread sharing the thresholds, its argument, its Gram buffers and its
 * SVD's peak (12; counted whether or not the host has a helper); C and the
 * affinity (2); N and the eigensolver's copies (3); a kernel's build (the Gram matrix, the
 * distances and their sorted copy: 3).
 */
export function mlrsscSquares(V: number, variant: Variant, path: 'fast' | 'dense'): number {
  if (path === 'fast') return 9 * V + 5 + 8 + 3 + 12 + 2 + 3 + 3;
  return 8 * V + (variant === 'pairwise' ? V : 0) + 5 + 8 + 2 + 3 + 3;
}

function footprintFor(variant: Variant) {
  return ({ n, dims, present }: ProblemShape, p: MlrsscParams): Footprint => {
    const V = dims.length;
    const filled = 8 * n * dims.reduce((a, d, v) => a + (present[v]! < n ? d : 0), 0);
    const squares = mlrsscSquares(V, variant, p.path);
    return {
      bytes: filled + 8 * squares * n * n + KERNEL_WORKSPACE,
      quadratic: true,
      note: `about ${squares} dense n × n arrays (9 per view: kernel, ADMM state, eigenvectors)`,
    };
  };
}

/**
 * Work (README "Complexity"): the kernels (n²·d_v each), on the 'fast' path one
 * eigendecomposition per kernel (≈ 9n³), then per iteration and view the inverse applied (two
 * n × n GEMMs, 4n³; 'dense': a Cholesky factorisation and solve, ≈ 7n³/3) and a full SVD
 * (≈ 20n³); the embedding once (≈ 9n³). Deterministic: one solve per protocol.
 */
function cost({ n, dims, k }: ProblemShape, p: MlrsscParams): SolverCost {
  const V = dims.length;
  const n3 = n * n * n;
  const kernels = dims.reduce((a, d) => a + n * n * d, 0);
  const setup = p.path === 'fast' ? 9 * V * n3 : 0;
  const iteration = V * ((p.path === 'fast' ? 4 : 7 / 3) * n3 + 20 * n3);
  return {
    solve: kernels + setup + p.iterations * iteration + 9 * n3,
    kmeans: n * k * k,
    perSeed: false,
  };
}

const LINEAR: KernelChoice = { kernel: 'linear', sigma: null, sigmaScale: 1, degree: 1 };
const kernelChoice = (p: KmlrsscParams): KernelChoice => ({
  kernel: p.kernel,
  sigma: p.sigma,
  sigmaScale: p.sigmaScale,
  degree: p.degree,
});

const PAPER = 'Brbić & Kopriva, Pattern Recognition 2018';
const common = {
  deterministic: true,
  input: 'complete',
  monotone: false,
  iterationCap: (p: MlrsscParams) => p.iterations,
  cost,
} as const;

export const mlrsscPairwise = defineSolver({
  ...common,
  name: 'mlrssc-pairwise',
  title: 'MLRSSC pairwise (multi-view low-rank sparse subspace clustering)',
  description:
    `${PAPER}: per view a representation that is both low-rank and sparse, kept close to the ` +
    'other views’ by a pairwise penalty (ADMM), on the linear kernels X_v·X_vᵀ of the raw ' +
    'features; spectral clustering of |C| + |Cᵀ|. As the public code, with its defaults.',
  schema: mlrsscPairwiseSchema,
  footprint: footprintFor('pairwise'),
  run: makeRun('mlrssc-pairwise', 'pairwise', () => LINEAR),
});

export const mlrsscCentroid = defineSolver({
  ...common,
  name: 'mlrssc-centroid',
  title: 'MLRSSC centroid (multi-view low-rank sparse subspace clustering)',
  description:
    `${PAPER}: as MLRSSC pairwise, with each view kept close to a consensus C* (updated as the ` +
    'public code does, adding the previous centroid), on the linear kernels.',
  schema: mlrsscCentroidSchema,
  footprint: footprintFor('centroid'),
  run: makeRun('mlrssc-centroid', 'centroid', () => LINEAR),
});

export const kmlrsscPairwise = defineSolver({
  ...common,
  name: 'kmlrssc-pairwise',
  title: 'Kernel MLRSSC pairwise',
  description:
    `${PAPER}: MLRSSC pairwise on per-view kernels (Gaussian by default, widths σ_v given or ` +
    'a multiple of the median distance, as the public code’s opt_sigma).',
  schema: kmlrsscPairwiseSchema,
  footprint: footprintFor('pairwise'),
  run: makeRun('kmlrssc-pairwise', 'pairwise', kernelChoice),
});

export const kmlrsscCentroid = defineSolver({
  ...common,
  name: 'kmlrssc-centroid',
  title: 'Kernel MLRSSC centroid',
  description:
    `${PAPER}: MLRSSC centroid on per-view kernels (Gaussian by default, widths σ_v given or ` +
    'a multiple of the median distance).',
  schema: kmlrsscCentroidSchema,
  footprint: footprintFor('centroid'),
  run: makeRun('kmlrssc-centroid', 'centroid', kernelChoice),
});
