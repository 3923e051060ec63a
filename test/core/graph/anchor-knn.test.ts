/**
 * nearestAnchors against a brute force written from its definition: the full distance matrix by
 * the same expansion, each row sorted by a stable sort (JavaScript's Array.prototype.sort is
 * stable, like MATLAB's sort), the first k kept. Ties are built in (repeated anchors and rows,
 * integer data), so the tie rule (the lower position wins) is what is compared, with the total.
 */
import { describe, expect, it } from 'vitest';
import { nearestAnchors, nearestAnchorsSparse } from '../../../src/core/graph/anchor-knn';
import { squaredDistances } from '../../../src/core/kernels/distances';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

/** Integer points in {0, 1, 2}^d, with rows 3..5 copies of rows 0..2: many exact ties. */
function points(n: number, d: number, seed: number): Mat {
  const rng = createRng(seed);
  const data = new Float64Array(n * d);
  for (let t = 0; t < data.length; t++) data[t] = Math.floor(rng.next() * 3);
  for (let r = 3; r < Math.min(6, n); r++) data.copyWithin(r * d, (r - 3) * d, (r - 2) * d);
  return { rows: n, cols: d, data };
}

describe('nearestAnchors', () => {
  it.each([
    [40, 3, 12, 5],
    [3000, 2, 50, 7],
    [17, 4, 17, 17],
  ])('n = %i, d = %i, m = %i, k = %i: the stable sort’s first k and the total', (n, d, m, k) => {
    const X = points(n, d, n + m);
    const A: Mat = { rows: m, cols: d, data: X.data.slice(0, m * d) };
    const nn = nearestAnchors(X, A, k);
    const D = squaredDistances(X, A).data;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const row = Array.from({ length: m }, (_, j) => j);
      row.sort((a, b) => D[i * m + a]! - D[i * m + b]!);
      for (let t = 0; t < k; t++) {
        expect(nn.index[i * k + t], `row ${i} slot ${t}`).toBe(row[t]);
        expect(nn.dist[i * k + t]).toBe(D[i * m + row[t]!]);
      }
      for (let j = 0; j < m; j++) total += D[i * m + j]!;
    }
    expect(Math.abs(nn.total - total)).toBeLessThanOrEqual(1e-12 * total);
  });

  it('the sparse path gives the dense path’s bits (word-count-like rows, many ties)', () => {
    const rng = createRng(8);
    const n = 120;
    const d = 300;
    const X: Mat = { rows: n, cols: d, data: new Float64Array(n * d) };
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < 6; t++)
        X.data[i * d + Math.floor(rng.next() * d)] = 1 + Math.floor(rng.next() * 3);
    }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += X.data[i * d + j]! ** 2;
      for (let j = 0; j < d; j++) X.data[i * d + j]! /= Math.sqrt(s);
    }
    const toCsr = (M: Mat, rows: number): Csr => {
      const indptr = new Int32Array(rows + 1);
      const indices: number[] = [];
      const data: number[] = [];
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j < d; j++) {
          if (M.data[i * d + j] !== 0) {
            indices.push(j);
            data.push(M.data[i * d + j]!);
          }
        }
        indptr[i + 1] = indices.length;
      }
      return {
        rows,
        cols: d,
        indptr,
        indices: Int32Array.from(indices),
        data: Float64Array.from(data),
      };
    };
    const m = 70;
    const dense = nearestAnchors(X, { rows: m, cols: d, data: X.data.slice(0, m * d) }, 12);
    const sparse = nearestAnchorsSparse(toCsr(X, n), toCsr(X, m), 12);
    expect([...sparse.index]).toEqual([...dense.index]);
    expect([...sparse.dist]).toEqual([...dense.dist]);
    expect(Math.abs(sparse.total - dense.total)).toBeLessThanOrEqual(1e-12 * dense.total);
  });

  it('refuses k outside 1..m and mismatched widths', () => {
    const X = points(5, 2, 1);
    expect(() => nearestAnchors(X, X, 6)).toThrow(/k = 6 must be an integer in 1\.\.5/);
    expect(() => nearestAnchors(X, { rows: 1, cols: 3, data: new Float64Array(3) }, 1)).toThrow(
      /X has 2 columns, A has 3/,
    );
  });
});
