/**
 * ueaf: parameters (defaults = the recorded reference settings) and their errors, a toy of three
 * clusters seen through two incomplete views with disjoint feature blocks per cluster (recovered
 * exactly), the shapes and invariants of the output (unit rows, view weights summing to 1, the
 * feature graphs' checks), and the messages for input the method refuses.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { Params, SolverInput } from '../../../../src/core/solvers/types';
import { featureGraph, MAX_UEAF_N, missingOf, ueaf } from '../../../../src/core/solvers/ueaf';
import { dataset, denseView, drain, pick, without } from '../../../helpers/toy';

const params = (raw: Record<string, number> = {}): Params => validateParams(ueaf.schema, raw);

describe('ueaf parameters', () => {
  it('defaults are the reference demo settings (percentDel 0.5) and it is registered', () => {
    expect(params()).toEqual({
      lambda1: 1e-5,
      lambda2: 10,
      lambda3: 1e-5,
      r: 3,
      dim: 0,
      knn: 7,
      iterations: 50,
      tol: 1e-5,
    });
    expect(getSolver('ueaf')).toBe(ueaf);
    expect(ueaf.input).toBe('incomplete');
    expect(ueaf.footprint({ n: 100, dims: [5], present: [80], k: 3 }, params()).quadratic).toBe(
      true,
    );
  });

  it('names the parameter and its bounds', () => {
    expect(() => params({ lambda2: 0 })).toThrow(/parameter 'lambda2' must be/);
    expect(() => params({ r: 1 })).toThrow(/parameter 'r' must be/);
    expect(() => params({ knn: 0 })).toThrow(/parameter 'knn' must be an integer from 1 to 100/);
    expect(() => params({ beta: 1 })).toThrow(ParamError);
  });
});

// Three clusters of 20 samples, two views of 12 features: cluster c puts its mass on features
// 4c..4c+3 (values 1 + small noise) and a little on the rest, so each view alone separates the
// clusters. Each view misses 10 samples, none missing from both.
const per = 20;
const n = 3 * per;
const truth = Array.from({ length: n }, (_, i) => Math.floor(i / per));
function viewRows(seed: number): number[][] {
  const rng = createRng(seed);
  return truth.map((c) =>
    Array.from({ length: 12 }, (_, f) =>
      Math.floor(f / 4) === c ? 1 + 0.2 * rng.next() : 0.05 * rng.next(),
    ),
  );
}
const miss1 = [0, 5, 11, 22, 27, 33, 41, 48, 52, 59];
const miss2 = [2, 7, 15, 20, 29, 36, 40, 45, 50, 57];
const present1 = without(n, miss1);
const present2 = without(n, miss2);
const toy = dataset(
  n,
  [
    denseView('a', present1, pick(viewRows(1), present1)),
    denseView('b', present2, pick(viewRows(2), present2)),
  ],
  truth,
);
const toyParams = params({ knn: 3, iterations: 20 });

describe('ueaf on a toy', () => {
  it('recovers the three clusters exactly (single protocol)', () => {
    const { output } = drain(evaluate(toy, ueaf, toyParams, 3, { protocol: 'single', seed: 1 }));
    expect(output.metrics['ACC']!.mean).toBe(1);
    expect(output.metrics['NMI']!.mean).toBeCloseTo(1, 12);
  });

  it('returns unit rows, weights summing to 1 and the feature graphs it used', () => {
    const input: SolverInput = { n, views: toy.views, sampleIds: null };
    const { steps, output } = drain(ueaf.run(input, toyParams, 3, createRng(5)));
    expect(output.embedding.rows).toBe(n);
    expect(output.embedding.cols).toBe(3);
    for (let i = 0; i < n; i++) {
      const row = output.embedding.data.subarray(3 * i, 3 * i + 3);
      expect(Math.hypot(...row)).toBeCloseTo(1, 12);
    }
    const alpha = output.charts!.weights!.values;
    expect(alpha.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    expect(output.objective.length).toBe(output.iterations);
    expect(steps.filter((s) => s.stage === 'solve').length).toBe(output.iterations);
    expect(output.objective.every(Number.isFinite)).toBe(true);
    // Converged by the reference's rule: |obj(t) − obj(t−1)| < tol after t > 2.
    const obj = output.objective;
    if (output.converged) {
      expect(obj.length).toBeGreaterThan(2);
      expect(Math.abs(obj.at(-1)! - obj.at(-2)!)).toBeLessThan(1e-5);
    }
    // The checks are those of the graphs built from the unit-L2 present blocks.
    const checks = output.diagnostics!['graphChecks'] as { size: number[]; trace: number[] };
    expect(checks.size).toEqual([12, 12]);
    toy.views.forEach((v, i) => {
      const scaled = v.values.data.slice();
      for (let r = 0; r < v.values.rows; r++) {
        const row = scaled.subarray(12 * r, 12 * r + 12);
        const norm = Math.hypot(...row);
        for (let j = 0; j < 12; j++) row[j]! /= norm;
      }
      const W = featureGraph({ ...v.values, data: scaled }, 3);
      expect(checks.trace[i]).toBe(W.indptr[12]);
    });
  });

  it('knn ≥ d_v − 1 gives the complete feature graph, said in the notes', () => {
    const input: SolverInput = { n, views: toy.views, sampleIds: null };
    const { output } = drain(ueaf.run(input, params({ knn: 11, iterations: 3 }), 3, createRng(2)));
    const checks = output.diagnostics!['graphChecks'] as { trace: number[] };
    expect(checks.trace).toEqual([12 * 11, 12 * 11]);
    expect(output.notes[1]).toContain('complete graph');
  });

  it('missingOf is the sorted complement of the present samples', () => {
    expect(Array.from(missingOf(Int32Array.from([1, 2, 5]), 7))).toEqual([0, 3, 4, 6]);
    expect(missingOf(Int32Array.from([0, 1]), 2).length).toBe(0);
  });

  it('the same seed gives the same result', () => {
    const input: SolverInput = { n, views: toy.views, sampleIds: null };
    const a = drain(ueaf.run(input, toyParams, 3, createRng(3))).output;
    const b = drain(ueaf.run(input, toyParams, 3, createRng(3))).output;
    expect(b.objective).toEqual(a.objective);
    expect(b.embedding.data).toEqual(a.embedding.data);
  });
});

describe('ueaf refuses what it cannot run', () => {
  const run = (input: SolverInput, p: Params, k = 3): void => {
    drain(ueaf.run(input, p, k, createRng(1)));
  };
  it('a view without present samples', () => {
    const empty = denseView('empty', [], []);
    const views = [toy.views[0]!, { ...empty, d: 12, values: { ...empty.values, cols: 12 } }];
    expect(() => run({ n, views, sampleIds: null }, toyParams)).toThrow(
      "ueaf: view 'empty' (view 2) has no present sample; remove the view",
    );
  });
  it('an embedding dimension of n or more', () => {
    expect(() =>
      run({ n, views: toy.views, sampleIds: null }, params({ dim: 60, knn: 3 })),
    ).toThrow("ueaf: parameter 'dim' is 60, but at most n − 1 = 59");
  });
  it('n above its n × n limit, naming the limit and the estimated memory', () => {
    const big = MAX_UEAF_N + 1;
    const view = denseView('x', [0, 1, 2], [[1], [2], [3]]);
    expect(() => run({ n: big, views: [view], sampleIds: null }, toyParams)).toThrow(
      /ueaf: n = 10001 samples is above the method's limit of 10000: it holds 6 dense n × n arrays \(an estimated 4\.8 GB\)/,
    );
  });
});
