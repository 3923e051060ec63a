/**
 * Exact kNN against numpy brute force and scikit-learn (test/fixtures/graph/make.py), and
 * against an in-test brute force on integer data full of ties (lower index first), for dense
 * and CSR input and several tile sizes.
 */
import { describe, expect, it } from 'vitest';
import { knn, transpose } from '../../../src/core/graph/knn';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { prng } from '../../helpers/prng';
import { graphFixture, mat, maxRelDiff } from '../helpers';

const fx = graphFixture();

/** Brute force: all other rows sorted by (squared distance, index). */
function brute(X: Mat, k: number): { indices: number[]; distances: number[] } {
  const indices: number[] = [];
  const distances: number[] = [];
  for (let i = 0; i < X.rows; i++) {
    const row: [number, number][] = [];
    for (let j = 0; j < X.rows; j++) {
      if (j === i) continue;
      let d = 0;
      for (let p = 0; p < X.cols; p++)
        d += (X.data[i * X.cols + p]! - X.data[j * X.cols + p]!) ** 2;
      row.push([d, j]);
    }
    row.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [d, j] of row.slice(0, k)) {
      indices.push(j);
      distances.push(d);
    }
  }
  return { indices, distances };
}

/** Small integers on a coarse grid, with duplicate rows: many exactly tied distances. */
function tiedData(n: number, d: number, seed: number): Mat {
  const r = prng(seed);
  const X = mat(
    n,
    d,
    new Float64Array(n * d).map(() => Math.floor(r() * 4)),
  );
  X.data.copyWithin(5 * d, 0, d); // row 5 duplicates row 0
  return X;
}

function toCsr(X: Mat): Csr {
  const indptr = new Int32Array(X.rows + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < X.rows; i++) {
    for (let j = 0; j < X.cols; j++) {
      const v = X.data[i * X.cols + j]!;
      if (v !== 0) {
        indices.push(j);
        data.push(v);
      }
    }
    indptr[i + 1] = indices.length;
  }
  return {
    rows: X.rows,
    cols: X.cols,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
}

describe('knn', () => {
  const m = fx.mixture;
  const X = mat(m.n, m.d, m.X);

  it('matches numpy brute force (indices exactly, distances to 1e-12 relative)', () => {
    const r = knn(X, m.knn.k, { tile: 64 });
    expect(Array.from(r.indices)).toEqual(m.knn.indices);
    expect(maxRelDiff(r.distances, m.knn.distances)).toBeLessThan(1e-12);
  });

  it.runIf(fx.mixture.sklearnKnn !== null)('matches sklearn NearestNeighbors index sets', () => {
    const r = knn(X, m.knn.k);
    const sk = m.sklearnKnn!;
    for (let i = 0; i < m.n; i++) {
      const ours = Array.from(r.indices.subarray(i * m.knn.k, (i + 1) * m.knn.k)).sort(
        (a, b) => a - b,
      );
      expect(ours).toEqual([...sk[i]!].sort((a, b) => a - b));
    }
  });

  it('breaks ties by the lower index, excludes self, keeps duplicates at distance 0', () => {
    const T = tiedData(97, 3, 11);
    const ref = brute(T, 7);
    for (const tile of [1, 8, 33, 256]) {
      const r = knn(T, 7, { tile });
      expect(Array.from(r.indices)).toEqual(ref.indices);
      expect(Array.from(r.distances)).toEqual(ref.distances);
    }
    const r = knn(T, 7);
    expect(r.indices[0]).toBe(5); // the duplicate of row 0
    expect(r.distances[0]).toBe(0);
    for (let i = 0; i < T.rows; i++)
      expect(Array.from(r.indices.subarray(i * 7, i * 7 + 7))).not.toContain(i);
  });

  it('CSR input gives the same neighbours without densifying', () => {
    const T = tiedData(80, 6, 12);
    for (let p = 0; p < T.data.length; p += 3) T.data[p] = 0; // make it sparse
    const ref = brute(T, 5);
    const r = knn(toCsr(T), 5);
    expect(Array.from(r.indices)).toEqual(ref.indices);
    expect(Array.from(r.distances)).toEqual(ref.distances);
  });

  it('clamps cancellation to 0: far-off identical points', () => {
    const Y = mat(4, 2, [1e8, 1e8, 1e8, 1e8, 1e8 + 1, 1e8, -3, 2]);
    const r = knn(Y, 1);
    expect(r.distances[0]).toBe(0);
    for (const d of r.distances) expect(d).toBeGreaterThanOrEqual(0);
  });

  it('rejects k outside 1..n−1', () => {
    expect(() => knn(X, 0)).toThrow(/k = 0 must be an integer in 1\.\.299/);
    expect(() => knn(X, 300)).toThrow(/k = 300/);
  });

  it('transpose of a CSR matrix', () => {
    const S = toCsr(mat(2, 3, [1, 0, 2, 0, 3, 4]));
    const T = transpose(S);
    expect([T.rows, T.cols]).toEqual([3, 2]);
    expect(Array.from(T.indptr)).toEqual([0, 1, 2, 4]);
    expect(Array.from(T.indices)).toEqual([0, 1, 0, 1]);
    expect(Array.from(T.data)).toEqual([1, 3, 2, 4]);
  });
});
