/**
 * thinSvd and procrustes by their identities: ‖A − U·Σ·Vᵀ‖_F / ‖A‖_F, ‖UᵀU − I‖ and ‖VᵀV − I‖
 * all ≤ 1e-13 (a few r·ε), s descending and non-negative; the zero matrix gives the LAPACK
 * convention U = I, V = I. The numpy comparison lives in reference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { matmul, procrustes, thinSvd } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import {
  at,
  fro,
  maxDiff,
  naiveMul,
  orthoError,
  randMat,
  scaleCols,
  transpose,
} from '../../helpers/mat';

const TOL = 1e-13;

function expectSvd(A: Mat): ReturnType<typeof thinSvd> {
  const svd = thinSvd(A);
  const { U, s, V } = svd;
  const r = Math.min(A.rows, A.cols);
  expect([U.rows, U.cols, V.rows, V.cols, s.length]).toEqual([A.rows, r, A.cols, r, r]);
  for (let i = 0; i < r; i++) {
    expect(s[i]!).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]!).toBeLessThanOrEqual(s[i - 1]!);
  }
  const rebuilt = naiveMul(scaleCols(U, s), transpose(V));
  expect(maxDiff(rebuilt, A)).toBeLessThanOrEqual(TOL * Math.max(fro(A), Number.MIN_VALUE));
  expect(orthoError(U)).toBeLessThanOrEqual(TOL);
  expect(orthoError(V)).toBeLessThanOrEqual(TOL);
  return svd;
}

/** Σᵢ (QᵀB)ᵢᵢ. */
function traceQtB(Q: Mat, B: Mat): number {
  let t = 0;
  for (let i = 0; i < B.rows; i++) for (let j = 0; j < B.cols; j++) t += at(Q, i, j) * at(B, i, j);
  return t;
}

describe('thinSvd', () => {
  it.each([
    ['tall', 60, 7],
    ['wide', 7, 60],
    ['square', 30, 30],
    ['tall-skinny across two QR panels', 3000, 40],
    ['three QR panels', 300, 70],
    ['1×1', 1, 1],
    ['one row', 1, 9],
    ['one column', 9, 1],
  ])('%s (%i×%i)', (_, m, n) => {
    expectSvd(randMat(m, n, m * 100 + n));
  });

  it('2×2 by hand: diag(3, −4) has singular values 4, 3', () => {
    const { U, s, V } = expectSvd({ rows: 2, cols: 2, data: Float64Array.of(3, 0, 0, -4) });
    expect(Array.from(s)).toEqual([4, 3]);
    expect(Math.abs(at(U, 1, 0))).toBe(1);
    expect(Math.abs(at(V, 1, 0))).toBe(1);
  });

  it.each([
    [40, 12],
    [12, 40],
  ])('rank 5 (%i×%i): 5 non-zero singular values, the rest ≈ 0', (m, n) => {
    const A = matmul(randMat(m, 5, 1), randMat(5, n, 2));
    const { s } = expectSvd(A);
    expect(s[4]!).toBeGreaterThan(1e-3 * s[0]!);
    for (let i = 5; i < s.length; i++) expect(s[i]!).toBeLessThanOrEqual(1e-14 * s[0]!);
  });

  it('exact zero columns: their singular vectors are completed orthonormally', () => {
    const A = randMat(30, 12, 5);
    for (let i = 0; i < 30; i++) for (const j of [1, 4, 7, 10]) A.data[i * 12 + j] = 0;
    const { s } = expectSvd(A);
    expect(Array.from(s.subarray(8))).toEqual([0, 0, 0, 0]);
  });

  it.each([
    [5, 3],
    [3, 5],
  ])('the zero matrix (%i×%i): s = 0, U = I, V = I (LAPACK convention)', (m, n) => {
    const { U, s, V } = expectSvd({ rows: m, cols: n, data: new Float64Array(m * n) });
    expect(Array.from(s)).toEqual([0, 0, 0]);
    for (const X of [U, V]) {
      for (let i = 0; i < X.rows; i++)
        for (let j = 0; j < 3; j++) expect(at(X, i, j)).toBe(i === j ? 1 : 0);
    }
  });

  it('empty matrices', () => {
    const { U, s, V } = thinSvd({ rows: 0, cols: 4, data: new Float64Array(0) });
    expect([U.rows, U.cols, V.rows, V.cols, s.length]).toEqual([0, 0, 4, 0, 0]);
  });

  it('graded columns (1 … 1e-12): singular values to high relative accuracy', () => {
    // A = Q·D with orthonormal Q, so the singular values are exactly D's entries.
    const Q = thinSvd(randMat(20, 6, 8)).U;
    const d = [1, 1e-3, 1e-6, 1e-8, 1e-10, 1e-12];
    const { s } = expectSvd(scaleCols(Q, d));
    d.forEach((x, i) => expect(Math.abs(s[i]! - x) / x).toBeLessThanOrEqual(1e-10));
  });

  it('rejects non-finite entries', () => {
    const A = randMat(3, 3, 1);
    A.data[5] = Infinity;
    expect(() => thinSvd(A)).toThrow(/thinSvd: A has a non-finite entry/);
  });
});

describe('procrustes', () => {
  it.each([
    [9, 4],
    [4, 9],
    [6, 6],
  ])('%i×%i: orthonormal, and trace(QᵀB) = Σσ (the maximum) beats nearby orthonormal Q', (m, n) => {
    const B = randMat(m, n, m + 10 * n);
    const Q = procrustes(B);
    expect(orthoError(m >= n ? Q : transpose(Q))).toBeLessThanOrEqual(TOL);
    const nuclear = thinSvd(B).s.reduce((a, x) => a + x, 0);
    expect(Math.abs(traceQtB(Q, B) - nuclear)).toBeLessThanOrEqual(1e-13 * nuclear);
    // Any other orthonormal factor does worse: polar factors of perturbed B.
    for (let k = 0; k < 5; k++) {
      const P = randMat(m, n, 99 + k);
      const other = procrustes({
        rows: m,
        cols: n,
        data: B.data.map((x, i) => x + 0.3 * P.data[i]!),
      });
      expect(traceQtB(other, B)).toBeLessThan(traceQtB(Q, B));
    }
  });

  it.each([
    [3, 2, [1, 0, 0, 1, 0, 0]],
    [2, 3, [1, 0, 0, 0, 1, 0]],
    [2, 2, [1, 0, 0, 1]],
  ])('B = 0 (%i×%i) gives the first columns/rows of the identity', (m, n, expected) => {
    expect(
      Array.from(procrustes({ rows: m, cols: n, data: new Float64Array(m * n) }).data),
    ).toEqual(expected);
  });

  it('rank-deficient B: still orthonormal and still a maximiser of trace(QᵀB)', () => {
    const B = matmul(randMat(8, 2, 3), randMat(2, 5, 4));
    const Q = procrustes(B);
    expect(orthoError(Q)).toBeLessThanOrEqual(TOL);
    const nuclear = thinSvd(B).s.reduce((a, x) => a + x, 0);
    expect(Math.abs(traceQtB(Q, B) - nuclear)).toBeLessThanOrEqual(1e-13 * nuclear);
  });
});
