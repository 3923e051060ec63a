/**
 * IMVC-CBG's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the docs. Defaults are the reference's Improved version (specs/imvc-cbg.md):
 * m = k anchors, λ = 0, 50 iterations, tolerance 1e-3, α from the unsquared residual norm,
 * row-normalised embedding. The start is the best of the reference's own and four seeded ones
 * by final objective (README "Starts": the study that chose it); 'seeded' and 'reference' alone
 * are offered too.
 */
import { penaltyWeight } from '../params';
import type { ParamSchema } from '../types';

export const imvcCbgSchema = {
  anchors: {
    type: 'int',
    min: 0,
    max: 10_000,
    default: 0,
    doc:
      'Number of anchors m (columns of the consensus anchor matrix C, rows of the bipartite ' +
      'graph Z). 0 means m = k, the Improved version’s choice; the paper’s grid tried k, 2k, ' +
      '3k and 5k. Must be at least the latent dimension.',
  },
  lambda: penaltyWeight(
    0,
    'Weight λ of the ‖Z‖² regulariser. 0 is the reference’s Improved version; λ > 0 is the ' +
      'paper’s model (Eq. 4): the Z-step divides by λ + Σ_v α_v²·[sample in view v], and the ' +
      'objective adds λ‖Z‖².',
  ),
  dimension: {
    type: 'int',
    min: 0,
    max: 10_000,
    default: 0,
    doc:
      'Latent dimension (rows of each projection W_v and of C). 0 means the number of ' +
      'clusters k, as in the paper.',
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 50,
    doc: 'Cap on iterations (each: W-step, C-step, Z-step, α-step).',
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-3,
    doc: 'Stop when the relative objective change |obj(t−1) − obj(t)| / obj(t−1) falls below this.',
  },
  alphaRule: {
    type: 'enum',
    values: ['norm', 'squared'],
    default: 'norm',
    doc:
      "View weights α_v ∝ 1/M_v from the residual norm M_v = ‖X_v − W_vᵀ C Z_v‖ ('norm', " +
      "the reference code) or ∝ 1/M_v² ('squared', the paper's derivation).",
  },
  normalize: {
    type: 'boolean',
    default: true,
    doc:
      'Scale each row of the embedding (left singular vectors of Zᵀ) to unit length before ' +
      'k-means, as the Improved version does.',
  },
  start: {
    type: 'enum',
    values: ['seeded', 'reference', 'best'],
    default: 'best',
    doc:
      "'best' (default): the reference start and r − 1 seeded starts (r from restarts, 5 by " +
      'default) all solved, the lowest final objective kept (no labels used). ' +
      "'seeded': C with orthonormal rows and Z with columns on the simplex, drawn from the " +
      "run's seed (well-posed). 'reference': the published start (C = 0, Z = [I 0]), whose " +
      'first C-step is rank-deficient, so its result depends on floating-point details.',
  },
  restarts: {
    type: 'int',
    min: 0,
    max: 100,
    default: 0,
    doc:
      'Number of starts r solved; the one with the lowest final objective is kept (no labels ' +
      "used). 'seeded': r seeded starts; 'best': the reference start and r − 1 seeded ones. 0 " +
      "means 1 with 'seeded' and 5 with 'best'. Ignored with the reference start.",
  },
} as const satisfies ParamSchema;
