/**
 * binaryKnnGraph against a brute-force constructW (KNN, Binary): every squared distance
 * max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0) by sequential sums, each row's k + 1 smallest
 * (distance, index) pairs with the sample itself among them, the diagonal cleared, max(W, Wᵀ).
 * Integer 0/1 features make many exact ties (duplicates, equal overlaps) and all-zero rows, the
 * cases where the choice of the k + 1 matters; a continuous case has none. The recorded graphs
 * of the reference runs are checked in test/core/solvers/flsd/reference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { binaryKnnGraph } from '../../../src/core/graph/knn-binary';
import { csrFromDense } from '../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

/** The dense 0/1 adjacency of constructW by brute force. */
function bruteForce(X: Mat, k: number): Uint8Array {
  const { rows: n, cols: d, data } = X;
  const sq = (i: number) => {
    let s = 0;
    for (let t = 0; t < d; t++) s += data[i * d + t]! * data[i * d + t]!;
    return s;
  };
  const W = new Uint8Array(n * n);
  for (let i = 0; i < n; i++) {
    const cand = Array.from({ length: n }, (_, j) => {
      let dot = 0;
      for (let t = 0; t < d; t++) dot += data[i * d + t]! * data[j * d + t]!;
      return { j, dist: Math.max(sq(i) + sq(j) - 2 * dot, 0) };
    });
    cand.sort((a, b) => a.dist - b.dist || a.j - b.j);
    for (const { j } of cand.slice(0, k + 1)) if (j !== i) W[i * n + j] = W[j * n + i] = 1;
  }
  return W;
}

function dense(W: Csr): Uint8Array {
  const out = new Uint8Array(W.rows * W.cols);
  for (let i = 0; i < W.rows; i++) {
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      expect(W.data[p]).toBe(1);
      out[i * W.cols + W.indices[p]!] = 1;
    }
  }
  return out;
}

function binaryRows(n: number, d: number, seed: number): Mat {
  const rng = createRng(seed);
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    if (i % 9 === 4) continue; // all-zero rows
    if (i % 7 === 6)
      data.copyWithin(i * d, (i - 3) * d, (i - 2) * d); // duplicates
    else for (let t = 0; t < d; t++) data[i * d + t] = rng.next() < 0.15 ? 1 : 0;
  }
  return { rows: n, cols: d, data };
}

describe('binaryKnnGraph against the Gram-distance brute force', () => {
  it.each([3, 7])('equals the brute force on tied 0/1 rows, k = %i', (k) => {
    const X = binaryRows(90, 24, k);
    const W = binaryKnnGraph(X, k);
    expect(Buffer.from(dense(W)).equals(Buffer.from(bruteForce(X, k)))).toBe(true);
    // Sorted columns, symmetric pattern.
    for (let i = 0; i < W.rows; i++)
      for (let p = W.indptr[i]! + 1; p < W.indptr[i + 1]!; p++)
        expect(W.indices[p]!).toBeGreaterThan(W.indices[p - 1]!);
  });

  it('gives a sample with lower-index duplicates k + 1 neighbours, as the reference does', () => {
    // Rows 0..3 identical, row 4 far: with k = 2, row 3's three nearest (distance 0, by index)
    // are rows 0, 1, 2, so it keeps three neighbours; row 0's are 0, 1, 2 (itself among them).
    const X: Mat = { rows: 5, cols: 1, data: Float64Array.from([1, 1, 1, 1, 9]) };
    const W = dense(binaryKnnGraph(X, 2));
    const row = (i: number) => Array.from(W.subarray(i * 5, i * 5 + 5));
    expect(row(3)).toEqual([1, 1, 1, 0, 0]);
    expect(row(4)).toEqual([1, 1, 0, 0, 0]);
  });

  it('equals the brute force on continuous rows; CSR input gives the same graph', () => {
    const rng = createRng(5);
    const X: Mat = { rows: 120, cols: 6, data: new Float64Array(720).map(() => rng.normal()) };
    const W = binaryKnnGraph(X, 5);
    expect(Buffer.from(dense(W)).equals(Buffer.from(bruteForce(X, 5)))).toBe(true);
    const T = binaryRows(90, 24, 9);
    const a = binaryKnnGraph(T, 4);
    const b = binaryKnnGraph(csrFromDense(T), 4);
    expect(Array.from(b.indptr)).toEqual(Array.from(a.indptr));
    expect(Array.from(b.indices)).toEqual(Array.from(a.indices));
  });

  it('refuses k below 1, naming the bound', () => {
    const X: Mat = { rows: 4, cols: 1, data: Float64Array.from([1, 2, 3, 4]) };
    expect(() => binaryKnnGraph(X, 0)).toThrow(/k = 0 must be an integer ≥ 1 \(n = 4/);
  });
});
