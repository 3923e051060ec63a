/**
 * daimc's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. Defaults are the survey code's settings
 * (`DAIMC_clustering.m`, `DAIMC.m`, `UpdateV_DAIMC.m`, `newinit.m`), the recorded reference runs.
 */
import type { ParamSchema, ParamsOf } from '../types';

export const daimcSchema = {
  alpha: {
    type: 'number',
    min: 0,
    max: 1e6,
    default: 1e-4,
    doc:
      "α, weight of the alignment terms ‖B_vᵀU_v − I‖² + β‖B_v‖₂,₁ (the reference's `afa`, " +
      'default 1e-4).',
  },
  beta: {
    type: 'number',
    min: 0,
    max: 1e12,
    exclusiveMin: true,
    default: 1e4,
    doc: 'β, weight of the L2,1 norm of the regressions B_v inside the alignment term (default 1e4).',
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc: "Cap on outer iterations (U, V, B updates); the reference's maxIter, 30.",
  },
  innerIterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc:
      'Cap on passes of the multiplicative V update inside each outer iteration (the ' +
      "reference's innerMaxIter, 30).",
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-4,
    doc:
      'Stop the outer loop when the relative change of the objective, |f(t) − f(t−1)| / f(t−1), ' +
      'is below this (never at the first iteration; reference 1e-4).',
  },
  innerTol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-4,
    doc:
      'Stop the V passes when the relative change of the weighted reconstruction error is below ' +
      'this (reference 1e-4, fixed in its code).',
  },
  startReplicates: {
    type: 'int',
    min: 1,
    max: 100,
    default: 20,
    doc:
      "k-means++ starts of each view's start clustering, lowest SSE kept (the reference's " +
      'litekmeans with 20 replicates).',
  },
  startIterations: {
    type: 'int',
    min: 1,
    max: 10000,
    default: 100,
    doc: "Cap on Lloyd iterations of each start k-means (litekmeans' default 100).",
  },
} as const satisfies ParamSchema;

export type DaimcParams = ParamsOf<typeof daimcSchema>;
