/**
 * `binaryKnnGraph` against `constructW` (KNN, Binary) written out plainly in the test: all
 * squared distances, the k + 1 smallest of each row *including the row itself* taken by
 * repeated minimum (ties to the lower index, as MATLAB's `min`), the diagonal removed, then
 * max(W, Wᵀ). On integer data full of exact ties and duplicate rows (where a row can miss
 * itself and keep k + 1 others), dense and CSR, and a hand-checked toy.
 */
import { csrFromDense } from '../../../src/core/linalg/kernels';
import { describe, expect, it } from 'vitest';
import { binaryKnnGraph } from '../../../src/core/graph/knn-binary';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { mat } from '../../helpers/linalg';
import { prng } from '../../helpers/prng';

/** constructW's KNN / Binary branch, dense, as the reference code runs it. */
function constructW(X: Mat, k: number): number[][] {
  const n = X.rows;
  const W = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    const dist: number[] = [];
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < X.cols; p++)
        s += (X.data[i * X.cols + p]! - X.data[j * X.cols + p]!) ** 2;
      dist.push(s);
    }
    for (let t = 0; t <= k; t++) {
      let best = 0;
      for (let j = 1; j < n; j++) if (dist[j]! < dist[best]!) best = j;
      W[i]![best] = 1;
      dist[best] = 1e100;
    }
  }
  for (let i = 0; i < n; i++) W[i]![i] = 0;
  return W.map((row, i) => row.map((w, j) => Math.max(w, W[j]![i]!)));
}

function dense(G: Csr): number[][] {
  const out = Array.from({ length: G.rows }, () => new Array<number>(G.cols).fill(0));
  for (let i = 0; i < G.rows; i++) {
    for (let p = G.indptr[i]!; p < G.indptr[i + 1]!; p++) out[i]![G.indices[p]!] = G.data[p]!;
  }
  return out;
}

/** Small integers with several all-zero rows and a block of duplicates: many exact ties. */
function tied(n: number, d: number, seed: number): Mat {
  const r = prng(seed);
  const X = mat(
    n,
    d,
    new Float64Array(n * d).map(() => (r() < 0.5 ? 0 : Math.floor(r() * 3))),
  );
  for (const z of [3, 4, 9, 10, 11, 17, 20, 21, 25, 30]) X.data.fill(0, z * d, (z + 1) * d);
  for (const dup of [13, 14, 15, 16]) X.data.copyWithin(dup * d, 12 * d, 13 * d);
  return X;
}

describe('binaryKnnGraph (constructW, KNN, Binary)', () => {
  it('a hand-checked line: 0, 1, 3, 7, 15 with k = 1', () => {
    // Row i's 2 nearest including itself: itself and its nearest other (ties to the lower
    // index): 0→1, 1→0, 3→1, 7→3, 15→7; then max(W, Wᵀ).
    const G = binaryKnnGraph(mat(5, 1, [0, 1, 3, 7, 15]), 1);
    expect(dense(G)).toEqual([
      [0, 1, 0, 0, 0],
      [1, 0, 1, 0, 0],
      [0, 1, 0, 1, 0],
      [0, 0, 1, 0, 1],
      [0, 0, 0, 1, 0],
    ]);
  });

  it('a zero row with k + 1 zero rows before it keeps k + 1 neighbours', () => {
    // Rows 0..3 are zero, k = 2: row 3's three nearest (distance 0, lower index) are 0, 1, 2.
    const G = binaryKnnGraph(mat(6, 1, [0, 0, 0, 0, 5, 6]), 2);
    const W = dense(G);
    expect(W[3]).toEqual([1, 1, 1, 0, 0, 0]);
    expect(W).toEqual(constructW(mat(6, 1, [0, 0, 0, 0, 5, 6]), 2));
  });

  for (const [n, d, k, seed] of [
    [40, 3, 3, 1],
    [60, 5, 7, 2],
    [35, 2, 5, 3],
  ] as const) {
    it(`n = ${n}, d = ${d}, k = ${k}: dense and CSR equal the plain constructW`, () => {
      const X = tied(n, d, seed);
      const want = constructW(X, k);
      expect(dense(binaryKnnGraph(X, k))).toEqual(want);
      expect(dense(binaryKnnGraph(csrFromDense(X), k))).toEqual(want);
      expect(dense(binaryKnnGraph(X, k, { tile: 8 }))).toEqual(want);
    });
  }

  it('k ≥ n − 1 gives the complete graph, as constructW (every row a candidate)', () => {
    const X = mat(4, 1, [0, 1, 2, 3]);
    for (const k of [3, 5]) {
      expect(dense(binaryKnnGraph(X, k))).toEqual(constructW(X, 3));
      expect(binaryKnnGraph(X, k).indptr[4]).toBe(12);
    }
    expect(() => binaryKnnGraph(X, 0)).toThrow('binaryKnnGraph: k = 0 must be an integer ≥ 1');
  });
});
