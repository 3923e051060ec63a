/**
 * MIC from a portable start against an independent dense numpy implementation
 * (make_fixture.py → fixed-start.json, generator committed next to it).
 *
 * The reference JSON records MIC only from its random NMF start (Octave's generator, which no
 * port reproduces; runs 'MIC' and 'MIC (beta 0.01)' are compared by metrics in
 * reference.test.ts). So the start's random draws are replaced here by the sequence
 * u_t = frac(t·0.6180339887498949), drawn in MATLAB's column-major order on both sides, and
 * everything else runs as the solver runs it: the input layer, the mean fill and weights, every
 * NMF call of the start (restarts, the best kept, refinement), the rounds and the per-view
 * updates. Compared to 1e-9 relative: each start call's best objective, the objective per
 * round (same count), ‖ΔU*‖² per round, and U*'s column sums and singular values.
 *
 * Cases (small settings, to keep the suite fast): NGs Per0.5 (sparse text views, held as CSR)
 * with both recorded β (1e4 and 0.01); BDGP Per0.5 (two dense views and one CSR view); and one
 * start call of a single restart (the reference's nRepeat = 1 branch).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../../src/io/load';
import { svd } from '../../../../src/core/linalg/kernels';
import { micInput, micSchema, micSettings, micSteps } from '../../../../src/core/solvers/mic';
import type { MicParams } from '../../../../src/core/solvers/mic';
import { validateParams } from '../../../../src/core/solvers/params';
import { DATASETS } from '../../../helpers/paths';
import { drain } from '../../../helpers/toy';

interface Case {
  file: string;
  k: number;
  settings: {
    passes: number;
    restarts: number;
    restartIter: number;
    refineIter: number;
    rounds: number;
    inner: number;
    alpha: number;
    beta: number;
  };
  startObjective: number[];
  objective: number[];
  change: number[];
  UstarColSums: number[];
  UstarSingularValues: number[];
  missingWeight: number[];
}

const fixture = JSON.parse(readFileSync(join(__dirname, 'fixed-start.json'), 'utf8')) as {
  cases: Case[];
};
const REL = 1e-9;

/** The fixture's draws: u_t = frac(t·φ), t = 1, 2, … */
function goldenDraws(): () => number {
  let t = 0;
  return () => {
    t++;
    const x = t * 0.6180339887498949;
    return x - Math.floor(x);
  };
}

function expectClose(ours: readonly number[], ref: readonly number[], what: string): void {
  expect(ours.length, `${what}: length`).toBe(ref.length);
  ours.forEach((x, i) => {
    const err = Math.abs(x - ref[i]!) / Math.max(Math.abs(ref[i]!), 1e-300);
    expect(err, `${what}[${i}]: ${x} vs ${ref[i]}`).toBeLessThan(REL);
  });
}

describe('mic from a portable start = dense numpy (fixed-start.json)', () => {
  it('has the 4 cases', () => expect(fixture.cases.length).toBe(4));
  for (const c of fixture.cases) {
    const s = c.settings;
    const title =
      `${c.file}, β = ${s.beta}, ${s.passes} pass(es) × ${s.restarts} restart(s), ` +
      `${s.rounds} rounds × ${s.inner}`;
    it(title, async () => {
      const ds = await loadDataset(join(DATASETS, c.file));
      const { rounds, inner, ...rest } = s;
      const params = validateParams(micSchema, {
        ...rest,
        iterations: rounds,
        innerIterations: inner,
      }) as unknown as MicParams;
      const { ops } = micInput(ds, params);
      const settings = micSettings(
        params,
        ds.n,
        ds.views.map((v) => v.present.length),
      );
      expectClose(settings.missingWeight, c.missingWeight, 'missing weight');
      const { output: r } = drain(micSteps(ops, c.k, settings, { draw: goldenDraws() }));
      expectClose(r.startObjective, c.startObjective, 'start objective per NMF call');
      expectClose(r.objective, c.objective, 'objective per round');
      expectClose(r.change, c.change, '‖ΔU*‖² per round');
      const U = r.consensus;
      const colSums = Array.from({ length: U.cols }, (_, j) => {
        let t = 0;
        for (let i = 0; i < U.rows; i++) t += U.data[i * U.cols + j]!;
        return t;
      });
      expectClose(colSums, c.UstarColSums, 'U* column sums');
      expectClose(Array.from(svd(U).s), c.UstarSingularValues, 'U* singular values');
    });
  }
});
