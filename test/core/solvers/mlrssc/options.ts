/** The MLRSSC options of the public code's defaults, for the tests of the iteration. */
import type { MlrsscOptions } from '../../../../src/core/solvers/mlrssc/mlrssc';

/** λ = (0.3, 0.3, 0.3), μ0 = 100, μ_max = 1e6, ρ = 1.5, tolerance 1e-3, the fast path. */
export const codeDefaults = (
  variant: 'pairwise' | 'centroid',
  iterations: number,
  overrides: Partial<MlrsscOptions> = {},
): MlrsscOptions => ({
  variant,
  lambda1: 0.3,
  lambda2: 0.3,
  lambda3: 0.3,
  mu0: 100,
  maxMu: 1e6,
  rho: 1.5,
  iterations,
  tolerance: 1e-3,
  path: 'fast',
  ...overrides,
});
