/**
 * The reference Gaussian kernels (construct_kernel.m / opt_sigma.m) against the Octave fixture
 * (KMLRSSC-centroid on 3Sources: opt_sigma per view and the trace/sum/Frobenius of K at the
 * published multipliers), and a hand-checked toy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { denseValues } from '../../../../src/core/solvers/complete';
import {
  gaussianFromDistances,
  optSigma,
  referenceSquaredDistances,
} from '../../../../src/core/kernels/reference';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS, SHARED } from '../../../helpers/paths';

interface Run {
  method: string;
  file: string;
  params: { sigma: number[]; opt_sigma: number[] };
  kernel_check: { K_trace: number[]; K_fro: number[]; K_sum: number[] };
}

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

describe('reference Gaussian kernel', () => {
  it('toy: three points on a line', () => {
    const D = referenceSquaredDistances({ rows: 3, cols: 1, data: Float64Array.from([0, 1, 3]) });
    expect(Array.from(D.data)).toEqual([0, 1, 9, 1, 0, 4, 9, 4, 0]);
    // distances 0,1,3,1,0,2,3,2,0 sorted: 0,0,0,1,1,2,2,3,3 → median 1
    expect(optSigma(D)).toBe(1);
    const K = gaussianFromDistances(D, 1);
    expect(K.data[1]).toBeCloseTo(Math.exp(-0.5), 15);
  });

  it('3Sources: opt_sigma and K checks of the KMLRSSC-centroid fixture', async () => {
    const runs = (
      JSON.parse(readFileSync(join(SHARED, 'reference/baselines-graph.json'), 'utf8')) as {
        runs: Run[];
      }
    ).runs;
    const run = runs.find((r) => r.method === 'KMLRSSC-centroid' && r.file.includes('3Sources'))!;
    const ds = await loadDataset(join(DATASETS, 'CGL-benchmark/3Sources.mat'));
    ds.views.forEach((view, v) => {
      const D = referenceSquaredDistances(denseValues(view, ds.n));
      expect(rel(optSigma(D), run.params.opt_sigma[v]!)).toBeLessThan(1e-12);
      const K = gaussianFromDistances(D, run.params.sigma[v]!);
      let tr = 0;
      let s = 0;
      let f = 0;
      for (let i = 0; i < ds.n; i++) tr += K.data[i * ds.n + i]!;
      for (const x of K.data) {
        s += x;
        f += x * x;
      }
      expect(rel(tr, run.kernel_check.K_trace[v]!)).toBeLessThan(1e-12);
      expect(rel(s, run.kernel_check.K_sum[v]!)).toBeLessThan(1e-10);
      expect(rel(Math.sqrt(f), run.kernel_check.K_fro[v]!)).toBeLessThan(1e-10);
    });
  });
});
