/**
 * mic against ../shared/reference/baselines-incomplete.json, runs 'MIC' (the repository's
 * β = 1e4) and 'MIC (beta 0.01)', both on NGs Per0.5 — the only MIC runs recorded (the notes:
 * MIC was not run on BDGP nor on NGs Per0.1/0.9).
 *
 * Both start from NMF restarts drawn from Octave's generator, which no port reproduces, so the
 * traces are not compared (the fixed-start trace is fixed-start.test.ts); the CBG protocol's
 * metrics are: one solve (seed: see SEEDS), then 20 k-means of 20 k-means++ starts (at most 1000
 * iterations) on U*, mean ACC, NMI and Purity within max(0.02, 2σ√(2/20)) of the record (σ the
 * recorded std). The solve runs once, as in the reference's driver, through a wrapper that
 * declares it deterministic (so the protocol reuses its output for every seed).
 *
 * Both runs are the full default settings (30 rounds of 3 × 100 iterations after 3 passes of
 * 30 restarts): they fit the suite's time budget, so both run. What is deterministic in the
 * record is also checked: the per-round litekmeans ACC of 'MIC' falls from 0.742 to chance
 * (≈ 0.21) after round 1, and its objective falls by three orders of magnitude as β·‖U_v‖
 * collapses; ours does the same (the objective's drop, and the metrics at chance level).
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../src/core/random';
import { mic } from '../../../../src/core/solvers/mic';
import type { Solver } from '../../../../src/core/solvers/types';
import {
  band,
  CBG_PROTOCOL,
  incompleteReference,
  METRIC_NAMES,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { referenceSuite, type ReferenceRun } from '../../../helpers/reference';

const runs = recordedRuns((r) => r.method.startsWith('MIC'));

/**
 * The start seed per recorded run. Under β = 0.01 the NMF start ends in one of two basins on
 * NGs Per0.5 (measured over seeds 0-5 of this port, full default settings): final objective
 * ≈ 1053.0-1053.1 with ACC 0.601-0.606 (seeds 1, 3, 4), or ≈ 1055.5 with ACC 0.543-0.552
 * (seeds 0, 2, 5). The recorded run ends at 1052.97, in the first basin. Its metrics are
 * compared from a start in the same basin, chosen by the label-free objective: seed 1, and the
 * test asserts its final objective is within 0.05 % of the recorded one. Under β = 1e4 every
 * start collapses to chance: seed 0.
 */
const SEEDS: Readonly<Record<string, number>> = { MIC: 0, 'MIC (beta 0.01)': 1 };

/** mic solved once from the run's seed: the reference's one solve, then 20 k-means. */
const solvedOnce = (run: ReferenceRun): Solver =>
  ({
    ...mic,
    deterministic: true,
    run: (ds, params, k) => mic.run(ds, params, k, createRng(SEEDS[run.method]!)),
  }) as Solver;

describe('mic reference (baselines-incomplete.json, MIC)', () => {
  it('has the two recorded MIC runs, both NGs Per0.5, β 1e4 and 0.01', () => {
    expect(runs.map((r) => [r.file, r.method, (r.params['beta'] as number[])[0]])).toEqual([
      ['NGs/NGs_Per0.5.mat', 'MIC', 1e4],
      ['NGs/NGs_Per0.5.mat', 'MIC (beta 0.01)', 0.01],
    ]);
    const acc = runs[0]!.raw['per_round_litekmeans_acc'] as number[];
    expect(acc[0]).toBeGreaterThan(0.7);
    expect(Math.max(...acc.slice(1))).toBeLessThan(0.25);
  });

  referenceSuite(solvedOnce, incompleteReference, {
    title: 'one solve, CBG protocol (20 × k-means of 20 starts)',
    select: (r) => r.method.startsWith('MIC'),
    expectedRuns: 2,
    name: (run) => `${run.file}: ${run.method}`,
    params: (run) => {
      const p = run.params;
      const common = (x: unknown): number => {
        const a = x as number[];
        expect(new Set(a).size, 'one value for every view').toBe(1);
        return a[0]!;
      };
      return {
        alpha: common(p['alpha']),
        beta: common(p['beta']),
        iterations: p['rounds'] as number,
        innerIterations: p['maxIter'] as number,
        restarts: p['nRepeat'] as number,
        restartIter: p['minIter'] as number,
        refineIter: p['maxIter'] as number,
      };
    },
    protocol: CBG_PROTOCOL,
    metrics: { names: METRIC_NAMES, band },
    check: (result, run) => {
      expect(result.iterations).toBe(run.iterations);
      const ours = result.objective;
      const rec = run.objective!;
      expect(ours.length).toBe(rec.length);
      // The collapse under β = 1e4: the first objective is dominated by β·Σ‖U_v[:, c]‖, which
      // the rounds then shrink by two to three orders of magnitude (recorded: 5.4e6 → 6.2e3);
      // under β = 0.01 the objective moves by a few per cent (1103 → 1053).
      const drop = ours[0]! / ours[ours.length - 1]!;
      const recDrop = rec[0]! / rec[rec.length - 1]!;
      console.log(
        `${run.method}: objective ${ours[0]} → ${ours.at(-1)} (recorded ${rec[0]} → ${rec.at(-1)})`,
      );
      if (recDrop > 100) expect(drop).toBeGreaterThan(100);
      else {
        expect(drop).toBeLessThan(1.2);
        const last = Math.abs(ours.at(-1)! / rec.at(-1)! - 1);
        expect(last, 'final objective: the recorded basin').toBeLessThan(5e-4);
      }
    },
    timeout: 600_000,
  });
});
