/**
 * CGL / CGMVC-NC against `shared/reference/cgl-cgmvc-nc.json` (GNU Octave 7.3 running the
 * reference MATLAB code of guanyuezhen/CGL and its t-Gamma variant): for every 3Sources run
 * recorded there, the objective trace to 1e-6 relative at every iteration (measured: ≤ 6.5e-13)
 * with the same iteration count, and ACC / NMI / Purity means under the reference protocol
 * (20 × k-means with 20 replicates) within ±0.02 (k-means randomness differs from Octave's).
 * Handwritten and 100Leaves take minutes each: `CGL_BENCH=reference npm run bench -- cgl`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/core/protocol';
import { cgl, cgmvcNc } from '../../../../src/core/solvers/cgl';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS, SHARED } from '../../../helpers/paths';
import { drain } from '../../../helpers/toy';

interface RefRun {
  file: string;
  method: 'CGL' | 'CGMVC-NC';
  params: { lambda: number; rho: number; gamma?: number };
  iterations: number;
  objective: number[];
  metrics: Record<string, { mean: number; std: number }>;
}
const reference = JSON.parse(readFileSync(join(SHARED, 'reference/cgl-cgmvc-nc.json'), 'utf8')) as {
  runs: RefRun[];
};

function traceErr(a: readonly number[], b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  return Math.max(...a.map((x, i) => Math.abs(x - b[i]!) / Math.abs(b[i]!)));
}

describe('cgl against the reference (Octave running the CGL MATLAB code)', () => {
  const runs = reference.runs.filter((r) => r.file.includes('3Sources'));
  it('has three 3Sources runs recorded', () => expect(runs.length).toBe(3));
  for (const [i, run] of runs.entries()) {
    it(`3Sources ${run.method} λ = ${run.params.lambda.toPrecision(3)}, ρ = ${run.params.rho}: trace to 1e-6, metrics ±0.02`, async () => {
      const ds = await loadDataset(join(DATASETS, run.file));
      const solver = run.method === 'CGL' ? cgl : cgmvcNc;
      const params = {
        lambda: run.params.lambda,
        rho: run.params.rho,
        ...(run.params.gamma !== undefined ? { gamma: run.params.gamma } : {}),
      };
      const gen = evaluate(ds, solver, params, 6, { protocol: 'paper', seed: 0 });
      const { output } = drain(gen);
      expect(output.iterations).toBe(run.iterations);
      const err = traceErr(output.objective, run.objective);
      expect(err, `run ${i}: max relative trace error`).toBeLessThan(1e-6);
      for (const m of ['ACC', 'NMI', 'Purity']) {
        expect(Math.abs(output.metrics[m]!.mean - run.metrics[m]!.mean), m).toBeLessThanOrEqual(
          0.02,
        );
      }
    });
  }
});
