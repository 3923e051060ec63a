/** Orthonormalisation of tall-skinny blocks: QᵀQ = I and span(Q) ⊇ span(Y), even when Y is
 * ill-conditioned (shifted Cholesky-QR3, Householder fallback) or rank deficient. */
import { describe, expect, it } from 'vitest';
import {
  cholesky,
  householderQr,
  invertUpper,
  orthonormalise,
  orthWork,
} from '../../../src/core/linalg/orth';
import { matmul, matmulTA, matmulTB } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { prng } from '../../helpers/prng';
import { mat, orthError, sinMaxAngle } from '../../helpers/linalg';

function randomBlock(n: number, a: number, seed: number): Mat {
  const r = prng(seed);
  return mat(
    n,
    a,
    new Float64Array(n * a).map(() => r() - 0.5),
  );
}

/** sin of the largest angle between span(Y) and span(Q) after orthonormalising a copy of Y. */
function spanError(Y: Mat, Q: Mat): number {
  const copy = mat(Y.rows, Y.cols, Y.data);
  const ref = mat(Y.rows, Y.cols, new Float64Array(Y.data.length));
  householderQr(copy, ref, orthWork(Y.cols));
  return sinMaxAngle(ref, Q);
}

describe('orthonormalise', () => {
  it('Cholesky-QR2 on a well-conditioned block', () => {
    const Y = randomBlock(500, 8, 1);
    const Q = orthonormalise(mat(500, 8, Y.data), mat(500, 8, new Float64Array(4000)), orthWork(8));
    expect(orthError(Q)).toBeLessThan(1e-14);
    expect(spanError(Y, Q)).toBeLessThan(1e-12);
  });

  it('columns of wildly different lengths (a filtered block) stay accurate', () => {
    const Y = randomBlock(400, 6, 2);
    for (let i = 0; i < 400; i++) for (let j = 0; j < 6; j++) Y.data[i * 6 + j]! *= 10 ** (3 * j);
    const Q = orthonormalise(mat(400, 6, Y.data), mat(400, 6, new Float64Array(2400)), orthWork(6));
    expect(orthError(Q)).toBeLessThan(1e-14);
    expect(spanError(Y, Q)).toBeLessThan(1e-10);
  });

  it('an ill-conditioned block of even column norms (cond 1e9): shifted Cholesky-QR3', () => {
    // Y = U·diag(σ)·Wᵀ, U (n×a) and W (a×a) orthonormal, σ from 1 to 1e-9: column scaling
    // cannot help, Cholesky-QR2 refuses, the shifted pass has to carry it.
    const n = 400;
    const a = 12;
    const U = mat(n, a, new Float64Array(n * a));
    householderQr(randomBlock(n, a, 5), U, orthWork(a));
    const W = mat(a, a, new Float64Array(a * a));
    householderQr(randomBlock(a, a, 6), W, orthWork(a));
    for (let j = 0; j < a; j++) {
      const s = 10 ** ((-9 * j) / (a - 1));
      for (let i = 0; i < n; i++) U.data[i * a + j]! *= s;
    }
    const Y = matmulTB(U, W);
    const Q = orthonormalise(mat(n, a, Y.data), mat(n, a, new Float64Array(n * a)), orthWork(a));
    expect(orthError(Q)).toBeLessThan(1e-14);
    // The subspace of a cond-1e9 block is itself defined to about u·cond.
    expect(spanError(Y, Q)).toBeLessThan(1e-6);
    // Y = Q·(QᵀY) to rounding relative to ‖Y‖ (≈ 1).
    const back = matmul(Q, matmulTA(Q, Y));
    let worst = 0;
    for (let p = 0; p < n * a; p++) worst = Math.max(worst, Math.abs(back.data[p]! - Y.data[p]!));
    expect(worst).toBeLessThan(1e-13);
  });

  it('nearly dependent columns (1e-12 apart) still give an orthonormal Q', () => {
    const Y = randomBlock(300, 5, 3);
    for (let i = 0; i < 300; i++) Y.data[i * 5 + 4] = Y.data[i * 5]! + 1e-12 * Y.data[i * 5 + 4]!;
    const Q = orthonormalise(mat(300, 5, Y.data), mat(300, 5, new Float64Array(1500)), orthWork(5));
    expect(orthError(Q)).toBeLessThan(1e-14);
  });

  it('a rank-deficient block (a zero column) still gives orthonormal Q containing span(Y)', () => {
    const Y = randomBlock(50, 4, 4);
    for (let i = 0; i < 50; i++) Y.data[i * 4 + 2] = 0;
    const Q = mat(50, 4, new Float64Array(200));
    householderQr(mat(50, 4, Y.data), Q, orthWork(4));
    expect(orthError(Q)).toBeLessThan(1e-14);
    // Y = Q·(QᵀY): the projection reproduces Y.
    const C = mat(4, 4, new Float64Array(16));
    for (let a = 0; a < 4; a++)
      for (let b = 0; b < 4; b++) {
        let s = 0;
        for (let i = 0; i < 50; i++) s += Q.data[i * 4 + a]! * Y.data[i * 4 + b]!;
        C.data[a * 4 + b] = s;
      }
    const back = matmul(Q, C);
    for (let p = 0; p < 200; p++) expect(back.data[p]!).toBeCloseTo(Y.data[p]!, 13);
  });

  it('cholesky and invertUpper on a hand-checkable 2×2', () => {
    const G = Float64Array.from([4, 2, 2, 5]); // = RᵀR with R = [[2, 1], [0, 2]]
    expect(cholesky(G, 2)).toBe(2);
    expect(Array.from(G)).toEqual([2, 1, 0, 2]);
    invertUpper(G, 2);
    expect(Array.from(G)).toEqual([0.5, -0.25, 0, 0.5]);
    expect(cholesky(Float64Array.from([1, 2, 2, 1]), 2)).toBe(0); // indefinite
  });
});
