/**
 * flsd: a hand-checkable toy (three separated blobs seen through two incomplete views), the
 * fixed start's formulas by hand, identities of the iteration (orthonormal U_v, the objective
 * recomputed from its parts, CSR views giving the dense trace), and the errors bad input gets.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/core/protocol';
import { csrFromDense } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { createRng } from '../../../../src/core/random';
import { dctStart, flsd, flsdIterate, flsdViews } from '../../../../src/core/solvers/flsd';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { blobs, dataset, denseView, drain, without } from '../../../helpers/toy';

/**
 * Three blobs of 20 near the axes e_1, e_2, e_3 of R³ (jitter ±0.1 from `blobs`); view b sees
 * them on the axes in another order; 5 samples missing from each view.
 */
function toy() {
  const { points, truth } = blobs(20, 3);
  const row = (i: number, axis: number) => {
    const r = [0.1 * (points[i]![0]! % 1), 0.1 * (points[i]![1]! % 1), 0];
    r[axis]! += 1;
    return r;
  };
  const presentA = without(60, [1, 5, 22, 40, 41]);
  const presentB = without(60, [0, 7, 23, 24, 50]);
  const a = presentA.map((i) => row(i, truth[i]!));
  const b = presentB.map((i) => row(i, (truth[i]! + 1) % 3));
  return {
    ds: dataset(60, [denseView('a', presentA, a), denseView('b', presentB, b)], truth),
    truth,
  };
}

const defaults = validateParams(flsd.schema, {});
const opts = { lambda1: 10, lambda2: 1e-5, r: 3, iterations: 120, tol: 1e-7 };

describe('flsd', () => {
  it('recovers three separated blobs through two incomplete views (ACC 1)', () => {
    // From the fixed start; from random starts the factorisation can stop in a local minimum
    // (seed 4 here: objective 0.21 against 0.072), so the lowest objective of four seeds is
    // the one asserted, as the objective (not the labels) is what tells them apart.
    const { ds } = toy();
    const run = (start: string, seed: number) =>
      drain(
        evaluate(ds, flsd, { ...defaults, start }, 3, { protocol: 'single', seed, replicates: 10 }),
      ).output;
    const fixed = run('dct', 1);
    expect(fixed.metrics['ACC']!.mean).toBe(1);
    const best = [1, 2, 3, 4]
      .map((seed) => run('random', seed))
      .reduce((x, y) => (y.objective.at(-1)! < x.objective.at(-1)! ? y : x));
    expect(best.metrics['ACC']!.mean).toBe(1);
    expect(Math.abs(best.objective.at(-1)! - fixed.objective.at(-1)!)).toBeLessThan(1e-3);
  });

  it('the fixed start by hand: DCT-II rows, Pc(i, j) = ((i + j) mod k + 1)/k', () => {
    const views = flsdViews(
      [
        denseView(
          'x',
          [0, 1, 2],
          [
            [1, 0, 0, 0],
            [0, 1, 0, 0],
            [0, 0, 0.6, 0.8],
          ],
        ),
      ],
      1,
    );
    const { Ut, Pc } = dctStart(views, 3, 3);
    // U row 0 = 1/√4 = 0.5; row 1: √(2/4)·cos(π(2j+1)/8); row 2: √(2/4)·cos(π(2j+1)/4).
    const c = Math.SQRT1_2;
    const expected = [0, 1, 2, 3].map((j) => [
      0.5,
      c * Math.cos((Math.PI * (2 * j + 1)) / 8),
      c * Math.cos((Math.PI * (2 * j + 1)) / 4),
    ]);
    expect(Array.from(Ut[0]!.data)).toEqual(expected.flat());
    // 1-based (1,1): (2 mod 3 + 1)/3 = 1; (1,2): 1/3; (1,3): 2/3; (2,1): 1/3; (2,2): 2/3; (2,3): 1;
    // (3,1): 2/3; (3,2): 1; (3,3): 1/3.
    expect(Array.from(Pc.data)).toEqual([1, 1 / 3, 2 / 3, 1 / 3, 2 / 3, 1, 2 / 3, 1, 1 / 3]);
  });

  it('U_v stays orthonormal, the objective is Σ α_v^r e_v, and CSR views give the dense trace', () => {
    const { ds } = toy();
    const unit = incompleteInput(ds).views;
    const views = flsdViews(unit, 7);
    const start = dctStart(views, ds.n, 2);
    const { output, steps } = drain(flsdIterate(views, start, ds.n, 2, opts));
    for (const U of start.Ut) {
      for (let a = 0; a < 2; a++)
        for (let b = 0; b < 2; b++) {
          let s = 0;
          for (let j = 0; j < U.rows; j++) s += U.data[j * 2 + a]! * U.data[j * 2 + b]!;
          expect(s).toBeCloseTo(a === b ? 1 : 0, 12);
        }
    }
    const last = output.objective.at(-1)!;
    const sum = Array.from(output.errors).reduce((s, e, v) => s + output.alpha[v]! ** 3 * e, 0);
    expect(last).toBeCloseTo(sum, 10);
    expect(output.alpha.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    expect(steps.length).toBe(output.objective.length);
    // The same views as CSR.
    const csr = views.map((v) => ({ ...v, X: csrFromDense(v.X as Mat) }));
    const again = drain(flsdIterate(csr, dctStart(views, ds.n, 2), ds.n, 2, opts)).output;
    expect(again.objective.length).toBe(output.objective.length);
    again.objective.forEach((o, t) => expect(o).toBeCloseTo(output.objective[t]!, 9));
  });

  it('the same seed gives the same embedding; start dct does not read the seed', () => {
    const { ds } = toy();
    const run = (start: string, seed: number) =>
      drain(flsd.run(ds, { ...defaults, start }, 3, createRng(seed))).output.embedding.data;
    expect(run('random', 1)).toEqual(run('random', 1));
    expect(run('dct', 1)).toEqual(run('dct', 2));
  });

  describe('bad input', () => {
    const { ds } = toy();
    it('knn too large for a view, naming it', () => {
      expect(() => drain(flsd.run(ds, { ...defaults, knn: 54 }, 3, createRng(0)))).toThrow(
        /view 'a' \(view 1\) has 55 present samples; its kNN graph with knn = 54 needs at least 56/,
      );
    });
    it("start 'dct' with k above a view's features, naming it", () => {
      expect(() => drain(flsd.run(ds, { ...defaults, start: 'dct' }, 4, createRng(0)))).toThrow(
        /view 'a' \(view 1\) has only 3 features; use start 'random'/,
      );
    });
    it('r must be above 1', () => {
      expect(() => validateParams(flsd.schema, { r: 1 })).toThrow(ParamError);
      expect(() => validateParams(flsd.schema, { r: 1 })).toThrow(/r/);
    });
  });
});
