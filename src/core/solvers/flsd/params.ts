/**
 * flsd's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. Defaults are the reference demo's settings for half
 * the samples missing (`demo_IMC_GRMF_bbc_best_mean.m`, percentDel 0.5), the ones the recorded
 * runs of shared/reference/baselines-incomplete.json use.
 */
import { penaltyWeight } from '../params';
import type { ParamSchema, ParamsOf } from '../types';

export const flsdSchema = {
  lambda1: penaltyWeight(
    10,
    'λ1: weight of the alignment λ1·‖P_v − G_v·Pc‖² that pulls each view’s representation ' +
      'towards the consensus Pc.',
  ),
  lambda2: penaltyWeight(
    1e-5,
    'λ2: weight of the sparsity term λ2·‖P_v‖₁ (a soft threshold of 0.5·λ2 / (d_i + λ1) per row).',
  ),
  r: {
    type: 'number',
    min: 1,
    max: 100,
    exclusiveMin: true,
    default: 3,
    doc:
      'Exponent of the view weights: the objective weighs view v by α_v^r, α_v ∝ e_v^(1/(1−r)); ' +
      'near 1 one view takes all the weight, large r gives equal weights.',
  },
  knn: {
    type: 'int',
    min: 1,
    max: 100,
    default: 7,
    doc:
      'Neighbours of each present sample in its view’s binary kNN graph (constructW, the ' +
      'sample itself among the k + 1 candidates, symmetrised by max). At most each view’s ' +
      'present count minus 2.',
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 10000,
    default: 120,
    doc: 'Cap on iterations (max_iter).',
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-7,
    doc:
      'Stop after iteration 10 once the objective divided by Σ_v ‖X_v‖²_F changes by less ' +
      'than this from one iteration to the next.',
  },
  start: {
    type: 'enum',
    values: ['random', 'dct'],
    default: 'random',
    doc:
      "'random' (the reference's): U_v an orthonormalised uniform k × d_v matrix, " +
      "P_v = X_v·U_vᵀ, Pc uniform on [0, 1), from the seed. 'dct': the portable fixed start " +
      'of the reference fixture (U_v the first k rows of the orthonormal DCT-II of size d_v, ' +
      'Pc(i, j) = ((i + j) mod k + 1)/k, 1-based), deterministic; needs k ≤ d_v.',
  },
} as const satisfies ParamSchema;

export type FlsdParams = ParamsOf<typeof flsdSchema>;
