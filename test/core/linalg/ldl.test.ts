/**
 * ldlFactor / ldlSolve (Bunch–Kaufman) against scipy's symmetric solve (factor.py →
 * factor.json; the factors themselves depend on the blocking, so only X is compared) and by
 * identities on sizes that cross the panel width (64): ‖P·A·Pᵀ − L·D·Lᵀ‖_F/‖A‖_F ≤ 8n·ε, D
 * block diagonal with non-overlapping 2×2 blocks, and the solve's backward error ≤ 8n·ε, on
 * indefinite matrices that need 2×2 pivots. A matrix with an exactly zero remaining column
 * throws NumericalError.
 */
import { describe, expect, it } from 'vitest';
import { NumericalError } from '../../../src/core/linalg/errors';
import { ldlFactor, ldlSolve, type Ldl } from '../../../src/core/linalg/ldl';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, maxDiff, naiveMul, randMat, randSym, transpose } from '../../helpers/mat';
import { fixture, solveResidual, toMat } from './factor-helpers';

const EPS = Number.EPSILON;

/** L·D·Lᵀ from the factors and P·A·Pᵀ. */
function rebuild(F: Ldl, A: Mat): { LDLt: Mat; PAPt: Mat } {
  const n = A.rows;
  const D: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let k = 0; k < n; k++) {
    D.data[k * n + k] = F.d[k]!;
    if (k + 1 < n) {
      D.data[(k + 1) * n + k] = F.e[k]!;
      D.data[k * n + k + 1] = F.e[k]!;
    }
  }
  const PAPt: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) PAPt.data[i * n + j] = A.data[F.perm[i]! * n + F.perm[j]!]!;
  return { LDLt: naiveMul(naiveMul(F.L, D), transpose(F.L)), PAPt };
}

describe('ldlFactor / ldlSolve', () => {
  it.each(fixture.ldl.map((c) => [c.name, c] as const))('matches scipy: %s', (_, c) => {
    const Xs = toMat(c.X!);
    const X = ldlSolve(ldlFactor(toMat(c.A!)), toMat(c.B!));
    expect(maxDiff(X, Xs)).toBeLessThanOrEqual(1e-11 * fro(Xs));
  });

  it.each([1, 2, 5, 63, 64, 65, 130, 200])('identities at n = %i (random symmetric)', (n) => {
    const A = randSym(n, 11 * n);
    const F = ldlFactor(A);
    const { LDLt, PAPt } = rebuild(F, A);
    expect(maxDiff(LDLt, PAPt)).toBeLessThanOrEqual(8 * n * EPS * fro(A));
    let blocks2 = 0;
    for (let k = 0; k + 1 < n; k++) {
      if (F.e[k] !== 0) {
        blocks2++;
        expect(F.e[k + 1] ?? 0).toBe(0); // blocks do not overlap
      }
    }
    if (n >= 63) expect(blocks2).toBeGreaterThan(0); // the 2×2 path is exercised
    const B = randMat(n, 6, n);
    expect(solveResidual(A, ldlSolve(F, B), B)).toBeLessThanOrEqual(8 * n * EPS);
  });

  it('zero diagonal [0 1; 1 0] needs one 2×2 block', () => {
    const A: Mat = { rows: 2, cols: 2, data: Float64Array.of(0, 1, 1, 0) };
    const F = ldlFactor(A);
    expect([F.d[0], F.e[0], F.d[1]]).toEqual([0, 1, 0]);
    const X = ldlSolve(F, { rows: 2, cols: 1, data: Float64Array.of(2, 3) });
    expect(Array.from(X.data)).toEqual([3, 2]);
  });

  it('reads only the lower triangle', () => {
    const A = randSym(70, 2);
    const junk: Mat = { rows: 70, cols: 70, data: A.data.slice() };
    for (let i = 0; i < 70; i++) for (let j = i + 1; j < 70; j++) junk.data[i * 70 + j] = NaN;
    expect(Array.from(ldlFactor(junk).L.data)).toEqual(Array.from(ldlFactor(A).L.data));
  });

  it('singular: NumericalError', () => {
    const A = randSym(6, 1);
    for (let i = 0; i < 6; i++) {
      A.data[i * 6 + 3] = 0;
      A.data[3 * 6 + i] = 0;
    }
    expect(() => ldlFactor(A)).toThrow(NumericalError);
    expect(() => ldlFactor(A)).toThrow(/singular \(step \d, column 3 of A, is zero\)/);
  });

  it('shape errors', () => {
    expect(() => ldlFactor(randMat(3, 4, 1))).toThrow(/expected square/);
    expect(() => ldlSolve(ldlFactor(randSym(4, 1)), randMat(3, 2, 1))).toThrow(/B has 3 rows/);
  });
});
