/**
 * The parameters of MLRSSC and kernel MLRSSC (STYLE.md rule 7), under the names of api.md and
 * with the reference code's defaults (`pairwise_MLRSSC.m`, `centroid_MLRSSC.m`): λ = (0.3, 0.3,
 * 0.3), μ0 = 100, μ_max = 1e6, ρ = 1.5, err_thr = 1e-3, 300 (pairwise) or 100 (centroid)
 * iterations. The kernel variants add the kernel, its per-view widths σ_v (the code has no
 * default: absent, σ_v = sigmaScale · opt_sigma(X_v), the repo's median rule) and the
 * polynomial degree.
 */
import { penaltyWeight } from '../params';
import type { ParamSchema, ParamsOf } from '../types';

/** Largest n (one n × n Float64Array must fit a typed array's length, 2³⁰ entries). */
export const MAX_N = 32_768;

const weights = {
  lambda1: penaltyWeight(0.3, 'λ1: weight of the low-rank term ‖C1‖_* (the code’s lambda(1)).'),
  lambda2: penaltyWeight(0.3, 'λ2: weight of the sparsity term ‖C2‖_1 (the code’s lambda(2)).'),
} as const satisfies ParamSchema;

const admm = {
  mu0: {
    type: 'number',
    min: 0,
    max: 1e10,
    exclusiveMin: true,
    default: 100,
    doc: 'μ0: the ADMM penalty of iteration 1 (all four penalties equal, as the code).',
  },
  maxMu: {
    type: 'number',
    min: 0,
    max: 1e12,
    exclusiveMin: true,
    default: 1e6,
    doc: 'μ_max: μ_t = min(μ0·ρ^(t−1), μ_max).',
  },
  rho: {
    type: 'number',
    min: 1,
    max: 100,
    default: 1.5,
    doc: 'ρ: the factor μ grows by after each iteration (1: fixed μ).',
  },
} as const satisfies ParamSchema;

const tolerance = {
  tolerance: {
    type: 'number',
    min: 0,
    max: 1,
    default: 1e-3,
    doc:
      'err_thr: stop when, in every view, max|A − C1|, max|A − C2|, max|A − C3| and ' +
      'max|A − A_prev| are all ≤ this (absolute, as the code; 0 runs to the cap).',
  },
} as const satisfies ParamSchema;

const iterations = <const D extends number>(d: D) =>
  ({
    type: 'int',
    min: 1,
    max: 10_000,
    default: d,
    doc: `num_iter: cap on ADMM iterations (the code’s default for this variant: ${d}).`,
  }) as const;

const pairwiseLambda3 = penaltyWeight(
  0.3,
  'λ3: weight of the pairwise agreement Σ_{w≠v} ‖C_v − C_w‖_F² (the code’s lambda(3)).',
);

const centroidLambda3 = {
  type: 'number',
  min: 0,
  max: 1e6,
  exclusiveMin: true,
  default: 0.3,
  doc:
    'λ3: weight of the agreement with the centroid ‖C_v − C*‖_F² (the code’s lambda(3); ' +
    'above 0: the centroid update divides by V·λ3).',
} as const;

const kernel = {
  kernel: {
    type: 'enum',
    values: ['gaussian', 'linear', 'polynomial'],
    default: 'gaussian',
    doc:
      'K_v: ‘gaussian’ exp(−‖x−y‖²/(2σ_v²)) by construct_kernel.m’s arithmetic, ‘linear’ X_v·X_vᵀ, ' +
      '‘polynomial’ (X_v·X_vᵀ)^degree elementwise.',
  },
  sigma: {
    type: 'numbers',
    min: 0,
    max: 1e15,
    exclusiveMin: true,
    default: null,
    doc:
      'σ_v of the Gaussian kernel, one per view in view order (the code’s opts.sigma); absent: ' +
      'sigmaScale · opt_sigma(X_v), the median of all n² distances of view v.',
  },
  sigmaScale: {
    type: 'number',
    min: 0,
    max: 1e6,
    exclusiveMin: true,
    default: 1,
    doc: 'Multiplier of the median rule opt_sigma when sigma is absent (the code’s scripts use 1–50).',
  },
  degree: {
    type: 'int',
    min: 1,
    max: 10,
    default: 2,
    doc: 'Degree of the polynomial kernel (construct_kernel.m’s default 2); other kernels ignore it.',
  },
} as const satisfies ParamSchema;

const path = {
  path: {
    type: 'enum',
    values: ['fast', 'dense'],
    default: 'fast',
    doc:
      '‘fast’: (K_v + 3μI)⁻¹ from one eigendecomposition of each K_v per solve; ‘dense’: a ' +
      'Cholesky factorisation of K_v + 3μI every iteration (the reference’s arithmetic, for tests).',
  },
} as const satisfies ParamSchema;

export const mlrsscPairwiseSchema = {
  ...weights,
  lambda3: pairwiseLambda3,
  ...admm,
  iterations: iterations(300),
  ...tolerance,
  ...path,
} as const satisfies ParamSchema;

export const mlrsscCentroidSchema = {
  ...weights,
  lambda3: centroidLambda3,
  ...admm,
  iterations: iterations(100),
  ...tolerance,
  ...path,
} as const satisfies ParamSchema;

export const kmlrsscPairwiseSchema = {
  ...weights,
  lambda3: pairwiseLambda3,
  ...admm,
  iterations: iterations(300),
  ...tolerance,
  ...kernel,
  ...path,
} as const satisfies ParamSchema;

export const kmlrsscCentroidSchema = {
  ...weights,
  lambda3: centroidLambda3,
  ...admm,
  iterations: iterations(100),
  ...tolerance,
  ...kernel,
  ...path,
} as const satisfies ParamSchema;

/** The parameters every variant has (the linear ones fix the kernel). */
export type MlrsscParams = ParamsOf<typeof mlrsscPairwiseSchema>;
/** The kernel variants' parameters. */
export type KmlrsscParams = ParamsOf<typeof kmlrsscPairwiseSchema>;
