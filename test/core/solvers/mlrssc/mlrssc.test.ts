/**
 * The MLRSSC iteration against the Octave reference (shared/reference/baselines-graph.json,
 * 3Sources with the published linear parameters, pairwise and centroid): the kernel checks,
 * μ and the four residuals per iteration, the iteration count, C2's support and norm, C1's
 * rank and the affinity; and the fast (one eigendecomposition) path against the dense
 * (Cholesky per iteration) path on a toy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Mat } from '../../../../src/core/linalg/types';
import { linearKernel } from '../../../../src/core/kernels/gram';
import { denseValues } from '../../../../src/core/solvers/complete';
import {
  gaussianFromDistances,
  referenceSquaredDistances,
} from '../../../../src/core/kernels/reference';
import {
  affinity,
  mlrssc,
  mlrsscSteps,
  type MlrsscIteration,
  type MlrsscOptions,
} from '../../../../src/core/solvers/mlrssc/mlrssc';
import { createRng } from '../../../../src/core/random';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS, SHARED } from '../../../helpers/paths';
import { codeDefaults } from './options';

interface Run {
  method: string;
  file: string;
  iterations: number;
  params: {
    sigma?: number[];
    lambda: number[];
    mu0: number;
    max_mu: number;
    rho: number;
    num_iter: number;
    err_thr: number;
  };
  mu_trace: number[];
  independent_check?: {
    max_rel_residual_diff_first_10: number;
    max_rel_residual_diff_all: number;
  };
  residual_trace: Record<string, number[]>;
  kernel_check: { K_trace: number[]; K_fro: number[]; K_sum: number[] };
  final_check: {
    C2_fro_per_view: number[];
    C2_nnz_per_view: number[];
    C1_rank_per_view: number[];
    affinity_sum: number;
    affinity_fro: number;
    affinity_nnz: number;
  };
}

const runs = (
  JSON.parse(readFileSync(join(SHARED, 'reference/baselines-graph.json'), 'utf8')) as {
    runs: Run[];
  }
).runs;

const fro = (m: Mat): number => Math.sqrt(m.data.reduce((s, x) => s + x * x, 0));
const sum = (m: Mat): number => m.data.reduce((s, x) => s + x, 0);
const nnz = (m: Mat): number => m.data.reduce((s, x) => s + (x !== 0 ? 1 : 0), 0);
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

function options(run: Run, variant: 'pairwise' | 'centroid'): MlrsscOptions {
  const p = run.params;
  return {
    variant,
    lambda1: p.lambda[0]!,
    lambda2: p.lambda[1]!,
    lambda3: p.lambda[2]!,
    mu0: p.mu0,
    maxMu: p.max_mu,
    rho: p.rho,
    iterations: p.num_iter,
    tolerance: p.err_thr,
    path: 'fast',
  };
}

describe.each([
  ['MLRSSC-pairwise', 'pairwise'],
  ['MLRSSC-centroid', 'centroid'],
  ['KMLRSSC-pairwise', 'pairwise'],
  ['KMLRSSC-centroid', 'centroid'],
] as const)('%s on 3Sources (published parameters)', (method, variant) => {
  const run = runs.find((r) => r.method === method && r.file.includes('3Sources'))!;
  it('matches the reference kernels, μ, residuals, iteration count and final checks', async () => {
    const ds = await loadDataset(join(DATASETS, 'CGL-benchmark/3Sources.mat'));
    const sigma = run.params.sigma;
    const K = ds.views.map((view, v) => {
      const X = denseValues(view, ds.n);
      return sigma
        ? gaussianFromDistances(referenceSquaredDistances(X), sigma[v]!)
        : linearKernel(X);
    });
    K.forEach((k, v) => {
      let tr = 0;
      for (let i = 0; i < ds.n; i++) tr += k.data[i * ds.n + i]!;
      expect(rel(tr, run.kernel_check.K_trace[v]!)).toBeLessThan(1e-12);
      expect(rel(fro(k), run.kernel_check.K_fro[v]!)).toBeLessThan(1e-10);
      expect(rel(sum(k), run.kernel_check.K_sum[v]!)).toBeLessThan(1e-10);
    });
    const out = mlrssc(K, options(run, variant));
    expect(out.iterations).toBe(run.iterations);
    expect(out.converged).toBe(true);
    const keys = [
      'max_abs_A_minus_C1',
      'max_abs_A_minus_C2',
      'max_abs_A_minus_C3',
      'max_abs_A_minus_Aprev',
    ];
    for (let t = 0; t < out.iterations; t++) {
      expect(rel(out.mu[t]!, run.mu_trace[t]!)).toBeLessThan(1e-12);
      // The spec's Fragile line: 1e-9 relative over the first 10 iterations, 2e-5 later, or
      // twice what the fixture's independent numpy port reached when that is wider (the
      // nearly all-ones Gaussian kernels of 3Sources: 1e-8).
      const ic = run.independent_check;
      const early = Math.max(1e-9, 2 * (ic?.max_rel_residual_diff_first_10 ?? 0));
      const tol = t < 10 ? early : Math.max(2e-5, 2 * (ic?.max_rel_residual_diff_all ?? 0));
      keys.forEach((key, j) => {
        expect(rel(out.residuals[t]![j]!, run.residual_trace[key]![t]!)).toBeLessThan(tol);
      });
    }
    const f = run.final_check;
    out.C2.forEach((c2, v) => {
      expect(rel(fro(c2), f.C2_fro_per_view[v]!)).toBeLessThan(1e-9);
      expect(nnz(c2)).toBe(f.C2_nnz_per_view[v]);
      expect(out.rankC1[v]).toBe(f.C1_rank_per_view[v]);
    });
    const Af = affinity(out.C);
    expect(rel(sum(Af), f.affinity_sum)).toBeLessThan(1e-9);
    expect(rel(fro(Af), f.affinity_fro)).toBeLessThan(1e-9);
    expect(nnz(Af)).toBe(f.affinity_nnz);
  }, 120_000);
});

describe('fast path = dense path', () => {
  it.each(['pairwise', 'centroid'] as const)('%s on a random toy (n = 30, V = 2)', (variant) => {
    const rng = createRng(7);
    const n = 30;
    const K = [4, 6].map((d) => {
      const X: Mat = {
        rows: n,
        cols: d,
        data: Float64Array.from({ length: n * d }, () => rng.next()),
      };
      return linearKernel(X);
    });
    const o = codeDefaults(variant, 30);
    const a = mlrssc(K, o);
    const b = mlrssc(K, { ...o, path: 'dense' });
    expect(a.iterations).toBe(b.iterations);
    let err = 0;
    for (let i = 0; i < n * n; i++) err = Math.max(err, Math.abs(a.C.data[i]! - b.C.data[i]!));
    expect(err).toBeLessThan(1e-10 * Math.max(1, ...b.C.data.map(Math.abs)));
    expect(a.residuals.length).toBe(b.residuals.length);
  });
});

describe('mlrsscSteps', () => {
  it.each(['fast', 'dense'] as const)(
    '%s: one record per iteration, computed when asked for, equal to the traces',
    (path) => {
      const rng = createRng(3);
      const n = 20;
      const X: Mat = {
        rows: n,
        cols: 5,
        data: Float64Array.from({ length: n * 5 }, () => rng.next()),
      };
      const K0 = linearKernel(X);
      // The iteration reads each kernel once per iteration (the right-hand side of A's system):
      // counting those reads tells how many iterations have run.
      let reads = 0;
      const counted = (): Mat => ({
        rows: n,
        cols: n,
        get data() {
          reads++;
          return K0.data;
        },
      });
      const o = codeDefaults('pairwise', 12, { tolerance: 1e-300, path });
      const steps = mlrsscSteps([counted(), counted()], o);
      const first = steps.next();
      expect(first.done).toBe(false);
      const afterOne = reads;
      const records = [first.value as MlrsscIteration];
      let r = steps.next();
      const afterTwo = reads;
      while (!r.done) {
        records.push(r.value);
        r = steps.next();
      }
      // Every iteration past the first reads the kernels again (not all done up front).
      expect(afterTwo).toBeGreaterThan(afterOne);
      expect(reads - afterTwo).toBeGreaterThanOrEqual(2 * 10);
      const result = r.value;
      expect(records.map((s) => s.iteration)).toEqual(
        Array.from({ length: result.iterations }, (_, t) => t + 1),
      );
      expect(records.map((s) => s.mu)).toEqual(result.mu);
      expect(records.map((s) => s.residuals)).toEqual(result.residuals);
      // And the run to the end gives the same numbers.
      const whole = mlrssc([K0, K0], o);
      expect(whole.residuals).toEqual(result.residuals);
      expect(Array.from(whole.C.data)).toEqual(Array.from(result.C.data));
      // A caller that stops after the first step ends the run there.
      const stopped = mlrsscSteps([K0, K0], o);
      stopped.next();
      expect(stopped.return(undefined as never).done).toBe(true);
    },
  );
});
