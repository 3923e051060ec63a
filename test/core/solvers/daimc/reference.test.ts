/**
 * daimc against ../shared/reference/baselines-incomplete.json (runs 'DAIMC (fixed-start
 * fixture)' on NGs Per0.5, and 'DAIMC' on NGs Per0.5 and BDGP Per0.5).
 *
 * Exactness, from the fixture's portable start (`newinit` with the ground-truth labels in place
 * of litekmeans; start.ts with `kind: 'labels'`): the objective trace to 1e-9 relative with the
 * same iteration count, the column sums of V at the start and at the end to 1e-12, and V's
 * smallest entry (exactly 0 in both). V's singular values and ‖U_v‖_F, ‖B_v‖_F agree to about
 * 1e-9 relative, not to 1e-12 like the trace: the V update sets an entry to exactly 0 when its
 * numerator Σ_v [X_vᵀU_v]⁺ + … vanishes, and for entries of X_vᵀU_v within rounding of 0 (the
 * text views are sparse) that is decided by the last bits of a sum, which differ between any
 * two implementations; those entries are tiny, so the objective does not see them while V, and
 * U_v through the next solve, move by about 1e-9. They are compared at 5e-9 for that reason.
 *
 * Accuracy: the recorded metrics are one DAIMC solve followed by 20 protocol k-means; the std
 * is the k-means spread only. Checked one-sided, never below the recorded mean by more than
 * max(0.02, 2σ√(2/20)):
 * - the fixed start (the same V as the reference, to the precision above), one solve and the
 *   CBG protocol's 20 k-means. Two-sided fails on NMI: our best-of-20 k-means++ returns one
 *   partition every time (ACC 0.906 ± 0, NMI 0.759) where the recorded Octave k-means spread
 *   over several (0.887 ± 0.022, NMI 0.731), as in bsv-kmeans/reference.test.ts.
 * - the random-start runs, under the paper protocol with a solve per seed (our start: k-means++
 *   on each mean-filled view; the reference's litekmeans draws from Octave's RANLIB stream,
 *   which nothing else reproduces, so its single start is not comparable and its std does not
 *   include the start's spread). 5 seeds on NGs Per0.5 and 3 on BDGP Per0.5, not 20: each
 *   solve costs seconds of start k-means and the test files share a 120 s CPU budget.
 */
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../../../src/core/dataset';
import { thinSvd } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { evaluate } from '../../../../src/core/protocol';
import {
  daimc,
  daimcIterate,
  daimcOptions,
  daimcSchema,
  type DaimcParams,
  type DaimcResult,
} from '../../../../src/core/solvers/daimc';
import { validateParams } from '../../../../src/core/solvers/params';
import type { Solver } from '../../../../src/core/solvers/types';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { loadDataset } from '../../../../src/io/load';
import {
  CBG_PROTOCOL,
  expectMetricsInBand,
  incompleteReference,
  recordedRun,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { referenceSuite } from '../../../helpers/reference';
import { DATASETS } from '../../../helpers/paths';
import { drain } from '../../../helpers/toy';
import { join } from 'node:path';

const fixture = recordedRun('DAIMC (fixed-start fixture)');
const checks = fixture.raw['checks'] as Record<string, number[] | number>;
const relErr = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
const fro = (M: Mat): number => Math.sqrt(M.data.reduce((s, x) => s + x * x, 0));
const columnSums = (V: Mat): number[] => {
  const s = new Array<number>(V.cols).fill(0);
  for (let p = 0; p < V.data.length; p++) s[p % V.cols]! += V.data[p]!;
  return s;
};

describe('daimc fixed-start fixture (NGs Per0.5, start from the ground-truth labels)', () => {
  let ds: MultiViewDataset;
  let result: DaimcResult;
  const options = daimcOptions(validateParams(daimcSchema, {}) as DaimcParams);

  it('the trace equals the fixture (1e-9 relative, same iteration count)', async () => {
    expect(fixture.file).toBe('NGs/NGs_Per0.5.mat');
    ds = await loadDataset(join(DATASETS, fixture.file));
    const labels = Int32Array.from(ds.labels!.codes);
    const input = incompleteInput({ n: ds.n, views: ds.views, sampleIds: null });
    result = drain(daimcIterate(input, fixture.k!, options, { kind: 'labels', labels })).output;
    expect(result.objective.length).toBe(fixture.iterations);
    result.objective.forEach((f, t) => {
      expect(relErr(f, fixture.objective![t]!), `iteration ${t + 1}`).toBeLessThan(1e-9);
    });
    expect(result.converged).toBe(true);
  });

  it('the checks: column sums of V (start, end) to 1e-12, min V = 0, norms to 5e-9', () => {
    const V0 = checks['V0_colsums'] as number[];
    Array.from(result.startColumnSums).forEach((s, c) => expect(s).toBeCloseTo(V0[c]!, 12));
    columnSums(result.V).forEach((s, c) => {
      expect(s).toBeCloseTo((checks['V_colsums'] as number[])[c]!, 12);
    });
    expect(Math.min(...result.V.data)).toBe(checks['V_min']);
    const sv = thinSvd(result.V).s;
    (checks['V_sv'] as number[]).forEach((s, i) => expect(relErr(sv[i]!, s)).toBeLessThan(5e-9));
    (checks['U_fro'] as number[]).forEach((s, v) => {
      expect(relErr(fro(result.U[v]!), s)).toBeLessThan(5e-9);
    });
    (checks['B_fro'] as number[]).forEach((s, v) => {
      expect(relErr(fro(result.B[v]!), s)).toBeLessThan(5e-9);
    });
  });

  it('its V under the CBG protocol (one solve, 20 k-means) scores at least the recorded', () => {
    // The fixed start as a solver: the labels reach it through this closure, never the input.
    const labels = Int32Array.from(ds.labels!.codes);
    const fixed: Solver = {
      ...daimc,
      deterministic: true,
      *run(input, p, k) {
        const start = { kind: 'labels', labels } as const;
        const o = daimcOptions(p as DaimcParams);
        const r = yield* daimcIterate(incompleteInput(input), k, o, start);
        return {
          embedding: r.V,
          objective: r.objective,
          converged: true,
          iterations: 0,
          notes: [],
        };
      },
    };
    const { output } = drain(evaluate(ds, fixed, {}, fixture.k!, CBG_PROTOCOL));
    expectMetricsInBand(output.metrics, fixture, 'fixed start', true);
  }, 120_000);
});

const SEEDS: Record<string, number> = { 'NGs/NGs_Per0.5.mat': 5, 'BDGP/BDGP_fea_Per0.5.mat': 3 };

describe('daimc reference (random-start runs)', () => {
  it('has the recorded DAIMC runs: NGs Per0.5 and BDGP Per0.5', () => {
    const files = recordedRuns('DAIMC').map((r) => r.file);
    expect(files.sort()).toEqual(Object.keys(SEEDS).sort());
  });

  for (const file of Object.keys(SEEDS)) {
    const one = { ...incompleteReference, runs: [recordedRun('DAIMC', file)] };
    referenceSuite(daimc, one, {
      title: `${file}: paper protocol, ${SEEDS[file]} seeds (a solve per seed)`,
      name: (run) => `${run.file}: at least the recorded ACC, NMI, Purity`,
      params: () => ({}),
      protocol: { ...CBG_PROTOCOL, seeds: SEEDS[file]! },
      check: (result, run) => expectMetricsInBand(result.metrics, run, run.file, true),
      timeout: 600_000,
    });
  }
});
