/**
 * Thin factors: an n × w matrix (w ≤ 64) kept resident in the wasm kernel's memory for many
 * products with thin blocks, on the tall-skinny kernels (tall.ts).
 */
import { resultMat } from '../dense';
import type { Mat } from '../types';
import { gemm } from './gemm';
import { KP, type Strided } from './layout';
import { NN_ROWS, nnChunks, taChunks } from './tall';
import { reserve, residentCopy, W_B, wasmKernel } from './wasm';

/** Widest thin factor, and widest block, of the thin products (`thinFactor`). */
const THIN_MAX = 64;

/**
 * An n × w matrix (w ≤ 64) for many products Fᵀ·X and F·M with thin blocks (≤ 64 columns), as
 * CGL's H-step applies its low-rank factors: on the wasm backend it is copied once, row-major,
 * into a resident slot of the kernel's memory, and the products run on gemm.wat's `ta` and `nn`
 * over it (no packing, no padding of the block to multiples of 4 columns); elsewhere, and for
 * wider blocks, they are `gemm`'s. Either way each result has `gemm`'s bits. Slots are keyed by
 * handle: make a new one (`thinFactor`) whenever the matrix changes.
 */
export interface ThinFactor {
  readonly mat: Mat;
}

/**
 * A thin-product handle of A (n × w), or null when w > 64 or the products would not run on the
 * wasm kernel (pack A for `gemmPacked` instead).
 */
export function thinFactor(A: Mat): ThinFactor | null {
  return A.cols <= THIN_MAX && wasmKernel() !== null ? { mat: A } : null;
}

/** T (w × b) = Fᵀ·X for X (n × b); returns T. `matmulTA(F.mat, X, T)`, bit for bit. */
export function thinTA(F: ThinFactor, X: Mat, T: Mat): Mat {
  const A = F.mat;
  const [n, wd, b] = [A.rows, A.cols, X.cols];
  if (X.rows !== n) throw new Error(`thinTA: (${n}x${wd})ᵀ · ${X.rows}x${b}`);
  resultMat(wd, b, T, 'thinTA', [A, X]);
  const w = n > 0 && wd > 0 && b > 0 && b <= THIN_MAX ? wasmKernel() : null;
  const at = w ? residentCopy(w, F, A.data.subarray(0, n * wd), 8) : null;
  if (!w || at === null) return gemm(A, X, T, { transA: true });
  // X's chunks in the B panel's region (see `taChunks`).
  reserve(w, W_B + 8 * (Math.min(KP, n) * b + 8));
  const t: Strided = { data: T.data, offset: 0, ld: b };
  taChunks(w, n, wd, { data: X.data, offset: 0, ld: b }, W_B, t, true, (q0) => at + 8 * q0 * wd);
  return T;
}

/** Y (n × b) = F·M for M (w × b); returns Y. `matmul(F.mat, M, Y)`, bit for bit. */
export function thinNN(F: ThinFactor, M: Mat, Y: Mat): Mat {
  const A = F.mat;
  const [n, wd, b] = [A.rows, A.cols, M.cols];
  if (M.rows !== wd) throw new Error(`thinNN: ${n}x${wd} · ${M.rows}x${b}`);
  resultMat(n, b, Y, 'thinNN', [A, M]);
  const w = n > 0 && wd > 0 && b > 0 && b <= THIN_MAX ? wasmKernel() : null;
  const at = w ? residentCopy(w, F, A.data.subarray(0, n * wd), 8) : null;
  if (!w || at === null) return gemm(A, M, Y);
  // C's chunks in the B panel's region (see `nnChunks`).
  reserve(w, W_B + 8 * (NN_ROWS * b + 8));
  const m: Strided = { data: M.data, offset: 0, ld: b };
  const y: Strided = { data: Y.data, offset: 0, ld: b };
  nnChunks(w, n, wd, b, m, false, W_B, y, (i0) => at + 8 * i0 * wd);
  return Y;
}
