/**
 * mkkm-ik against ../shared/reference/baselines-incomplete.json (runs 'MKKM-IK': NGs Per0.1,
 * Per0.5, Per0.9 and BDGP Per0.1, Per0.5, Per0.9; the public code of wangsiwei2010/
 * multiple_kernel_clustering_with_absent_kernel in Octave). MKKM-IK is deterministic given the
 * eigensolver and H enters only through HHᵀ, so every recorded quantity is compared exactly:
 *
 * - the kernels (`kernel_checks`: sum, trace, Frobenius norm and the 6 largest eigenvalues of
 *   each view's centred, normalised observed block) to 1e-9 relative (the sums of the NGs
 *   kernels are ~0.1 after cancelling n_v² entries of ~0.05: 1e-9 of the Frobenius norm);
 * - the objective trace to 1e-9 relative with the same iteration count, the final kernel
 *   weights γ to 1e-9, and the singular values of H with unit rows (`checks.Hn_sv`, which do
 *   not depend on the basis H is given in) to 1e-9;
 * - ACC, NMI and Purity under the CBG protocol (20 seeds × k-means of 20 k-means++ starts, at
 *   most 1000 iterations), |ours − recorded| ≤ max(0.02, 2σ√(2/20)) with σ the recorded std.
 *
 * All six recorded runs run here, with the default (operator) path and the defaults, which are
 * the recorded settings. The solve is done once per file and the protocol clusters that
 * embedding (a deterministic method is solved once by the protocol anyway).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockEig, denseOp } from '../../../../src/core/linalg/blockeig';
import { matmulTA, symEig } from '../../../../src/core/linalg/kernels';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { mkkmIk } from '../../../../src/core/solvers/mkkm-ik';
import { observedKernel } from '../../../../src/core/solvers/mkkm-ik/mkkm-ik';
import { validateParams } from '../../../../src/core/solvers/params';
import type { Solver, SolverOutput } from '../../../../src/core/solvers/types';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import {
  CBG_PROTOCOL,
  expectMetricsInBand,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { maxRelativeError } from '../../../helpers/reference';
import { drain } from '../../../helpers/toy';

const runs = recordedRuns('MKKM-IK');
const TOL = 1e-9;

interface KernelChecks {
  readonly sum: number[];
  readonly trace: number[];
  readonly fro: number[];
  readonly top_eigs: number[][];
}

/** Singular values of Hn (n, k), descending: √ of the eigenvalues of HnᵀHn. */
function singularValues(Hn: SolverOutput['embedding']): number[] {
  return [...symEig(matmulTA(Hn, Hn)).values].map((x) => Math.sqrt(Math.max(0, x))).reverse();
}

describe('mkkm-ik reference (baselines-incomplete.json, MKKM-IK)', () => {
  it('has the 6 recorded runs, all with the default settings', () => {
    expect(runs.map((r) => r.file).sort()).toEqual([
      'BDGP/BDGP_fea_Per0.1.mat',
      'BDGP/BDGP_fea_Per0.5.mat',
      'BDGP/BDGP_fea_Per0.9.mat',
      'NGs/NGs_Per0.1.mat',
      'NGs/NGs_Per0.5.mat',
      'NGs/NGs_Per0.9.mat',
    ]);
    const d = validateParams(mkkmIk.schema, {});
    for (const r of runs) {
      expect(r.params['qnorm']).toBe(d['qnorm']);
      expect(r.params['alpha0']).toBe(d['alpha0']);
      expect(String(r.params['maxIter_rule'])).toContain('iter>30');
    }
    expect(d['iterations']).toBe(31);
    expect(d['tol']).toBe(1e-4);
  });

  for (const run of runs) {
    it(`${run.file}: kernels, trace, weights, H and metrics`, { timeout: 600_000 }, async () => {
      const ds = await loadDataset(join(DATASETS, run.file));
      const input = { n: ds.n, views: ds.views, sampleIds: ds.sampleIds };

      // The kernels of the observed blocks.
      const kc = run.raw['kernel_checks'] as KernelChecks;
      incompleteInput(input).views.forEach((view, v) => {
        const { K } = observedKernel(view, ds.n);
        let sum = 0;
        let tr = 0;
        let fro = 0;
        for (let i = 0; i < K.data.length; i++) {
          sum += K.data[i]!;
          fro += K.data[i]! ** 2;
        }
        for (let i = 0; i < K.rows; i++) tr += K.data[i * K.rows + i]!;
        fro = Math.sqrt(fro);
        expect(Math.abs(sum - kc.sum[v]!) / fro, `view ${v + 1} sum`).toBeLessThan(TOL);
        expect(Math.abs(tr - kc.trace[v]!) / kc.trace[v]!, `view ${v + 1} trace`).toBeLessThan(TOL);
        expect(Math.abs(fro - kc.fro[v]!) / kc.fro[v]!, `view ${v + 1} fro`).toBeLessThan(TOL);
        const top = blockEig(denseOp(K), 6, { tol: 1e-13 }).values;
        expect(
          maxRelativeError([...top], kc.top_eigs[v]!),
          `view ${v + 1} top eigenvalues`,
        ).toBeLessThan(TOL);
      });

      // The solve: trace, weights, H.
      const params = validateParams(mkkmIk.schema, {});
      const { output } = drain(mkkmIk.run(input, params, run.k!, createRng(0)));
      expect(output.iterations).toBe(run.iterations);
      const traceErr = maxRelativeError(output.objective, run.objective!);
      expect(traceErr, 'objective trace').toBeLessThan(TOL);
      const gamma = output.diagnostics!['gamma'] as number[];
      const gammaErr = maxRelativeError(gamma, run.raw['gamma'] as number[]);
      expect(gammaErr, 'γ').toBeLessThan(TOL);
      const sv = singularValues(output.embedding);
      const svErr = maxRelativeError(sv, (run.checks['checks'] as { Hn_sv: number[] }).Hn_sv);
      expect(svErr, 'singular values of H with unit rows').toBeLessThan(TOL);

      // The CBG protocol on that embedding.
      const solved: Solver = {
        ...mkkmIk,
        // eslint-disable-next-line require-yield
        *run() {
          return output;
        },
      };
      const { output: result } = drain(evaluate(ds, solved, {}, run.k!, CBG_PROTOCOL));
      console.log(
        `${run.file}: trace ${traceErr.toExponential(1)}, γ ${gammaErr.toExponential(1)}, ` +
          `Hn_sv ${svErr.toExponential(1)}`,
      );
      expectMetricsInBand(result.metrics, run, run.file);
    });
  }
});
