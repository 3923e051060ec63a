/**
 * choleskyFactor / choleskySolve against scipy (factor.py → factor.json: dpotrf's L, which is
 * unique, and cho_solve's X) and by identities on sizes that cross the recursion's leaves:
 * ‖A − L·Lᵀ‖_F/‖A‖_F ≤ 4n·ε, L lower triangular with a positive diagonal, and the solve's
 * backward error ‖A·X − B‖/(‖A‖‖X‖) ≤ 4n·ε. A matrix that is not positive definite throws
 * NumericalError naming the pivot.
 */
import { describe, expect, it } from 'vitest';
import { choleskyFactor, choleskySolve } from '../../../src/core/linalg/chol';
import { NumericalError } from '../../../src/core/linalg/errors';
import type { Mat } from '../../../src/core/linalg/types';
import { at, fro, maxDiff, naiveMul, randMat, transpose } from '../../helpers/mat';
import { fixture, randSpd, solveResidual, toMat } from './factor-helpers';

const EPS = Number.EPSILON;

describe('choleskyFactor / choleskySolve', () => {
  it.each(fixture.chol.map((c) => [c.name, c] as const))('matches scipy: %s', (_, c) => {
    const A = toMat(c.A!);
    const L = choleskyFactor(A);
    const n = A.rows;
    // L is unique: entries agree to ≈ κ(A)·n·ε relative to ‖L‖ (κ ≤ 10 here).
    expect(maxDiff(L, toMat(c.L!))).toBeLessThanOrEqual(1e-13 * fro(L));
    const X = choleskySolve(L, toMat(c.B!));
    const Xs = toMat(c.X!);
    expect(maxDiff(X, Xs)).toBeLessThanOrEqual(1e-13 * fro(Xs));
    expect(n).toBe(L.rows);
  });

  it.each([1, 2, 31, 48, 49, 97, 130, 300])('identities at n = %i', (n) => {
    const A = randSpd(n, n + 7);
    const L = choleskyFactor(A);
    for (let i = 0; i < n; i++) {
      expect(at(L, i, i)).toBeGreaterThan(0);
      for (let j = i + 1; j < n; j++) expect(at(L, i, j)).toBe(0);
    }
    const LLt = naiveMul(L, transpose(L));
    expect(maxDiff(LLt, A)).toBeLessThanOrEqual(4 * n * EPS * fro(A));
    const B = randMat(n, 37, n);
    const X = choleskySolve(L, B);
    expect(solveResidual(A, X, B)).toBeLessThanOrEqual(4 * n * EPS);
  });

  it('reads only the lower triangle', () => {
    const A = randSpd(70, 3);
    const junk: Mat = { rows: 70, cols: 70, data: A.data.slice() };
    for (let i = 0; i < 70; i++) for (let j = i + 1; j < 70; j++) junk.data[i * 70 + j] = NaN;
    expect(Array.from(choleskyFactor(junk).data)).toEqual(Array.from(choleskyFactor(A).data));
  });

  it('2×2 by hand: [4 2; 2 5] = L·Lᵀ with L = [2 0; 1 2]', () => {
    const L = choleskyFactor({ rows: 2, cols: 2, data: Float64Array.of(4, 2, 2, 5) });
    expect(Array.from(L.data)).toEqual([2, 0, 1, 2]);
    const X = choleskySolve(L, { rows: 2, cols: 1, data: Float64Array.of(6, 7) });
    expect(Array.from(X.data)).toEqual([1, 1]);
  });

  it('not positive definite: NumericalError naming the pivot', () => {
    // Leading 2×2 block positive definite, then a_22 − Σ l² = 1 − 4 < 0 at pivot 2.
    const A: Mat = { rows: 3, cols: 3, data: Float64Array.of(1, 0, 2, 0, 1, 0, 2, 0, 1) };
    expect(() => choleskyFactor(A)).toThrow(NumericalError);
    expect(() => choleskyFactor(A)).toThrow(/not positive definite \(pivot 2 /);
    // A failing pivot deep in the recursion (past the first leaf) is named by its global index.
    const big = randSpd(120, 9);
    big.data[100 * 120 + 100] = -1e6;
    expect(() => choleskyFactor(big)).toThrow(/pivot 100 /);
    const nan = randSpd(5, 1);
    nan.data[0] = NaN;
    expect(() => choleskyFactor(nan)).toThrow(/pivot 0 /);
  });

  it('shape errors', () => {
    expect(() => choleskyFactor(randMat(3, 4, 1))).toThrow(/expected square/);
    const L = choleskyFactor(randSpd(4, 1));
    expect(() => choleskySolve(L, randMat(5, 2, 1))).toThrow(/B has 5 rows/);
  });
});
