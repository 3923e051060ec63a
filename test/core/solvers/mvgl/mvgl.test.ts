/**
 * MVGL on hand-checkable toys: c well-separated blobs in two views give exactly c components
 * equal to the blobs, with both eigensolver paths agreeing on every decision; bad input is refused
 * with a message naming the parameter or view.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../../src/core/dataset';
import type { Mat } from '../../../../src/core/linalg/types';
import { mvgl } from '../../../../src/core/solvers/mvgl';
import { mvglIterate, type MvglResult } from '../../../../src/core/solvers/mvgl/mvgl';
import type { SolverInput } from '../../../../src/core/solvers/types';

/** c blobs of m points in d dimensions, centre b at 10·b on every axis, a fixed jitter. */
function blobs(c: number, m: number, d: number, phase: number): Mat {
  const n = c * m;
  const X: Mat = { rows: n, cols: d, data: new Float64Array(n * d) };
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      X.data[i * d + a] = 10 * Math.floor(i / m) + Math.sin(1.7 * i + 2.3 * a + phase);
    }
  }
  return X;
}

function run(Xs: Mat[], c: number, eigensolver: 'sparse' | 'dense'): MvglResult {
  const gen = mvglIterate(Xs, c, {
    neighbors: 5,
    innerIterations: 30,
    outerIterations: 30,
    tolerance: 1e-3,
    eigensolver,
  });
  let s = gen.next();
  while (!s.done) s = gen.next();
  return s.value;
}

function view(name: string, X: Mat): View {
  return {
    name,
    d: X.cols,
    values: { kind: 'dense', ...X },
    present: Int32Array.from({ length: X.rows }, (_, i) => i),
  };
}

describe('mvgl toys', () => {
  it('3 separated blobs in 2 views: 3 components equal to the blobs, both eigensolvers', () => {
    const Xs = [blobs(3, 12, 4, 0), blobs(3, 12, 3, 1)];
    const sparse = run(Xs, 3, 'sparse');
    const dense = run(Xs, 3, 'dense');
    for (const r of [sparse, dense]) {
      expect(r.components).toBe(3);
      for (let i = 0; i < 36; i++) expect(r.labels[i]).toBe(Math.floor(i / 12));
      for (const v of r.views) expect(v.components).toBe(3);
    }
    expect(sparse.views.map((v) => v.lambda)).toEqual(dense.views.map((v) => v.lambda));
    expect(sparse.passes.map((p) => p.actions)).toEqual(dense.passes.map((p) => p.actions));
    sparse.objective.forEach((J, t) =>
      expect(Math.abs(J - dense.objective[t]!)).toBeLessThan(1e-9 * Math.max(1, J)),
    );
    // The affine weights sum to 1 per sample.
    const n = 36;
    for (let j = 0; j < n; j++) {
      expect(Math.abs(sparse.alpha[j]! + sparse.alpha[n + j]! - 1)).toBeLessThan(1e-12);
    }
  });
});

describe('mvgl errors', () => {
  const X = blobs(2, 5, 2, 0);
  const input = (views: View[]): SolverInput => ({ n: 10, views, sampleIds: null });
  const params = {
    neighbors: 15,
    innerIterations: 30,
    outerIterations: 30,
    tolerance: 1e-3,
    eigensolver: 'sparse' as const,
  };
  const start = (inp: SolverInput, p: typeof params): void => {
    mvgl.run(inp, p, 2, { next: () => 0 } as never).next();
  };
  it('names neighbors when the data has too few samples', () => {
    expect(() => start(input([view('X1', X)]), params)).toThrow(/neighbors = 15 needs at least 17/);
  });
  it('names the view that misses samples', () => {
    const v = { ...view('X2', X), present: Int32Array.from([0, 1, 2]) };
    expect(() => start(input([view('X1', X), v]), { ...params, neighbors: 3 })).toThrow(
      /view 'X2' has 3 of 10 samples/,
    );
  });
});
