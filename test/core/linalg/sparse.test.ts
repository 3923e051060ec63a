/** CSR × dense products against the dense triple loop. Tolerance 1e-14·‖S‖_F·‖B‖_F. */
import { describe, expect, it } from 'vitest';
import { spmm, spmmTA } from '../../../src/core/linalg/kernels';
import { transposeCsr } from '../../../src/core/linalg/sparse';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { fro, maxDiff, naiveMul, randMat, transpose } from '../../helpers/mat';
import { prng } from '../../helpers/prng';

/** A random CSR matrix with about `density` of its entries stored, and its dense copy. */
function randCsr(rows: number, cols: number, density: number, seed: number): [Csr, Mat] {
  const r = prng(seed);
  const dense: Mat = { rows, cols, data: new Float64Array(rows * cols) };
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (r() < density) {
        const v = 2 * r() - 1;
        indices.push(j);
        data.push(v);
        dense.data[i * cols + j] = v;
      }
    }
    indptr[i + 1] = indices.length;
  }
  return [
    { rows, cols, indptr, indices: Int32Array.from(indices), data: Float64Array.from(data) },
    dense,
  ];
}

describe('spmm, spmmTA', () => {
  it.each([
    [1, 1, 1, 1],
    [30, 20, 7, 0.2],
    [200, 150, 10, 0.05],
    [50, 60, 1, 0.3],
    [40, 30, 4, 0.3],
    [40, 30, 5, 0.3],
    [40, 30, 8, 0.3],
    [40, 30, 11, 0.3],
  ])('S %i×%i times a dense block with %i columns (density %f)', (m, k, n, density) => {
    const [S, D] = randCsr(m, k, density, m + k + n);
    const B = randMat(k, n, 3 * n);
    const tol = 1e-14 * fro(D) * fro(B);
    expect(maxDiff(spmm(S, B), naiveMul(D, B))).toBeLessThanOrEqual(tol);
    const Bt = randMat(m, n, 5 * n);
    expect(maxDiff(spmmTA(S, Bt), naiveMul(transpose(D), Bt))).toBeLessThanOrEqual(
      1e-14 * fro(D) * fro(Bt),
    );
  });

  it('handles empty rows and an all-zero matrix', () => {
    const [S, D] = randCsr(10, 8, 0, 1);
    const B = randMat(8, 3, 2);
    expect(maxDiff(spmm(S, B), naiveMul(D, B))).toBe(0);
    expect(
      maxDiff(spmmTA(S, randMat(10, 3, 3)), { rows: 8, cols: 3, data: new Float64Array(24) }),
    ).toBe(0);
  });

  it('overwrites a given out, garbage included', () => {
    const [S, D] = randCsr(12, 9, 0.3, 4);
    const B = randMat(9, 4, 5);
    const out: Mat = { rows: 12, cols: 4, data: new Float64Array(48).fill(NaN) };
    expect(spmm(S, B, out)).toBe(out);
    expect(maxDiff(out, naiveMul(D, B))).toBeLessThanOrEqual(1e-14 * fro(D) * fro(B));
    const Bt = randMat(12, 4, 6);
    const outT: Mat = { rows: 9, cols: 4, data: new Float64Array(36).fill(NaN) };
    expect(spmmTA(S, Bt, outT)).toBe(outT);
    expect(maxDiff(outT, naiveMul(transpose(D), Bt))).toBeLessThanOrEqual(1e-14 * fro(D) * fro(Bt));
  });

  it('rejects mismatched shapes', () => {
    const [S] = randCsr(4, 5, 0.5, 7);
    expect(() => spmm(S, randMat(4, 2, 1))).toThrow(/spmm: 4x5 · 4x2/);
    expect(() => spmmTA(S, randMat(5, 2, 1))).toThrow(/spmmTA: \(4x5\)ᵀ · 5x2/);
    expect(() => spmm(S, randMat(5, 2, 1), randMat(5, 2, 2))).toThrow(/out is 5x2, expected 4x2/);
  });
});

/** The dense matrix of a CSR one. */
function densify(S: Csr): Mat {
  const D: Mat = { rows: S.rows, cols: S.cols, data: new Float64Array(S.rows * S.cols) };
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++)
      D.data[i * S.cols + S.indices[p]!] = S.data[p]!;
  return D;
}

describe('transposeCsr', () => {
  it('is the dense transpose, columns ascending in every row, and twice is the identity', () => {
    for (const [rows, cols, density, seed] of [
      [13, 7, 0.3, 1],
      [5, 40, 0.1, 2],
      [30, 30, 0.6, 3],
    ] as const) {
      const [S, D] = randCsr(rows, cols, density, seed);
      const T = transposeCsr(S);
      expect([T.rows, T.cols]).toEqual([cols, rows]);
      expect(Array.from(densify(T).data)).toEqual(Array.from(transpose(D).data));
      for (let j = 0; j < T.rows; j++)
        for (let q = T.indptr[j]! + 1; q < T.indptr[j + 1]!; q++)
          expect(T.indices[q]!).toBeGreaterThan(T.indices[q - 1]!);
      const S2 = transposeCsr(T);
      expect(Array.from(S2.indptr)).toEqual(Array.from(S.indptr));
      expect(Array.from(S2.indices)).toEqual(Array.from(S.indices));
      expect(Array.from(S2.data)).toEqual(Array.from(S.data));
    }
  });

  it('by hand, with an empty row and an empty column', () => {
    // S = [[0, 5, 0, 0], [0, 0, 0, 0], [7, 0, 0, 8]]
    const S: Csr = {
      rows: 3,
      cols: 4,
      indptr: Int32Array.from([0, 1, 1, 3]),
      indices: Int32Array.from([1, 0, 3]),
      data: Float64Array.from([5, 7, 8]),
    };
    const T = transposeCsr(S);
    expect([T.rows, T.cols]).toEqual([4, 3]);
    expect(Array.from(T.indptr)).toEqual([0, 1, 2, 2, 3]);
    expect(Array.from(T.indices)).toEqual([2, 0, 2]);
    expect(Array.from(T.data)).toEqual([7, 5, 8]);
  });
});
