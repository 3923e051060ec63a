/**
 * bsv-kmeans: parameters and their errors, the total sum of squares by hand, the label-free
 * choice of a clean view over a noise view (toy blobs seen through two incomplete views), the
 * forced view (its embedding the normalised, mean-filled view, checked by hand), the steps the
 * generator yields, and the messages for bad input.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { bsvKmeans, totalSumOfSquares } from '../../../../src/core/solvers/bsv-kmeans';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { Params } from '../../../../src/core/solvers/types';
import { blobs, dataset, denseView, drain, pick, without } from '../../../helpers/toy';

const params = (raw: Record<string, number | string> = {}): Params =>
  validateParams(bsvKmeans.schema, raw);

describe('bsv-kmeans parameters', () => {
  it('has label-free defaults and is registered', () => {
    expect(params()).toEqual({ criterion: 'sse-ratio', view: 1, replicates: 20, iterations: 1000 });
    expect(getSolver('bsv-kmeans')).toBe(bsvKmeans);
    expect(bsvKmeans.input).toBe('incomplete');
    expect(bsvKmeans.deterministic).toBe(false);
  });

  it('names the parameter and its allowed values', () => {
    expect(() => params({ criterion: 'oracle' })).toThrow(
      "parameter 'criterion' must be one of 'sse-ratio', 'view'; got \"oracle\"",
    );
    expect(() => params({ replicates: 0 })).toThrow(
      "parameter 'replicates' must be an integer from 1 to 100; got 0",
    );
    expect(() => params({ neighbors: 5 })).toThrow(ParamError);
  });
});

describe('total sum of squares', () => {
  it('is Σ‖x_i − x̄‖² (hand example)', () => {
    // Mean (2, 1); deviations (−1, −1), (1, −1), (0, 2): 2 + 2 + 4 = 8.
    const X = { rows: 3, cols: 2, data: Float64Array.from([1, 0, 3, 0, 2, 3]) };
    expect(totalSumOfSquares(X)).toBe(8);
    expect(totalSumOfSquares({ rows: 0, cols: 2, data: new Float64Array(0) })).toBe(0);
  });
});

// Three blobs shifted to (20, 20), (30, 20), (20, 30): after the unit-L2 scaling they are three
// directions ~11° apart with jitter ~1°. The noise view is uniform in [0, 1)³.
const per = 20;
const { points, truth } = blobs(per);
const shifted = points.map(([x, y]) => [x! + 20, y! + 20]);
const n = 3 * per;
const noiseRng = createRng(99);
const noise = Array.from({ length: n }, () => [noiseRng.next(), noiseRng.next(), noiseRng.next()]);
const cleanPresent = without(n, [3, 25, 47]);
const noisePresent = without(n, [0, 1, 30]);
const toy = dataset(
  n,
  [
    denseView('noise', noisePresent, pick(noise, noisePresent)),
    denseView('clean', cleanPresent, pick(shifted, cleanPresent)),
  ],
  truth,
);

describe('bsv-kmeans on a toy', () => {
  it('chooses the clean view without labels and the protocol recovers the blobs', () => {
    const { steps, output } = drain(bsvKmeans.run(toy, params(), 3, createRng(1)));
    expect(steps.map((s) => [s.stage, s.iteration])).toEqual([
      ['prepare', 0],
      ['select', 1],
      ['select', 2],
    ]);
    const d = output.diagnostics as { chosenView: number; sseRatio: number[] };
    expect(d.chosenView).toBe(2);
    expect(d.sseRatio[1]!).toBeLessThan(0.1);
    expect(d.sseRatio[0]!).toBeGreaterThan(0.2);
    expect(output.notes[0]).toMatch(/^view 2 of 2 \('clean'\) chosen without labels/);
    expect(output.notes[1]).toContain('missing per view: 3, 3 of 60');
    expect([output.embedding.rows, output.embedding.cols]).toEqual([n, 2]);
    const { output: result } = drain(
      evaluate(toy, bsvKmeans, params(), 3, { protocol: 'single', seed: 0, replicates: 5 }),
    );
    // The three samples missing from the clean view sit at its mean: at most those are wrong.
    expect(result.metrics['ACC']!.mean).toBeGreaterThanOrEqual(57 / 60);
  });

  it('criterion view: the normalised, mean-filled view, no selection k-means (hand-checked)', () => {
    // Samples 0, 2 present: (3, 4) → (0.6, 0.8), (0, 5) → (0, 1); sample 1 gets their mean.
    const ds = dataset(3, [
      denseView('a', [0, 1, 2], [[1], [1], [1]]),
      denseView(
        'b',
        [0, 2],
        [
          [3, 4],
          [0, 5],
        ],
      ),
    ]);
    const { steps, output } = drain(
      bsvKmeans.run(ds, params({ criterion: 'view', view: 2 }), 2, createRng(1)),
    );
    expect(steps).toEqual([{ stage: 'prepare', iteration: 0, objective: null }]);
    expect(Array.from(output.embedding.data).map((x) => +x.toFixed(12))).toEqual([
      0.6, 0.8, 0.3, 0.9, 0, 1,
    ]);
    expect(output.notes[0]).toContain("forced by parameter 'view'");
    expect(output.charts).toBeUndefined();
  });
});

describe('bsv-kmeans bad input', () => {
  it('names a forced view beyond the views', () => {
    expect(() =>
      drain(bsvKmeans.run(toy, params({ criterion: 'view', view: 3 }), 3, createRng(1))),
    ).toThrow("bsv-kmeans: parameter 'view' is 3, but the dataset has 2 views (1..2)");
  });

  it('names a view without present samples', () => {
    const empty = {
      name: 'empty',
      d: 2,
      present: new Int32Array(0),
      values: { kind: 'dense' as const, rows: 0, cols: 2, data: new Float64Array(0) },
    };
    const ds = dataset(n, [toy.views[0]!, empty]);
    expect(() => drain(bsvKmeans.run(ds, params(), 3, createRng(1)))).toThrow(
      "bsv-kmeans: view 'empty' (view 2) has no present sample",
    );
  });
});
