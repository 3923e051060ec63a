/**
 * daimc: parameters (defaults = the recorded reference settings), the linear-time port against
 * the reference's dense arithmetic (dense-reference.ts: n × n W_v, d × d Woodbury and Sylvester
 * solves, V-loop terms recomputed each pass) from the same fixed start, a hand-checkable toy,
 * the output's invariants, the footprint, and the messages for bad input.
 */
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../../../src/core/dataset';
import type { Mat } from '../../../../src/core/linalg/types';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import {
  daimc,
  daimcIterate,
  daimcOptions,
  type DaimcOptions,
  type DaimcParams,
} from '../../../../src/core/solvers/daimc';
import { ParamError, SolverInputError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { Params, SolverInput } from '../../../../src/core/solvers/types';
import { synthesize } from '../../../../src/core/synth';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { readReference } from '../../../helpers/reference';
import { dataset, denseView, drain } from '../../../helpers/toy';
import { denseDaimc } from './dense-reference';

const params = (raw: Record<string, number> = {}): Params => validateParams(daimc.schema, raw);
const inputOf = (ds: MultiViewDataset): SolverInput => ({
  n: ds.n,
  views: ds.views,
  sampleIds: null,
});
const maxRel = (a: Float64Array, b: Float64Array): number => {
  let m = 0;
  let s = 0;
  for (let p = 0; p < a.length; p++) {
    m = Math.max(m, Math.abs(a[p]! - b[p]!));
    s = Math.max(s, Math.abs(b[p]!));
  }
  return m / s;
};

describe('daimc parameters', () => {
  it('defaults are the recorded reference settings, and it is registered', () => {
    const run = readReference('baselines-incomplete').runs.find((r) => r.method === 'DAIMC')!;
    const p = params();
    expect(p['alpha']).toBe(run.params['afa']);
    expect(p['beta']).toBe(run.params['beta']);
    expect(p['iterations']).toBe(run.params['maxIter']);
    expect(p['innerIterations']).toBe(run.params['innerMaxIter']);
    expect(p['tol']).toBe(run.params['tol']);
    expect(p['innerTol']).toBe(1e-4);
    expect(p['startReplicates']).toBe(20);
    expect(getSolver('daimc')).toBe(daimc);
    expect(daimc.input).toBe('incomplete');
    expect(daimc.iterationCap(params({ iterations: 7 }))).toBe(7);
  });

  it('names the parameter and its bounds', () => {
    expect(() => params({ alpha: -1 })).toThrow(/parameter 'alpha' must be a number from 0/);
    expect(() => params({ iterations: 0 })).toThrow(
      "parameter 'iterations' must be an integer from 1 to 1000; got 0",
    );
    expect(() => params({ gamma: 1 })).toThrow(ParamError);
  });
});

/** X_v as (d_v, n) with zero columns for missing samples, and the presence, from the input. */
function denseViews(ds: MultiViewDataset): { X: Mat[]; w: number[][] } {
  const input = incompleteInput(inputOf(ds));
  const X = input.views.map((view) => {
    const d = view.d;
    const M: Mat = { rows: d, cols: ds.n, data: new Float64Array(d * ds.n) };
    const vals = view.values;
    if (vals.kind !== 'dense') throw new Error('dense toy expected');
    view.present.forEach((i, r) => {
      for (let j = 0; j < d; j++) M.data[j * ds.n + i] = vals.data[r * d + j]!;
    });
    return M;
  });
  const w = input.views.map((view) => {
    const p = new Array<number>(ds.n).fill(0);
    for (const i of view.present) p[i] = 1;
    return p;
  });
  return { X, w };
}

describe('daimc against the reference arithmetic (dense, n × n W_v, d × d solves)', () => {
  const ds = synthesize({ n: 40, k: 3, dims: [7, 5, 6], completeFraction: 0.5, seed: 3 });
  const labels = Int32Array.from(ds.labels!.codes);
  const cases: [string, DaimcOptions][] = [
    ['the defaults (α = 1e-4, β = 1e4)', daimcOptions(params() as DaimcParams)],
    [
      'α = 0.5, β = 2 (the alignment terms matter)',
      daimcOptions(params({ alpha: 0.5, beta: 2, iterations: 12 }) as DaimcParams),
    ],
  ];
  for (const [name, o] of cases) {
    it(name, () => {
      const { X, w } = denseViews(ds);
      const want = denseDaimc(X, w, labels, 3, o);
      const start = { kind: 'labels', labels } as const;
      const { output } = drain(daimcIterate(incompleteInput(inputOf(ds)), 3, o, start));
      expect(output.objective.length).toBe(want.objective.length);
      expect(output.vPasses).toEqual(want.innerIterations);
      output.objective.forEach((f, t) => {
        expect(Math.abs(f - want.objective[t]!) / want.objective[t]!).toBeLessThan(1e-10);
      });
      expect(maxRel(output.V.data, want.V.data)).toBeLessThan(1e-8);
      output.U.forEach((U, v) => expect(maxRel(U.data, want.U[v]!.data)).toBeLessThan(1e-8));
      output.B.forEach((B, v) => expect(maxRel(B.data, want.B[v]!.data)).toBeLessThan(1e-8));
    });
  }
});

/** Three directions per view, 10 samples each; view 1 misses 0..5, view 2 misses 24..29. */
function toy(): { ds: MultiViewDataset; truth: number[] } {
  const rng = createRng(4);
  const truth = Array.from({ length: 30 }, (_, i) => Math.floor(i / 10));
  const row = (c: number): number[] => [0, 1, 2].map((j) => (j === c ? 5 : 0) + 0.3 * rng.next());
  const present1 = truth.map((_, i) => i).filter((i) => i >= 6);
  const present2 = truth.map((_, i) => i).filter((i) => i < 24);
  const ds = dataset(30, [
    denseView(
      'a',
      present1,
      present1.map((i) => row(truth[i]!)),
    ),
    denseView(
      'b',
      present2,
      present2.map((i) => row(truth[i]!)),
    ),
  ]);
  return { ds, truth };
}

describe('daimc on a toy', () => {
  it('recovers three clusters seen through two incomplete views (argmax of V)', () => {
    const { ds, truth } = toy();
    const { output, steps } = drain(daimc.run(inputOf(ds), params(), 3, createRng(1)));
    const V = output.embedding;
    const arg = Array.from({ length: 30 }, (_, i) => {
      let best = 0;
      for (let c = 1; c < 3; c++) if (V.data[i * 3 + c]! > V.data[i * 3 + best]!) best = c;
      return best;
    });
    // The same partition as the truth, up to the names of the clusters.
    for (let i = 0; i < 30; i++) {
      for (let j = 0; j < 30; j++) expect(arg[i] === arg[j]).toBe(truth[i] === truth[j]);
    }
    expect(steps.filter((s) => s.stage === 'start').length).toBe(2);
    expect(steps.filter((s) => s.stage === 'solve').length).toBe(output.iterations);
  });

  it('V ≥ 0 with unit column sums; the objective is the last step; the seed decides', () => {
    const ds = synthesize({ n: 90, k: 3, dims: [8, 6], completeFraction: 0.4, seed: 9 });
    const p = params({ iterations: 10 });
    const a = drain(daimc.run(inputOf(ds), p, 3, createRng(5)));
    const b = drain(daimc.run(inputOf(ds), p, 3, createRng(5)));
    const V = a.output.embedding;
    expect(V.data.every((x) => x >= 0)).toBe(true);
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let i = 0; i < V.rows; i++) s += V.data[i * 3 + c]!;
      expect(s).toBeCloseTo(1, 12);
    }
    expect(a.output.iterations).toBeLessThanOrEqual(10);
    expect(a.steps.filter((s) => s.stage === 'solve').at(-1)!.objective).toBe(
      a.output.objective.at(-1),
    );
    expect(Array.from(b.output.embedding.data)).toEqual(Array.from(V.data));
  });

  it('runs under the protocol and scores the toy perfectly', () => {
    const { ds, truth } = toy();
    const labelled = dataset(30, [...ds.views], truth);
    const { output } = drain(
      evaluate(labelled, daimc, {}, 3, { protocol: 'single', seed: 0, replicates: 5 }),
    );
    expect(output.metrics['ACC']!.mean).toBe(1);
  });
});

describe('daimc footprint', () => {
  it('is linear in n and says so; n = 50,000 × 5 views of 100 stays under 1 GB', () => {
    const shape = (n: number) => ({
      n,
      dims: [100, 100, 100, 100, 100],
      present: new Array<number>(5).fill(Math.round(0.75 * n)),
      k: 10,
    });
    const small = daimc.footprint(shape(5000), params());
    const big = daimc.footprint(shape(50000), params());
    expect(small.quadratic).toBe(false);
    expect(big.bytes / small.bytes).toBeCloseTo(10, 0);
    expect(big.bytes).toBeLessThan(1e9);
  });
});

describe('daimc input errors', () => {
  it('refuses a view without present samples, naming it', () => {
    const { ds } = toy();
    const empty = denseView('c', [], []);
    const bad = dataset(30, [
      ...ds.views,
      { ...empty, d: 3, values: { ...empty.values, cols: 3 } },
    ]);
    expect(() => drain(daimc.run(inputOf(bad), params(), 3, createRng(0)))).toThrow(
      SolverInputError,
    );
    expect(() => drain(daimc.run(inputOf(bad), params(), 3, createRng(0)))).toThrow(
      "view 'c' (view 3) has no present sample",
    );
  });

  it('refuses start labels that leave a cluster empty', () => {
    const { ds } = toy();
    const labels = new Int32Array(30);
    const start = { kind: 'labels', labels } as const;
    const o = daimcOptions(params() as DaimcParams);
    expect(() => drain(daimcIterate(incompleteInput(inputOf(ds)), 3, o, start))).toThrow(
      'daimc: start label 1 has no sample',
    );
  });
});
