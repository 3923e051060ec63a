/**
 * luFactor / luSolve against scipy (factor.py → factor.json: dgetrf's permutation and packed
 * factors, unique under partial pivoting while no pivot candidates tie, and lu_solve's X) and
 * by identities on sizes that cross the recursion's leaves: ‖P·A − L·U‖_F/‖A‖_F ≤ 4n·ε,
 * |l_ij| ≤ 1 (partial pivoting), the solve's backward error ≤ 4n·ε. A singular matrix throws
 * NumericalError naming the column.
 */
import { describe, expect, it } from 'vitest';
import { NumericalError } from '../../../src/core/linalg/errors';
import { luFactor, luSolve, type Lu } from '../../../src/core/linalg/lu';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, maxDiff, naiveMul, randMat } from '../../helpers/mat';
import { fixture, solveResidual, toMat } from './factor-helpers';

const EPS = Number.EPSILON;

/** L (unit lower) and U (upper) unpacked from F. */
function unpack(F: Lu): { L: Mat; U: Mat } {
  const n = F.lu.rows;
  const L: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  const U: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = F.lu.data[i * n + j]!;
      if (j < i) L.data[i * n + j] = v;
      else U.data[i * n + j] = v;
    }
    L.data[i * n + i] = 1;
  }
  return { L, U };
}

const permuteRows = (A: Mat, perm: Int32Array): Mat => {
  const P: Mat = { rows: A.rows, cols: A.cols, data: new Float64Array(A.rows * A.cols) };
  perm.forEach((src, i) =>
    P.data.set(A.data.subarray(src * A.cols, (src + 1) * A.cols), i * A.cols),
  );
  return P;
};

describe('luFactor / luSolve', () => {
  it.each(fixture.lu.map((c) => [c.name, c] as const))('matches scipy: %s', (_, c) => {
    const A = toMat(c.A!);
    const F = luFactor(A);
    expect(Array.from(F.perm)).toEqual(c.perm);
    const LU = toMat(c.LU!);
    expect(maxDiff(F.lu, LU)).toBeLessThanOrEqual(1e-12 * fro(LU));
    const Xs = toMat(c.X!);
    expect(maxDiff(luSolve(F, toMat(c.B!)), Xs)).toBeLessThanOrEqual(1e-12 * fro(Xs));
  });

  it.each([1, 2, 31, 33, 64, 100, 257])('identities at n = %i', (n) => {
    const A = randMat(n, n, 3 * n + 1);
    const F = luFactor(A);
    expect(Array.from(F.perm).sort((a, b) => a - b)).toEqual(
      Array.from({ length: n }, (_, i) => i),
    );
    const { L, U } = unpack(F);
    for (const v of L.data) expect(Math.abs(v)).toBeLessThanOrEqual(1);
    expect(maxDiff(naiveMul(L, U), permuteRows(A, F.perm))).toBeLessThanOrEqual(
      4 * n * EPS * fro(A),
    );
    const B = randMat(n, 9, n);
    expect(solveResidual(A, luSolve(F, B), B)).toBeLessThanOrEqual(4 * n * EPS);
  });

  it('2×2 by hand: [1 2; 3 4] pivots on row 1', () => {
    const F = luFactor({ rows: 2, cols: 2, data: Float64Array.of(1, 2, 3, 4) });
    expect(Array.from(F.perm)).toEqual([1, 0]);
    expect(Array.from(F.lu.data)).toEqual([3, 4, 1 / 3, 2 - (1 / 3) * 4]);
  });

  it('singular: NumericalError naming the column', () => {
    // Column 2 = column 0 + column 1 in small integers: its remainder cancels exactly.
    const A: Mat = { rows: 3, cols: 3, data: Float64Array.of(1, 2, 3, 4, 8, 12, 2, 1, 3) };
    expect(() => luFactor(A)).toThrow(NumericalError);
    expect(() => luFactor(A)).toThrow(/singular \(zero pivot in column 2\)/);
    // A zero column past the first leaf.
    const big = randMat(80, 80, 5);
    for (let i = 0; i < 80; i++) big.data[i * 80 + 50] = 0;
    expect(() => luFactor(big)).toThrow(/column 50\)/);
  });

  it('shape errors', () => {
    expect(() => luFactor(randMat(3, 4, 1))).toThrow(/expected square/);
    expect(() => luSolve(luFactor(randMat(4, 4, 1)), randMat(3, 2, 1))).toThrow(/B has 3 rows/);
  });
});
