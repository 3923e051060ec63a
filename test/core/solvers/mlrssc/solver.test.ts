/**
 * The registered MLRSSC methods beyond the reference runs: a hand-checkable toy (two classes in
 * orthogonal subspaces: C, and so Af, stay block diagonal, N has exactly two zero eigenvalues
 * and the labels are the classes), the 'fast' path against the 'dense' one through the solver,
 * the error messages (σ count ≠ V, σ on a non-Gaussian kernel, σ with sigmaScale, λ3 = 0 on the
 * centroid variant, a view whose median distance is 0) and the platform's refusal from the
 * declared footprint, naming the limit and the estimate.
 */
import { describe, expect, it } from 'vitest';
import { estimateMemory } from '../../../../src/backend/estimate';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import {
  kmlrsscCentroid,
  kmlrsscPairwise,
  mlrsscCentroid,
  mlrsscPairwise,
} from '../../../../src/core/solvers/mlrssc';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import type { Solver, SolverOutput, SolverStep } from '../../../../src/core/solvers/types';
import { dataset, denseView, drain } from '../../../helpers/toy';

/**
 * n = 16: samples 0–7 in span(e1, e2), 8–15 in span(e3, e4) (both views, different mixing), so
 * every kernel is block diagonal.
 */
function orthogonalToy() {
  const rng = createRng(3);
  const rows = (d: number) =>
    Array.from({ length: 16 }, (_, i) => {
      const r = new Array<number>(d).fill(0);
      const o = i < 8 ? 0 : 2;
      r[o] = 1 + rng.next();
      r[o + 1] = rng.next() - 0.5;
      return r;
    });
  const present = Array.from({ length: 16 }, (_, i) => i);
  const truth = present.map((i) => (i < 8 ? 0 : 1));
  return dataset(16, [denseView('a', present, rows(4)), denseView('b', present, rows(5))], truth);
}

function solve(s: Solver, params: Record<string, unknown>, k = 2, ds = orthogonalToy()) {
  return drain<SolverStep, SolverOutput>(
    s.run(ds, validateParams(s.schema, params as never), k, createRng(0)),
  );
}

interface Diag {
  affinity: { sum: number };
  smallestEigenvalues: number[];
  residuals: number[][];
}

describe('MLRSSC on two orthogonal subspaces (hand-checkable)', () => {
  it.each([
    ['mlrssc-pairwise', mlrsscPairwise, {}],
    ['mlrssc-centroid', mlrsscCentroid, {}],
    ['kmlrssc-pairwise (linear kernel)', kmlrsscPairwise, { kernel: 'linear' }],
    ['kmlrssc-centroid (polynomial kernel)', kmlrsscCentroid, { kernel: 'polynomial' }],
  ] as const)('%s: N has two zero eigenvalues, then a gap; labels = classes', (_, s, p) => {
    const { output } = solve(s, p);
    const ev = (output.diagnostics as unknown as Diag).smallestEigenvalues;
    expect(ev.length).toBe(3);
    expect(Math.abs(ev[0]!)).toBeLessThan(1e-10);
    expect(Math.abs(ev[1]!)).toBeLessThan(1e-10);
    expect(ev[2]!).toBeGreaterThan(0.1);
    const { output: r } = drain(
      evaluate(orthogonalToy(), s, p as never, 2, { protocol: 'single', seed: 0 }),
    );
    expect(r.metrics['ACC']!.mean).toBe(1);
    // Rows are unit vectors (norm + eps): the embedding of two points per class direction.
    const E = output.embedding;
    for (let i = 0; i < 16; i++) {
      const n2 = E.data[2 * i]! ** 2 + E.data[2 * i + 1]! ** 2;
      expect(Math.abs(n2 - 1)).toBeLessThan(1e-12);
    }
  });
});

describe("the 'fast' path equals the 'dense' path through the solver", () => {
  it.each([
    ['mlrssc-pairwise', mlrsscPairwise],
    ['kmlrssc-centroid', kmlrsscCentroid],
  ] as const)('%s: iterations, residuals, affinity and spectrum', (_, s) => {
    const rng = createRng(9);
    const present = Array.from({ length: 40 }, (_, i) => i);
    const view = (name: string, d: number) =>
      denseView(
        name,
        present,
        present.map(() => Array.from({ length: d }, () => rng.next())),
      );
    const ds = dataset(40, [view('x', 6), view('y', 3)]);
    const a = solve(s, { path: 'fast' }, 3, ds).output;
    const b = solve(s, { path: 'dense' }, 3, ds).output;
    expect(a.iterations).toBe(b.iterations);
    const da = a.diagnostics as unknown as Diag;
    const db = b.diagnostics as unknown as Diag;
    const rel = (x: number, y: number) => Math.abs(x - y) / Math.abs(y);
    expect(rel(da.affinity.sum, db.affinity.sum)).toBeLessThan(1e-10);
    da.residuals
      .slice(0, 10)
      .forEach((r, t) =>
        r.forEach((x, j) => expect(rel(x, db.residuals[t]![j]!)).toBeLessThan(1e-8)),
      );
    da.smallestEigenvalues
      .slice(1)
      .forEach((x, i) => expect(rel(x, db.smallestEigenvalues[i + 1]!)).toBeLessThan(1e-10));
  });
});

describe('bad input gives an error naming the parameter or view', () => {
  it('σ count ≠ V', () => {
    expect(() => solve(kmlrsscPairwise, { sigma: '1,2,3' })).toThrow(
      /kmlrssc-pairwise: parameter 'sigma' lists 3 width\(s\), but the dataset has 2 views \('a', 'b'\)/,
    );
  });

  it('σ with a kernel other than the Gaussian, or with sigmaScale', () => {
    expect(() => solve(kmlrsscCentroid, { sigma: '1,2', kernel: 'linear' })).toThrow(
      /parameter 'sigma' applies to kernel 'gaussian' only; kernel is 'linear'/,
    );
    expect(() => solve(kmlrsscCentroid, { sigma: '1,2', sigmaScale: 2 })).toThrow(
      /either 'sigma' .* or 'sigmaScale'/,
    );
  });

  it('σ values out of range, or not numbers', () => {
    expect(() => validateParams(kmlrsscPairwise.schema, { sigma: '1,0' })).toThrow(ParamError);
    expect(() => validateParams(kmlrsscPairwise.schema, { sigma: '1,x' })).toThrow(
      /parameter 'sigma' must be a comma-separated list of numbers, one per view, each above 0/,
    );
    expect(validateParams(kmlrsscPairwise.schema, { sigma: '1,2.5' })['sigma']).toEqual([1, 2.5]);
  });

  it('λ3 = 0 on the centroid variants (the centroid update divides by V·λ3)', () => {
    for (const s of [mlrsscCentroid, kmlrsscCentroid]) {
      expect(() => validateParams(s.schema, { lambda3: '0' })).toThrow(
        /parameter 'lambda3' must be a number above 0/,
      );
    }
    expect(validateParams(mlrsscPairwise.schema, { lambda3: '0' })['lambda3']).toBe(0);
  });

  it('a view whose samples mostly coincide (median distance 0) under the median rule', () => {
    const present = Array.from({ length: 10 }, (_, i) => i);
    const ds = dataset(10, [
      denseView(
        'flat',
        present,
        present.map((i) => [i < 8 ? 1 : 2]),
      ),
      denseView(
        'ok',
        present,
        present.map((i) => [i, i * i]),
      ),
    ]);
    expect(() => solve(kmlrsscPairwise, {}, 2, ds)).toThrow(
      /view 'flat': the Gaussian width σ = 0 is unusable .*median .* is 0.*'sigma'/,
    );
  });
});

describe('the footprint: quadratic, and the refusal above the memory limit', () => {
  const GiB = 1024 ** 3;
  const summary = { n: 20_000, views: [100, 200, 50, 10].map((d) => ({ d, present: 20_000 })) };

  it.each([
    // Fast path: 9 per view (no pairwise C2 copies) + 36 shared (12 of them the helper
    // thread's share of the thresholds), for both variants.
    ['mlrssc-pairwise', mlrsscPairwise, 4 * 9 + 36],
    ['kmlrssc-centroid', kmlrsscCentroid, 4 * 9 + 36],
  ] as const)('%s: n × n arrays counted per view, refused above the limit', (_, s, squares) => {
    const params = validateParams(s.schema, {});
    const e = estimateMemory(summary, s, params, 10, 16 * GiB);
    expect(e.quadratic).toBe(true);
    expect(e.methodBytes).toBeGreaterThanOrEqual(squares * 8 * 20_000 ** 2);
    expect(e.methodBytes).toBeLessThan((squares + 1) * 8 * 20_000 ** 2);
    expect(e.warning).toMatch(/dense n × n arrays .* with n = 20,000 \(about [0-9.]+ GiB\)/);
    expect(e.refusal).toMatch(
      new RegExp(
        `^${s.title.replace(/[()]/g, '.')} would need about [0-9.]+ GiB on this dataset .*` +
          `about ${squares} dense n × n arrays.*more than the solver's memory limit of 16 GiB`,
      ),
    );
    // HW's shape (n = 2000, V = 6) fits a 4 GiB worker.
    const hw = { n: 2000, views: [216, 76, 64, 6, 240, 47].map((d) => ({ d, present: 2000 })) };
    expect(estimateMemory(hw, s, params, 10, 4 * GiB).refusal).toBeNull();
  });
});
