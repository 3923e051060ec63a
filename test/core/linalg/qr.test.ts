/** Householder QR by its identities: A = Q·R, QᵀQ = I (1e-13 relative), R upper triangular. */
import { describe, expect, it } from 'vitest';
import { matmul, qr } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { at, fro, maxDiff, naiveMul, orthoError, randMat } from '../../helpers/mat';

function expectQr(A: Mat): void {
  const { Q, R } = qr(A);
  expect([Q.rows, Q.cols, R.rows, R.cols]).toEqual([A.rows, A.cols, A.cols, A.cols]);
  expect(maxDiff(naiveMul(Q, R), A)).toBeLessThanOrEqual(1e-13 * Math.max(fro(A), 1e-300));
  expect(orthoError(Q)).toBeLessThanOrEqual(1e-13);
  let below = 0;
  for (let i = 0; i < R.rows; i++) for (let j = 0; j < i; j++) if (at(R, i, j) !== 0) below++;
  expect(below).toBe(0);
}

describe('qr', () => {
  it.each([
    [1, 1],
    [5, 3],
    [50, 50],
    [500, 45],
    [200, 100],
  ])('%i×%i', (m, n) => expectQr(randMat(m, n, m + n)));

  it('rank-deficient and zero A keep Q orthonormal', () => {
    expectQr(matmul(randMat(30, 3, 1), randMat(3, 10, 2)));
    expectQr({ rows: 6, cols: 4, data: new Float64Array(24) });
  });

  it('rejects a wide A', () => {
    expect(() => qr(randMat(2, 3, 1))).toThrow(/qr: A is 2x3; thin QR needs rows >= cols/);
  });
});
