/**
 * UEAF's parameters (STYLE.md rule 7). Defaults are the reference demo's percentDel 0.5
 * setting (`demo_UEAF_3sources3vbigRnSp.m`), the setting the recorded runs of
 * ../shared/reference/baselines-incomplete.json used on every file.
 */
import { MAX_WEIGHT, penaltyWeight } from '../params';
import type { ParamSchema, ParamsOf } from '../types';

export const ueafSchema = {
  lambda1: penaltyWeight(
    1e-5,
    'λ1: weight of the feature-graph smoothness tr(E_vᵀ L_v E_v) of the inferred missing ' +
      'columns (and, as the reference codes it, of the whole graph term of the view error).',
  ),
  lambda2: {
    type: 'number',
    min: 0,
    exclusiveMin: true,
    max: MAX_WEIGHT,
    default: 10,
    doc:
      'λ2: weight of the embedding-alignment term Σ_ij ‖p_i − p_j‖² s_ij² (the P-step solves ' +
      'with I + λ2·L_{S∘S}); the S-step divides by it, so it must be above 0.',
  },
  lambda3: penaltyWeight(
    1e-5,
    'λ3: weight of the spectral term tr(Fᵀ L_S F) tying the graph S to the k-dimensional F.',
  ),
  r: {
    type: 'number',
    min: 1,
    exclusiveMin: true,
    max: 100,
    default: 3,
    doc: 'Exponent of the view weights: α_v^r in the objective, α_v ∝ err_v^(1/(1−r)).',
  },
  dim: {
    type: 'int',
    min: 0,
    max: 1000,
    default: 0,
    doc: 'Embedding dimension of P and F; 0 means k, the number of clusters (the demo’s choice).',
  },
  knn: {
    type: 'int',
    min: 1,
    max: 100,
    default: 7,
    doc:
      'Neighbours of the binary kNN graph over each view’s features (rows of the d_v × n ' +
      'matrix), whose Laplacian L_v smooths the inferred columns.',
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 50,
    doc: 'Cap on iterations (the reference’s max_iter).',
  },
  tol: {
    type: 'number',
    min: 0,
    exclusiveMin: true,
    max: 1,
    default: 1e-5,
    doc:
      'Stop after iteration t > 2 when |obj(t) − obj(t−1)| < tol (absolute, on the objective ' +
      'normalised by Σ_v ‖X_v‖²; the reference’s 1e-5).',
  },
} as const satisfies ParamSchema;

export type UeafParams = ParamsOf<typeof ueafSchema>;
