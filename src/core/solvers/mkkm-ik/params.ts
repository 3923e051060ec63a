/**
 * mkkm-ik's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. The defaults are the reference code's settings
 * (`myabsentmultikernelclustering.m`: qnorm 2, alpha0 1e-3, stop after iteration t > 2 when the
 * relative change is below 1e-4 or t reaches 31).
 */
import type { ParamSchema, ParamsOf } from '../types';

/** Above this n the method refuses: every view holds an n_v × n_v kernel (README "Footprint"). */
export const MAX_N = 20_000;
/** Above this n the 'dense' path refuses: it forms V + 2 dense n × n arrays and O(n³) work. */
export const MAX_DENSE_N = 3000;

export const mkkmIkSchema = {
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 31,
    doc:
      'Most iterations (H, kernels, weights). The reference stops at t = 31 ("iter > 30"); ' +
      'before that it stops after t > 2 when the objective changes by less than `tol`.',
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-4,
    doc:
      'Stop at iteration t > 2 when |J(t−1) − J(t)| / J(t−1) falls below this (the ' +
      'reference’s 1e-4).',
  },
  qnorm: {
    type: 'number',
    min: 1,
    max: 10,
    exclusiveMin: true,
    default: 2,
    doc:
      'Exponent q of the kernel weights: the combined kernel is Σ_p γ_p^q·K_p and the weights ' +
      'γ_p ∝ (tr(K_p(I − HHᵀ)))^(−1/(q−1)). The objective the reference reports uses γ_p² ' +
      'whatever q is.',
  },
  alpha0: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-3,
    doc:
      'Ridge α₀ added to the missing block of I − HHᵀ before it is inverted in the kernel ' +
      'imputation, (I − HHᵀ)_mm + α₀·I (the reference’s alpha0).',
  },
  path: {
    type: 'enum',
    values: ['operator', 'dense'],
    default: 'operator',
    doc:
      "'operator': each imputed kernel kept as its observed block and a rank-k completion, " +
      'H by the block eigensolver on the combined kernel as an operator (no n × n array ' +
      'beyond the observed blocks). ' +
      "'dense': the reference’s arithmetic (dense n × n kernels, a linear solve per view, a " +
      'full eigendecomposition; O(n³) per iteration, n ≤ 3000), kept for the tests.',
  },
  mkc: {
    type: 'boolean',
    default: false,
    doc:
      'Add the mutual kernel completion term of MKKM-IK-MKC (TPAMI 2020) in the form the ' +
      'authors’ repository carries commented out: each kernel’s missing entries also aligned ' +
      'with the other kernels (U = I − HHᵀ − λ·Σ_{q≠p} γ_q·K_q). No reference run exists for ' +
      'it (README); dense n × n kernels.',
  },
  lambda: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 2 ** -9,
    doc:
      'Weight λ of the mutual kernel completion term (only with `mkc`); the authors’ driver ' +
      'searched 2^−9 … 2^−1. Too large a λ makes the imputation ill-posed and is refused.',
  },
} as const satisfies ParamSchema;

export type MkkmIkParams = ParamsOf<typeof mkkmIkSchema>;
