/**
 * mic: the registration and parameters, the objective of a start by hand, a toy of three
 * non-negative classes seen through two incomplete views (recovered exactly), the missing-data
 * convention (mean fill, weights n_v / n), the negatives rule, and the messages for bad input.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../../src/core/dataset';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { mic, micInput, micSettings, micSteps } from '../../../../src/core/solvers/mic';
import type { MicParams } from '../../../../src/core/solvers/mic';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import { dataset, denseView, drain, without } from '../../../helpers/toy';

const params = (raw: Record<string, number | string | number[]> = {}): MicParams =>
  validateParams(mic.schema, raw) as unknown as MicParams;

/** Three classes of 10; view 1 (d = 6) marks class c on features 2c, 2c+1; view 2 (d = 3) on c. */
function toy(): { views: [View, View]; truth: number[] } {
  const rng = createRng(3);
  const truth = Array.from({ length: 30 }, (_, i) => Math.floor(i / 10));
  const row = (d: number, on: number[]): number[] =>
    Array.from({ length: d }, (_, j) => (on.includes(j) ? 1 : 0) + 0.05 * rng.next());
  const p1 = without(30, [1, 12, 25, 26]);
  const p2 = without(30, [0, 5, 11, 20, 27]);
  const v1 = denseView(
    'one',
    p1,
    p1.map((i) => row(6, [2 * truth[i]!, 2 * truth[i]! + 1])),
  );
  const v2 = denseView(
    'two',
    p2,
    p2.map((i) => row(3, [truth[i]!])),
  );
  return { views: [v1, v2], truth };
}

describe('mic parameters', () => {
  it('defaults are the recorded reference settings, and it is registered', () => {
    expect(params()).toEqual({
      iterations: 30,
      innerIterations: 100,
      alpha: 0.01,
      beta: 1e4,
      alphaPerView: null,
      betaPerView: null,
      missingWeight: null,
      passes: 3,
      restarts: 30,
      restartIter: 50,
      refineIter: 100,
      negatives: 'shift',
    });
    expect(getSolver('mic')).toBe(mic);
    expect(mic.input).toBe('incomplete');
    expect(
      mic.footprint({ n: 50_000, dims: [50, 50], present: [40_000, 40_000], k: 10 }, params())
        .quadratic,
    ).toBe(false);
  });

  it('names the parameter and its bounds', () => {
    expect(() => params({ alpha: 0 })).toThrow(/parameter 'alpha' must be .*above 0/);
    expect(() => params({ iterations: 0 })).toThrow(
      "parameter 'iterations' must be an integer from 1 to 1000; got 0",
    );
    expect(() => params({ lambda: 1 })).toThrow(ParamError);
  });
});

describe('mic input convention and objective', () => {
  it('mean fill and weights n_v / n; the objective of a given start by hand', () => {
    // One view, n = 3: samples 0, 1 present, (2, 0) → (1, 0) and (0, 3) → (0, 1); sample 2
    // missing → the mean (0.5, 0.5), weight 2/3. Start U = (1, 1, 1)ᵀ, V = (0.5, 0.5)ᵀ: the
    // residuals are (0.5, −0.5), (−0.5, 0.5) and 0, so the fit is 1; U* = U (one view), so the
    // α term is 0; β·‖U[:, 0]‖ = β·√3.
    const ds = dataset(3, [
      denseView(
        'v',
        [0, 1],
        [
          [2, 0],
          [0, 3],
        ],
      ),
    ]);
    const p = params({ beta: 0.01, iterations: 1 });
    const { ops } = micInput(ds, p);
    expect(Array.from(ops[0]!.mean)).toEqual([0.5, 0.5]);
    const s = micSettings(p, 3, [2]);
    expect(s.missingWeight).toEqual([2 / 3]);
    const start = {
      coef: [{ rows: 3, cols: 1, data: Float64Array.from([1, 1, 1]) }],
      basis: [{ rows: 2, cols: 1, data: Float64Array.from([0.5, 0.5]) }],
    };
    const { output } = drain(micSteps(ops, 1, s, { start }));
    expect(output.objective).toHaveLength(1);
    expect(output.objective[0]).toBeCloseTo(1 + 0.01 * Math.sqrt(3), 14);
    expect(Array.from(output.consensus.data)).toEqual([1, 1, 1]);
  });

  it('the consensus is the weighted row average of the views (two views, hand values)', () => {
    // Sample 0 in both views (weights 1, 1); sample 1 only in view 1 (view 2 weight 1/2).
    const ds = dataset(2, [denseView('a', [0, 1], [[1], [1]]), denseView('b', [0], [[1]])]);
    const p = params({ iterations: 1, alphaPerView: [1, 3] });
    const { ops } = micInput(ds, p);
    const s = micSettings(p, 2, [2, 1]);
    const start = {
      coef: [
        { rows: 2, cols: 1, data: Float64Array.from([2, 2]) },
        { rows: 2, cols: 1, data: Float64Array.from([4, 4]) },
      ],
      basis: [1, 1].map(() => ({ rows: 1, cols: 1, data: Float64Array.from([1]) })),
    };
    const { output } = drain(micSteps(ops, 1, s, { start }));
    // Row 0: (1·2 + 3·4) / 4 = 3.5; row 1: (1·2 + 3·¼·4) / (1 + ¾) = 5 / 1.75.
    expect(output.consensus.data[0]).toBeCloseTo(3.5, 14);
    expect(output.consensus.data[1]).toBeCloseTo(5 / 1.75, 14);
  });
});

describe('mic on a toy', () => {
  it('recovers three classes through two incomplete views (β = 0.01)', () => {
    const { views, truth } = toy();
    const ds = dataset(30, views, truth);
    const p = { beta: 0.01, restarts: 3, iterations: 10, innerIterations: 30 };
    const { output } = drain(evaluate(ds, mic, p, 3, { protocol: 'single', seed: 1 }));
    expect(output.metrics['ACC']!.mean).toBe(1);
    expect(output.iterations).toBe(10);
    expect(output.notes.join('\n')).toMatch(/weighted 0\.8667, 0\.8333/);
  });

  it('the same seed gives the same U*, another seed another start', () => {
    const { views } = toy();
    const ds = dataset(30, views);
    const p = params({ beta: 0.01, restarts: 2, iterations: 3, innerIterations: 5 });
    const run = (seed: number) => drain(mic.run(ds, p, 3, createRng(seed))).output.embedding.data;
    expect(run(4)).toEqual(run(4));
    expect(run(4)).not.toEqual(run(5));
  });
});

describe('mic negatives and bad input', () => {
  const { views } = toy();
  const negative: View = denseView(
    'signed',
    [0, 1, 2],
    [
      [1, -2],
      [0, 1],
      [3, 0],
    ],
  );

  it("'shift' moves each feature by minus its smallest value and says so", () => {
    const ds = dataset(30, [views[0], { ...negative, present: Int32Array.from([0, 1, 2]) }]);
    const { ops, shifted } = micInput(ds, params());
    expect(shifted).toEqual([0, 1]);
    // Unit rows (1, −2)/√5, (0, 1), (1, 0); feature 2 shifted by 2/√5, feature 1 unchanged.
    const x = ops[1]!.view.values.data;
    expect(x[1]).toBeCloseTo(0, 15);
    expect(x[3]).toBeCloseTo(1 + 2 / Math.sqrt(5), 15);
    const out = drain(
      mic.run(ds, params({ iterations: 2, restarts: 2, innerIterations: 3 }), 3, createRng(0)),
    );
    expect(out.output.notes.join('\n')).toMatch(/view 'signed' has negative values: 1 feature/);
  });

  it("'refuse' names the view", () => {
    const ds = dataset(30, [views[0], negative]);
    expect(() => micInput(ds, params({ negatives: 'refuse' }))).toThrow(
      /mic: view 'signed' has negative values/,
    );
  });

  it('a per-view list of the wrong length, and an empty view, are named', () => {
    const ds = dataset(30, views);
    expect(() => micInput(ds, params({ betaPerView: [1, 2, 3] }))).toThrow(
      "mic: parameter 'betaPerView' has 3 values, but the dataset has 2 views",
    );
    const empty = denseView('void', [], []);
    expect(() => micInput(dataset(30, [views[0], { ...empty, d: 2 }]), params())).toThrow(
      /mic: view 'void' \(view 2\) is empty/,
    );
  });
});
