/**
 * GEMM variants and SYRK against the triple loop, on odd sizes and on sizes that cross every
 * cache block (MC = 128 rows, KC = 256 depth, NC = 768 columns) and micro-tile edge (4×3).
 * Tolerance: the standard bound |fl(AB) − AB| ≤ k·ε·|A|·|B|, taken as 1e-14·‖A‖_F·‖B‖_F.
 */
import { describe, expect, it } from 'vitest';
import { gemm, matmul, matmulTA, matmulTB, syrk } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { at, fro, maxDiff, naiveMul, randMat, transpose } from '../../helpers/mat';

const TOL = 1e-14;

function expectProduct(C: Mat, A: Mat, B: Mat, ref = naiveMul(A, B)): void {
  expect(maxDiff(C, ref)).toBeLessThanOrEqual(TOL * fro(A) * fro(B));
}

const SIZES: [number, number, number][] = [
  [1, 1, 1],
  [5, 3, 7],
  [97, 131, 61],
  [4, 1, 3],
  [2, 300, 1],
  [130, 260, 770],
];

describe('matmul, matmulTA, matmulTB', () => {
  it.each(SIZES)('A·B, (Aᵀ)ᵀ·B, A·(Bᵀ)ᵀ for A %i×%i, B with %i columns', (m, k, n) => {
    const A = randMat(m, k, m * 7 + k);
    const B = randMat(k, n, n * 13 + k);
    const ref = naiveMul(A, B);
    expectProduct(matmul(A, B), A, B, ref);
    expectProduct(matmulTA(transpose(A), B), A, B, ref);
    expectProduct(matmulTB(A, transpose(B)), A, B, ref);
  });

  it('overwrites a given out, garbage included, and returns it', () => {
    const A = randMat(9, 11, 1);
    const B = randMat(11, 6, 2);
    const out: Mat = { rows: 9, cols: 6, data: new Float64Array(54).fill(NaN) };
    expect(matmul(A, B, out)).toBe(out);
    expectProduct(out, A, B);
    const B2 = randMat(11, 6, 3);
    matmul(A, B2, out);
    expectProduct(out, A, B2);
    const outT: Mat = { rows: 9, cols: 6, data: new Float64Array(54).fill(7) };
    expect(matmulTA(transpose(A), B, outT)).toBe(outT);
    expectProduct(outT, A, B);
    expect(matmulTB(A, transpose(B), outT)).toBe(outT);
    expectProduct(outT, A, B);
  });

  it('accepts an out that is a view into a larger buffer', () => {
    const A = randMat(5, 3, 4);
    const B = randMat(3, 7, 5);
    const buf = new Float64Array(100).fill(-1);
    const out: Mat = { rows: 5, cols: 7, data: buf.subarray(10, 45) };
    matmul(A, B, out);
    expectProduct(out, A, B);
    expect(buf[9]).toBe(-1);
    expect(buf[45]).toBe(-1);
  });

  it('handles empty dimensions', () => {
    const C = matmul(randMat(3, 0, 1), randMat(0, 4, 2));
    expect(Array.from(C.data)).toEqual(new Array(12).fill(0));
    expect(matmul(randMat(0, 3, 1), randMat(3, 4, 2)).data.length).toBe(0);
  });

  it('rejects mismatched shapes, a wrong out and an out aliasing an input', () => {
    expect(() => matmul(randMat(2, 3, 1), randMat(4, 2, 2))).toThrow(/matmul: 2x3 · 4x2/);
    expect(() => matmulTA(randMat(2, 3, 1), randMat(4, 2, 2))).toThrow(/matmulTA/);
    expect(() => matmulTB(randMat(2, 3, 1), randMat(4, 2, 2))).toThrow(/matmulTB/);
    expect(() => matmul(randMat(2, 3, 1), randMat(3, 2, 2), randMat(3, 2, 3))).toThrow(
      /out is 3x2, expected 2x2/,
    );
    const A = randMat(3, 3, 4);
    expect(() => matmul(A, A, A)).toThrow(/shares memory/);
  });
});

describe('gemm', () => {
  it.each([
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ])('C ← α·op(A)·op(B) + β·C with transA=%s transB=%s', (tA, tB) => {
    const A = randMat(33, 70, 11);
    const B = randMat(70, 19, 12);
    const C0 = randMat(33, 19, 13);
    const C: Mat = { rows: 33, cols: 19, data: C0.data.slice() };
    gemm(tA ? transpose(A) : A, tB ? transpose(B) : B, C, {
      transA: tA,
      transB: tB,
      alpha: -0.5,
      beta: 2,
    });
    const AB = naiveMul(A, B);
    const ref: Mat = {
      rows: 33,
      cols: 19,
      data: AB.data.map((x, i) => -0.5 * x + 2 * C0.data[i]!),
    };
    expect(maxDiff(C, ref)).toBeLessThanOrEqual(TOL * fro(A) * fro(B) + 1e-15 * fro(C0));
  });

  it('β = 0 ignores NaN in C; α = 0 scales C only', () => {
    const A = randMat(4, 5, 1);
    const B = randMat(5, 6, 2);
    const C: Mat = { rows: 4, cols: 6, data: new Float64Array(24).fill(NaN) };
    gemm(A, B, C);
    expectProduct(C, A, B);
    const before = C.data.slice();
    gemm(A, B, C, { alpha: 0, beta: 3 });
    expect(Array.from(C.data)).toEqual(Array.from(before, (x) => 3 * x));
  });

  it('rejects inner dimensions that differ', () => {
    const C: Mat = { rows: 2, cols: 2, data: new Float64Array(4) };
    expect(() => gemm(randMat(2, 3, 1), randMat(2, 2, 2), C, { transB: true })).toThrow(
      /gemm: inner dimensions differ, 2x3 · 2x2ᵀ/,
    );
  });
});

describe('syrk', () => {
  it.each([
    [1, 1],
    [7, 5],
    [300, 130],
    [40, 200],
    [6, 800],
  ])('AᵀA for A %i×%i, exactly symmetric', (m, k) => {
    const A = randMat(m, k, m + 31 * k);
    const C = syrk(A);
    expectProduct(C, transpose(A), A);
    let asymmetric = 0;
    for (let i = 0; i < k; i++)
      for (let j = 0; j < i; j++) if (at(C, i, j) !== at(C, j, i)) asymmetric++;
    expect(asymmetric).toBe(0);
  });

  it('overwrites a given out', () => {
    const A = randMat(20, 9, 3);
    const out: Mat = { rows: 9, cols: 9, data: new Float64Array(81).fill(NaN) };
    expect(syrk(A, out)).toBe(out);
    expectProduct(out, transpose(A), A);
  });
});
