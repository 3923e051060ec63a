/** Reference arithmetic for the linalg tests: plain loops, no blocking, nothing clever. */
import type { Mat } from '../../src/core/linalg/types';
import { prng } from './prng';

/** A rows×cols matrix with entries uniform in [−1, 1) from a seeded PRNG. */
export function randMat(rows: number, cols: number, seed: number): Mat {
  const r = prng(seed);
  return { rows, cols, data: Float64Array.from({ length: rows * cols }, () => 2 * r() - 1) };
}

/** A random symmetric n×n matrix. */
export function randSym(n: number, seed: number): Mat {
  const A = randMat(n, n, seed);
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) A.data[i * n + j] = A.data[j * n + i]!;
  return A;
}

export function at(A: Mat, i: number, j: number): number {
  return A.data[i * A.cols + j]!;
}

/** Aᵀ by the definition. */
export function transpose(A: Mat): Mat {
  const T: Mat = { rows: A.cols, cols: A.rows, data: new Float64Array(A.rows * A.cols) };
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < A.cols; j++) T.data[j * A.rows + i] = at(A, i, j);
  return T;
}

/** A·B by the triple loop. */
export function naiveMul(A: Mat, B: Mat): Mat {
  const C: Mat = { rows: A.rows, cols: B.cols, data: new Float64Array(A.rows * B.cols) };
  for (let i = 0; i < A.rows; i++) {
    for (let j = 0; j < B.cols; j++) {
      let s = 0;
      for (let p = 0; p < A.cols; p++) s += at(A, i, p) * at(B, p, j);
      C.data[i * B.cols + j] = s;
    }
  }
  return C;
}

/** Frobenius norm, scaled so that tiny or huge entries neither underflow nor overflow. */
export function fro(A: Mat): number {
  let m = 0;
  for (let i = 0; i < A.rows * A.cols; i++) m = Math.max(m, Math.abs(A.data[i]!));
  if (m === 0) return 0;
  let s = 0;
  for (let i = 0; i < A.rows * A.cols; i++) s += (A.data[i]! / m) ** 2;
  return m * Math.sqrt(s);
}

/** max |A − B| over entries (shapes must agree). */
export function maxDiff(A: Mat, B: Mat): number {
  if (A.rows !== B.rows || A.cols !== B.cols) {
    throw new Error(`shape ${A.rows}x${A.cols} vs ${B.rows}x${B.cols}`);
  }
  let m = 0;
  for (let i = 0; i < A.rows * A.cols; i++) m = Math.max(m, Math.abs(A.data[i]! - B.data[i]!));
  return m;
}

/** max |QᵀQ − I|: how far the columns of Q are from orthonormal. */
export function orthoError(Q: Mat): number {
  const G = naiveMul(transpose(Q), Q);
  let m = 0;
  for (let i = 0; i < G.rows; i++) {
    for (let j = 0; j < G.cols; j++) m = Math.max(m, Math.abs(at(G, i, j) - (i === j ? 1 : 0)));
  }
  return m;
}

/** A·diag(d): column j of A scaled by d[j]. */
export function scaleCols(A: Mat, d: ArrayLike<number>): Mat {
  return { rows: A.rows, cols: A.cols, data: A.data.map((x, k) => x * d[k % A.cols]!) };
}
