/**
 * eeimvc's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. Defaults are the recorded reference settings
 * (TPAMI_EEIMVC `Demo.m` with lambda = 1, the reference's primary fixture).
 */
import { penaltyWeight } from '../params';
import type { ParamSchema, ParamsOf } from '../types';

export const eeimvcSchema = {
  lambda: penaltyWeight(
    1,
    'λ, the weight of the consensus start H0 (the top-k eigenvectors of the averaged ' +
      'kernels) in the late-fusion target Σ_p β_p·H_p·W_p + λ·H0. The demo grid is ' +
      '2^-15, 2^-12, …, 2^15; the reference records all 11 and names λ = 1 as its primary run.',
  ),
  qnorm: {
    type: 'number',
    min: 1.01,
    max: 100,
    default: 2,
    doc:
      'q of the ℓ_q constraint ‖β‖_q = 1 on the view weights: β_p ∝ t_p^(1/(q−1)) with ' +
      't_p = tr(H*ᵀ·H_p·W_p). The reference uses 2 (β = t / ‖t‖₂).',
  },
  iterations: {
    type: 'int',
    min: 3,
    max: 10001,
    default: 101,
    doc:
      'Cap on the iterations run: the reference’s maxIter + 1 (it stops once the count ' +
      'exceeds maxIter = 100, so at most 101 run). The stopping rule is never tested before ' +
      'the third iteration, so at least 3 run.',
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    default: 1e-4,
    doc:
      'Stop after iteration t > 2 when |obj_t − obj_{t−1}| / |obj_t| < tol (the reference’s ' +
      'rule and value).',
  },
} as const satisfies ParamSchema;

export type EeimvcParams = ParamsOf<typeof eeimvcSchema>;
