import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../src/core/dataset';
import { evaluate } from '../../src/core/protocol';
import { getSolver } from '../../src/core/solvers/registry';
import type { Solver, SolverInput } from '../../src/core/solvers/types';

/** 4 samples, one 1-feature view missing sample 3 (0-based). */
function ds(): MultiViewDataset {
  return {
    n: 4,
    views: [
      {
        name: 'a',
        d: 1,
        present: Int32Array.from([0, 1, 2]),
        values: { kind: 'dense', rows: 3, cols: 1, data: Float64Array.from([0, 1, 5]) },
      },
    ],
    labels: null,
    sampleIds: null,
    provenance: {
      file: 'toy',
      format: 'synthetic',
      variables: [],
      orientation: ['n x d'],
      missingness: 'natural',
      decisions: [],
      warnings: [],
    },
  };
}

function spy(): { solver: Solver; seen: SolverInput[] } {
  const base = getSolver('kmeans-concat');
  const seen: SolverInput[] = [];
  const solver: Solver = {
    ...base,
    *run(input, params, k, rng) {
      seen.push(input);
      return yield* base.run(input, params, k, rng);
    },
  };
  return { solver, seen };
}

function drain<R>(g: Generator<unknown, R, void>): R {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

describe('protocol preprocessing', () => {
  it('the solver receives z-scored views, filled after (a missing sample takes 0)', () => {
    const { solver, seen } = spy();
    const r = drain(
      evaluate(ds(), solver, {}, 2, { protocol: 'single', seed: 1, preprocess: 'zscore' }),
    );
    // present values 0, 1, 5: mean 2, population std √(14/3).
    const sd = Math.sqrt(14 / 3);
    const got = Array.from(seen[0]!.views[0]!.values.data);
    [-2 / sd, -1 / sd, 3 / sd, 0].forEach((z, i) => expect(got[i]).toBeCloseTo(z, 12));
    expect(r.preprocess).toBe('zscore');
    expect(r.notes[0]).toMatch(/^preprocessing zscore/);
    expect(r.notes.some((n) => n.startsWith('missing samples of each view imputed'))).toBe(true);
  });

  it("'none' by default: raw views, no preprocessing note; a bad mode is refused", () => {
    const { solver, seen } = spy();
    const r = drain(evaluate(ds(), solver, {}, 2, { protocol: 'single', seed: 1 }));
    expect(Array.from(seen[0]!.views[0]!.values.data)).toEqual([0, 1, 5, 2]);
    expect(r.preprocess).toBe('none');
    expect(r.notes.some((n) => n.startsWith('preprocessing'))).toBe(false);
    const bad = { protocol: 'single', seed: 1, preprocess: 'pca' } as unknown as Parameters<
      typeof evaluate
    >[4];
    expect(() => drain(evaluate(ds(), solver, {}, 2, bad))).toThrow(/preprocess must be one of/);
  });
});
