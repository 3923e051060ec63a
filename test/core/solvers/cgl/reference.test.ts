/**
 * CGL / CGMVC-NC against `shared/reference/cgl-cgmvc-nc.json` (GNU Octave 7.3 running the
 * reference MATLAB code of guanyuezhen/CGL and its t-Gamma variant): for every 3Sources run
 * recorded there, the objective trace to 1e-6 relative at every iteration with the same
 * iteration count, and ACC / NMI / Purity means under the reference protocol (20 × k-means
 * with 20 replicates) within ±0.02 (k-means randomness differs from Octave's).
 * Handwritten and 100Leaves take minutes each: `CGL_BENCH=reference npm run bench -- cgl`.
 */
import { cgl, cgmvcNc } from '../../../../src/core/solvers/cgl';
import { readReference, referenceSuite } from '../../../helpers/reference';

referenceSuite((run) => (run.method === 'CGL' ? cgl : cgmvcNc), readReference('cgl-cgmvc-nc'), {
  title: 'cgl against the reference (Octave running the CGL MATLAB code)',
  select: (run) => run.file.includes('3Sources'),
  expectedRuns: 3,
  name: (run) =>
    `3Sources ${run.method} λ = ${(run.params['lambda'] as number).toPrecision(3)}, ` +
    `ρ = ${run.params['rho'] as number}: trace to 1e-6, metrics ±0.02`,
  params: (run) => ({
    lambda: run.params['lambda'] as number,
    rho: run.params['rho'] as number,
    ...(run.params['gamma'] !== undefined ? { gamma: run.params['gamma'] as number } : {}),
  }),
  k: () => 6,
  protocol: { protocol: 'paper', seed: 0 },
  objective: { relative: 1e-6 },
  metrics: { names: ['ACC', 'NMI', 'Purity'], band: 0.02 },
});
