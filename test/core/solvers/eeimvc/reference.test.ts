/**
 * eeimvc against ../shared/reference/baselines-incomplete.json (runs 'EEIMVC' on NGs Per0.1,
 * Per0.5, Per0.9 and BDGP Per0.1, Per0.5, Per0.9, and 'EEIMVC (fixed-start fixture)' on NGs
 * Per0.5). Every recorded run is used; together they take a few seconds of CPU.
 *
 * - Kernel checks (deterministic, no eigenvector signs): per view the sum, trace and Frobenius
 *   norm of the centred, normalised kernel of the present block and its top 6 eigenvalues, to
 *   1e-10 relative. The sum is ‖Yᵀ·1‖² of the factor, the eigenvalues come from the block
 *   eigensolver on the kernel operator, the norm from the smaller Gram matrix of Y.
 * - The fixed-start fixture (portable signs, λ = 1), the exact test: the objective trace to
 *   1e-9 relative with the same 28 iterations, β and the singular values of the row-normalised
 *   H* to 1e-9, its column sums to 1e-9 of their largest magnitude (they are sums of ±
 *   entries, one of them −0.42 from terms of size 1), and the CBG-protocol metrics within
 *   max(0.02, 2σ√(2/20)) both ways.
 * - The six ARPACK runs: their traces hang on the signs Octave's `eigs` gave the base
 *   partitions and H0 (specs/baselines-incomplete.md §7: "not portable"), so the trace and the
 *   iteration count are not compared; the fixture shows that with the same signs the trace is
 *   the reference's. Their metrics move with those signs: ours (portable signs) are never below
 *   the recorded mean by more than the band, and on NGs Per0.5, BDGP Per0.1 and Per0.5 (and
 *   BDGP Per0.9's NMI) they are above it by more (NGs Per0.5 ACC 0.882 against 0.8605; the
 *   fixture on the same file, with the same start rule as ours, records 0.882), so the
 *   comparison is one-sided.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  centredUnitFactor,
  factorKernelOp,
  factorMatrix,
} from '../../../../src/core/kernels/factor';
import { blockEig } from '../../../../src/core/linalg/blockeig';
import { syrk, thinSvd, transposeInto } from '../../../../src/core/linalg/kernels';
import { createRng } from '../../../../src/core/random';
import { eeimvc, eeimvcSchema, type EeimvcParams } from '../../../../src/core/solvers/eeimvc';
import { validateParams } from '../../../../src/core/solvers/params';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import {
  band,
  CBG_PROTOCOL,
  expectMetricsInBand,
  incompleteReference,
  METRIC_NAMES,
  recordedRun,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { maxRelativeError, referenceSuite } from '../../../helpers/reference';
import { drain } from '../../../helpers/toy';

const arpackRuns = recordedRuns('EEIMVC');
const fixture = recordedRun('EEIMVC (fixed-start fixture)');

interface KernelChecks {
  readonly sum: number[];
  readonly trace: number[];
  readonly fro: number[];
  readonly top_eigs: number[][];
}

describe('eeimvc reference (baselines-incomplete.json, EEIMVC)', () => {
  it('has the 6 recorded runs and the fixed-start fixture on NGs Per0.5 with λ = 1', () => {
    expect(arpackRuns.map((r) => r.file).sort()).toEqual([
      'BDGP/BDGP_fea_Per0.1.mat',
      'BDGP/BDGP_fea_Per0.5.mat',
      'BDGP/BDGP_fea_Per0.9.mat',
      'NGs/NGs_Per0.1.mat',
      'NGs/NGs_Per0.5.mat',
      'NGs/NGs_Per0.9.mat',
    ]);
    for (const r of arpackRuns)
      expect(r.raw['params']).toMatchObject({ qnorm: 2, primary_lambda: 1 });
    expect(fixture.file).toBe('NGs/NGs_Per0.5.mat');
    expect(fixture.params).toEqual({ lambda: 1, qnorm: 2 });
    expect(eeimvcSchema.lambda.default).toBe(1);
    expect(eeimvcSchema.qnorm.default).toBe(2);
  });

  describe('kernel checks of the observed blocks (1e-10 relative)', () => {
    for (const run of arpackRuns) {
      it(run.file, { timeout: 120_000 }, async () => {
        const ds = await loadDataset(join(DATASETS, run.file));
        const kc = run.raw['kernel_checks'] as KernelChecks;
        const views = incompleteInput(ds).views;
        expect(views.map((v) => v.present.length)).toEqual(run.raw['present_per_view']);
        views.forEach((view, p) => {
          const f = centredUnitFactor(view);
          const Y = factorMatrix(f);
          const { rows: m, cols: d } = Y;
          const col = new Float64Array(d);
          let trace = 0;
          for (let r = 0; r < m; r++) {
            for (let j = 0; j < d; j++) {
              col[j]! += Y.data[r * d + j]!;
              trace += Y.data[r * d + j]! ** 2;
            }
          }
          const sum = col.reduce((a, x) => a + x * x, 0);
          // ‖Y·Yᵀ‖_F = ‖Yᵀ·Y‖_F: the Gram matrix of the smaller side.
          const G = d <= m ? syrk(Y) : syrk(transposeInto(Y));
          const fro = Math.sqrt(G.data.reduce((a, x) => a + x * x, 0));
          const top = blockEig(factorKernelOp(f), 6, { tol: 1e-12 }).values;
          const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
          expect(rel(sum, kc.sum[p]!), `view ${p + 1} sum`).toBeLessThan(1e-10);
          expect(rel(trace, kc.trace[p]!), `view ${p + 1} trace`).toBeLessThan(1e-10);
          expect(rel(fro, kc.fro[p]!), `view ${p + 1} fro`).toBeLessThan(1e-10);
          expect(maxRelativeError(Array.from(top), kc.top_eigs[p]!)).toBeLessThan(1e-10);
        });
      });
    }
  });

  it('the fixed-start fixture: β, the singular values and column sums of H*', async () => {
    const ds = await loadDataset(join(DATASETS, fixture.file));
    const { output } = drain(
      eeimvc.run(ds, validateParams(eeimvc.schema, {}) as EeimvcParams, 5, createRng(0)),
    );
    expect(output.iterations).toBe(fixture.iterations);
    expect(maxRelativeError(output.objective, fixture.objective!)).toBeLessThan(1e-9);
    const beta = output.diagnostics!['beta'] as number[];
    expect(maxRelativeError(beta, fixture.raw['beta'] as number[])).toBeLessThan(1e-9);
    const checks = fixture.raw['checks'] as {
      H_normalized_colsums: number[];
      H_normalized_singular_values: number[];
    };
    const H = output.embedding;
    expect(
      maxRelativeError(Array.from(thinSvd(H).s), checks.H_normalized_singular_values),
    ).toBeLessThan(1e-9);
    const sums = new Array<number>(H.cols).fill(0);
    for (let i = 0; i < H.rows; i++)
      for (let j = 0; j < H.cols; j++) sums[j]! += H.data[i * H.cols + j]!;
    const scale = Math.max(...checks.H_normalized_colsums.map(Math.abs));
    sums.forEach((s, j) => {
      expect(Math.abs(s - checks.H_normalized_colsums[j]!) / scale, `column ${j + 1}`).toBeLessThan(
        1e-9,
      );
    });
  });

  referenceSuite(eeimvc, incompleteReference, {
    title: 'the fixed-start fixture under the CBG protocol: trace to 1e-9, metrics both ways',
    select: (run) => run === fixture,
    expectedRuns: 1,
    name: (run) => `${run.file}: ${run.method}`,
    params: () => ({ lambda: 1, qnorm: 2 }),
    protocol: CBG_PROTOCOL,
    objective: { relative: 1e-9 },
    metrics: { names: METRIC_NAMES, band },
    timeout: 300_000,
  });

  referenceSuite(eeimvc, incompleteReference, {
    title:
      'the ARPACK-sign runs under the CBG protocol: never below the recorded metrics by the band',
    select: (run) => run.method === 'EEIMVC',
    expectedRuns: 6,
    name: (run) => `${run.file}: ${run.method}`,
    params: () => ({}),
    protocol: CBG_PROTOCOL,
    check: (result, run) => expectMetricsInBand(result.metrics, run, run.file, true),
    timeout: 300_000,
  });
});
