/**
 * The fast MLRSSC path (inverse from one eigendecomposition per kernel, cached once μ is final;
 * the thin Woodbury route for K = X·Xᵀ; the running prefix for the pairwise sum; the Gram-route
 * threshold, the default, and the SVD for every threshold) against the dense reference path (Cholesky of K + 3μI and a full SVD in
 * every iteration): the same iteration count, μ trace, C1 ranks and residual traces to 1e-9
 * relative early and the spec's fragile bound late (see `expectClose`), on a toy and on MSRC-v1
 * (linear, code default, first 30 iterations: μ reaches maxMu at iteration 24, so the cached
 * inverse is exercised) and ORL (Gaussian, all 5
 * iterations). The helper's threshold task against `thresholdInto` on the same arguments, and
 * its stop flag. And the footprint count against a hand count.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Mat } from '../../../../src/core/linalg/types';
import { linearKernel } from '../../../../src/core/kernels/gram';
import {
  gaussianFromDistances,
  optSigma,
  referenceSquaredDistances,
} from '../../../../src/core/kernels/reference';
import { denseValues } from '../../../../src/core/solvers/complete';
import { mlrsscWorkingDoubles } from '../../../../src/core/solvers/mlrssc/footprint';
import {
  endTask,
  mlrssc,
  thresholdInto,
  thresholdsTask,
  type MlrsscResult,
  type ThresholdsTaskInput,
} from '../../../../src/core/solvers/mlrssc/mlrssc';
import { svtGramWork } from '../../../../src/core/prox/svt-gram';
import { createRng } from '../../../../src/core/random';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { codeDefaults } from './options';

/**
 * Iteration count, convergence, μ and ranks equal; returns the largest relative difference of the
 * residual traces over the first `early` iterations and over the rest.
 */
function compare(a: MlrsscResult, b: MlrsscResult, early = 10): [number, number] {
  expect(a.iterations).toBe(b.iterations);
  expect(a.converged).toBe(b.converged);
  expect(a.mu).toEqual(b.mu);
  expect(a.rankC1).toEqual(b.rankC1);
  const err: [number, number] = [0, 0];
  // Relative to the entry, floored at 1e-6 of that residual's largest value over the run (a
  // residual that has fallen to rounding level carries only absolute rounding).
  const top = [0, 1, 2, 3].map((j) => Math.max(...b.residuals.map((r) => Math.abs(r[j]!))));
  a.residuals.forEach((r, t) =>
    r.forEach((x, j) => {
      const k = t < early ? 0 : 1;
      const y = b.residuals[t]![j]!;
      err[k] = Math.max(err[k], Math.abs(x - y) / Math.max(Math.abs(y), 1e-6 * top[j]!, 1e-300));
    }),
  );
  return err;
}

/**
 * The spec's Fragile line: the late residuals are differences of nearly equal matrices whose
 * rounding grows from iteration to iteration (measured here: 1e-11..1.5e-9 over the first 10
 * iterations, up to 2e-7 by iteration 30 on MSRC-v1, for the full and the thin route alike; the
 * fixture's numpy port reached 1.5e-9 and 2e-5). So: 2e-9 over the first 10 iterations, 2e-5
 * after, and the decisions (iteration count, ranks) exactly.
 */
function expectClose(a: MlrsscResult, b: MlrsscResult): void {
  const [early, late] = compare(a, b);
  expect(early).toBeLessThan(2e-9);
  expect(late).toBeLessThan(2e-5);
}

function toyViews(n: number, dims: readonly number[], seed: number): Mat[] {
  const rng = createRng(seed);
  return dims.map((d) => ({
    rows: n,
    cols: d,
    data: Float64Array.from({ length: n * d }, () => rng.next()),
  }));
}

describe('fast MLRSSC = dense MLRSSC', () => {
  it.each(['pairwise', 'centroid'] as const)(
    '%s toy (n = 30, V = 3, d = 4, 6, 40): full, thin (Woodbury) and Gram routes',
    (variant) => {
      const X = toyViews(30, [4, 6, 40], 11);
      const K = X.map((x) => linearKernel(x));
      // A tolerance no run meets, so all 27 iterations run, past μ = maxMu (iteration 24):
      // the cached inverse is exercised.
      const o = { ...codeDefaults(variant, 27), tolerance: 1e-300 };
      const dense = mlrssc(K, { ...o, path: 'dense' });
      expect(dense.iterations).toBe(27);
      expectClose(mlrssc(K, { ...o, svt: 'svd' }), dense);
      expectClose(mlrssc(K, { ...o, svt: 'svd', factors: X }), dense);
      const gram = mlrssc(K, o); // the default route
      expect(gram.svdFallbacks).toBeLessThan(gram.iterations * 3); // the Gram route did run
      expectClose(gram, dense);
    },
  );

  it(
    'MSRC-v1, linear pairwise, code default, first 30 iterations',
    { timeout: 300_000 },
    async () => {
      const ds = await loadDataset(join(DATASETS, 'MSRC-v1/MSRC.mat'));
      const X = ds.views.map((view) => denseValues(view, ds.n));
      const K = X.map((x) => linearKernel(x));
      const o = codeDefaults('pairwise', 30);
      const dense = mlrssc(K, { ...o, path: 'dense' });
      expectClose(mlrssc(K, { ...o, factors: X }), dense);
    },
  );

  it('ORL, Gaussian (σ = opt_sigma) centroid, to convergence', { timeout: 300_000 }, async () => {
    const ds = await loadDataset(join(DATASETS, 'ORL/ORL.mat'));
    const K = ds.views.map((view) => {
      const D = referenceSquaredDistances(denseValues(view, ds.n));
      return gaussianFromDistances(D, optSigma(D));
    });
    const o = codeDefaults('centroid', 100);
    const dense = mlrssc(K, { ...o, path: 'dense' });
    expect(dense.converged).toBe(true);
    expectClose(mlrssc(K, o), dense);
  });
});

describe('mlrsscWorkingDoubles', () => {
  it('counts 9 (n, n) arrays per view, 12 shared and 9 more with a helper', () => {
    expect(mlrsscWorkingDoubles(10, 2, 'pairwise', false)).toBe(2 * (900 + 20) + 1200 + 40);
    expect(mlrsscWorkingDoubles(10, 2, 'pairwise', true)).toBe(2 * (900 + 20) + 1200 + 40 + 910);
    expect(mlrsscWorkingDoubles(10, 1, 'pairwise', true)).toBe(920 + 1240);
    expect(mlrsscWorkingDoubles(2000, 6, 'centroid', true)).toBe(
      6 * (9 * 4e6 + 4000) + 12 * 4e6 + 8000 + 9 * 4e6 + 2000,
    );
  });
});

describe('thresholdsTask (the helper share of an iteration)', () => {
  const n = 12;
  const V = 3;
  const rng = createRng(4);
  const square = (): Float64Array => Float64Array.from({ length: n * n }, () => rng.normal());
  const a = [square(), square(), square()];
  const l3 = [square(), square(), square()];
  const input = (sync: Int32Array, c1: Float64Array[]): ThresholdsTaskInput => ({
    n,
    mu: 2,
    tau: 1.5,
    nextTau: 1.2,
    a,
    l3,
    c1,
    gram: [true, false, true],
    gramRoute: true,
    order: [0, 2],
    sync,
  });

  it('thresholds every listed view once it is prepared: A + Λ3/μ, as thresholdInto', () => {
    const c1 = [0, 1, 2].map(() => new Float64Array(n * n));
    const sync = new Int32Array(new SharedArrayBuffer(12));
    sync[1] = V;
    const out = thresholdsTask(input(sync, c1));
    endTask();
    expect(out.map(([v]) => v)).toEqual([0, 2]);
    expect(Array.from(c1[1]!)).toEqual(new Array<number>(n * n).fill(0));
    for (const [v, o] of out) {
      const x = Float64Array.from(a[v]!, (e, i) => e + l3[v]![i]! / 2);
      const ref = new Float64Array(n * n);
      const r = thresholdInto(
        { rows: n, cols: n, data: x },
        1.5,
        1.2,
        v !== 1,
        svtGramWork(n),
        { rows: n, cols: n, data: ref },
        new Float64Array(n),
      );
      expect(o).toEqual(r);
      expect(o.rank).toBeGreaterThan(0);
      expect(Array.from(c1[v]!)).toEqual(Array.from(ref));
    }
  });

  it('returns what it has done, without waiting, once the stop flag is set', () => {
    const c1 = [0, 1, 2].map(() => new Float64Array(n * n));
    const sync = new Int32Array(new SharedArrayBuffer(12));
    sync[1] = 1; // view 0 prepared, view 2 never will be
    sync[2] = 1;
    expect(thresholdsTask(input(sync, c1))).toEqual([]);
    sync[2] = 0;
    sync[0] = 0;
    // Without the flag the task would sleep on view 2; with view 0 only, it stops after it.
    const first = thresholdsTask({ ...input(sync, c1), order: [0] });
    endTask();
    expect(first.map(([v]) => v)).toEqual([0]);
  });
});
