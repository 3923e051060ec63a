/**
 * Sylvester solvers against scipy.linalg.solve_sylvester (test/fixtures/linalg/sylvester.py →
 * sylvester.json: LAPACK Schur + dtrsyl, the general Bartels–Stewart method), plus the identity
 * A·X + X·B = C (backward error below 1e-14) and the singular case. Tolerance: max |X − X_scipy| ≤ 1e-10·max |X_scipy|
 * (both backward stable; the cases are well conditioned, gaps ≥ 0.05 against norms ≤ 20).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NumericalError } from '../../../src/core/linalg/errors';
import { matmul, matmulTB } from '../../../src/core/linalg/kernels';
import { sylvesterLowRank, sylvesterSymmetric } from '../../../src/core/linalg/sylvester';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, maxDiff, randMat } from '../../helpers/mat';

interface JsonMat {
  rows: number;
  cols: number;
  data: number[];
}
interface Case {
  name: string;
  alpha?: number;
  F?: JsonMat;
  A?: JsonMat;
  B: JsonMat;
  C: JsonMat;
  X: JsonMat;
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/linalg/sylvester.json'), 'utf8'),
) as { cases: Case[] };
const mat = (m: JsonMat): Mat => ({ rows: m.rows, cols: m.cols, data: Float64Array.from(m.data) });
const maxAbs = (M: Mat): number => M.data.reduce((a, x) => Math.max(a, Math.abs(x)), 0);

/** A = α·F·Fᵀ. */
function lowRank(alpha: number, F: Mat): Mat {
  const A = matmulTB(F, F);
  for (let p = 0; p < A.data.length; p++) A.data[p]! *= alpha;
  return A;
}

/** ‖A·X + X·B − C‖_F / ((‖A‖_F + ‖B‖_F)·‖X‖_F): the backward error, a few ε when stable. */
function residual(A: Mat, B: Mat, X: Mat, C: Mat): number {
  const L = matmul(A, X);
  const R = matmul(X, B);
  let r = 0;
  for (let p = 0; p < C.data.length; p++) r += (L.data[p]! + R.data[p]! - C.data[p]!) ** 2;
  return Math.sqrt(r) / ((fro(A) + fro(B)) * fro(X));
}

describe('Sylvester solvers against scipy.linalg.solve_sylvester', () => {
  it('has the dense and low-rank cases', () => {
    expect(fixture.cases.filter((c) => c.F).length).toBe(4);
    expect(fixture.cases.filter((c) => !c.F).length).toBe(3);
  });
  for (const c of fixture.cases) {
    const B = mat(c.B);
    const C = mat(c.C);
    const want = mat(c.X);
    const A = c.F ? lowRank(c.alpha!, mat(c.F)) : mat(c.A!);
    it(`${c.name}: sylvesterSymmetric`, () => {
      const X = sylvesterSymmetric(A, B, C);
      expect(maxDiff(X, want)).toBeLessThanOrEqual(1e-10 * maxAbs(want));
      expect(residual(A, B, X, C)).toBeLessThan(1e-14);
    });
    if (c.F) {
      it(`${c.name}: sylvesterLowRank equals scipy and the dense solver`, () => {
        const X = sylvesterLowRank(c.alpha!, mat(c.F!), B, C);
        expect(maxDiff(X, want)).toBeLessThanOrEqual(1e-10 * maxAbs(want));
        expect(maxDiff(X, sylvesterSymmetric(A, B, C))).toBeLessThanOrEqual(1e-11 * maxAbs(want));
        expect(residual(A, B, X, C)).toBeLessThan(1e-14);
      });
    }
  }
});

describe('Sylvester solvers: identities and errors', () => {
  it('alpha = 0 gives X = C·S⁻¹ (hand 2×2: S = diag(2, 4))', () => {
    const S: Mat = { rows: 2, cols: 2, data: Float64Array.of(2, 0, 0, 4) };
    const C: Mat = { rows: 3, cols: 2, data: Float64Array.of(2, 4, 6, 8, -2, 1) };
    const X = sylvesterLowRank(0, randMat(3, 1, 5), S, C);
    expect(Array.from(X.data)).toEqual([1, 1, 3, 2, -1, 0.25].map((x) => expect.closeTo(x, 14)));
  });

  it('a wide F (rank ≥ m) takes the dense route and solves the same equation', () => {
    const F = randMat(4, 6, 8);
    const S: Mat = { rows: 2, cols: 2, data: Float64Array.of(2, 0.5, 0.5, 1) };
    const C = randMat(4, 2, 9);
    const X = sylvesterLowRank(0.7, F, S, C);
    expect(maxDiff(X, sylvesterSymmetric(lowRank(0.7, F), S, C))).toBeLessThan(1e-14);
    expect(residual(lowRank(0.7, F), S, X, C)).toBeLessThan(1e-14);
  });

  it('refuses a singular equation (eigenvalues of A and B summing to zero)', () => {
    const A: Mat = { rows: 2, cols: 2, data: Float64Array.of(1, 0, 0, 2) };
    const B: Mat = { rows: 1, cols: 1, data: Float64Array.of(-2) };
    const C: Mat = { rows: 2, cols: 1, data: Float64Array.of(1, 1) };
    expect(() => sylvesterSymmetric(A, B, C)).toThrow(NumericalError);
    expect(() => sylvesterSymmetric(A, B, C)).toThrow(/singular/);
    const S: Mat = { rows: 1, cols: 1, data: Float64Array.of(0) };
    expect(() => sylvesterLowRank(1, randMat(3, 1, 2), S, randMat(3, 1, 3))).toThrow(/singular/);
  });

  it('names the shapes when C does not fit', () => {
    const S: Mat = { rows: 2, cols: 2, data: Float64Array.of(1, 0, 0, 1) };
    expect(() => sylvesterLowRank(1, randMat(4, 1, 1), S, randMat(3, 2, 1))).toThrow(
      /C is 3x2, expected 4x2/,
    );
  });
});
