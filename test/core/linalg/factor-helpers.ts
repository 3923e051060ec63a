/** Shared by the factorisation tests (chol, lu, ldl): fixtures and residuals. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, naiveMul, randMat } from '../../helpers/mat';

export interface JsonMat {
  rows: number;
  cols: number;
  data: number[];
}

export const toMat = (m: JsonMat): Mat => ({
  rows: m.rows,
  cols: m.cols,
  data: Float64Array.from(m.data),
});

/** test/fixtures/linalg/factor.json, made by factor.py (scipy/LAPACK). */
export const fixture = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/linalg/factor.json'), 'utf8'),
) as Record<'chol' | 'lu' | 'ldl', (Record<string, JsonMat> & { name: string; perm?: number[] })[]>;

/** ‖A·X − B‖_F / (‖A‖_F·‖X‖_F), the normwise backward error of a computed solve. */
export function solveResidual(A: Mat, X: Mat, B: Mat): number {
  const AX = naiveMul(A, X);
  const R: Mat = { rows: B.rows, cols: B.cols, data: AX.data.map((v, k) => v - B.data[k]!) };
  return fro(R) / (fro(A) * fro(X));
}

/** G·Gᵀ + n·I for G uniform in [−1, 1): symmetric positive definite, well conditioned. */
export function randSpd(n: number, seed: number): Mat {
  const G = randMat(n, n, seed);
  const A = naiveMul(G, { rows: n, cols: n, data: transposeData(G) });
  for (let i = 0; i < n; i++) A.data[i * n + i]! += n;
  return A;
}

function transposeData(G: Mat): Float64Array {
  const t = new Float64Array(G.rows * G.cols);
  for (let i = 0; i < G.rows; i++)
    for (let j = 0; j < G.cols; j++) t[j * G.rows + i] = G.data[i * G.cols + j]!;
  return t;
}
