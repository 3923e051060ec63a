/**
 * Sparse (CSR) × dense products. Both walk S row by row and, for each stored entry, run a
 * contiguous axpy over a row of the dense operand, so the inner loop scans memory sequentially
 * and its length is the dense width n. Cost 2·nnz(S)·n flops; no allocation when `out` is
 * given.
 */
import { resultMat } from './dense';
import type { Csr, Mat } from './types';

/** C (m×n) = S (m×k, CSR) · B (k×n): row i of C is Σ_p S[i, col_p] · B[col_p, :]. */
export function spmm(S: Csr, B: Mat, out?: Mat): Mat {
  if (S.cols !== B.rows) throw new Error(`spmm: ${S.rows}x${S.cols} · ${B.rows}x${B.cols}`);
  const C = resultMat(S.rows, B.cols, out, 'spmm', [S, B]);
  const n = B.cols;
  const { indptr, indices, data } = S;
  const b = B.data;
  const c = C.data;
  for (let i = 0; i < S.rows; i++) {
    const ci = i * n;
    c.fill(0, ci, ci + n);
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const v = data[p]!;
      const bj = indices[p]! * n;
      for (let j = 0; j < n; j++) c[ci + j]! += v * b[bj + j]!;
    }
  }
  return C;
}

/**
 * C (k×n) = Sᵀ · B for S (m×k, CSR), B (m×n), without forming Sᵀ: each entry S[i, j] scatters
 * S[i, j] · B[i, :] into row j of C.
 */
export function spmmTA(S: Csr, B: Mat, out?: Mat): Mat {
  if (S.rows !== B.rows) throw new Error(`spmmTA: (${S.rows}x${S.cols})ᵀ · ${B.rows}x${B.cols}`);
  const C = resultMat(S.cols, B.cols, out, 'spmmTA', [S, B]);
  const n = B.cols;
  const { indptr, indices, data } = S;
  const b = B.data;
  const c = C.data;
  c.fill(0, 0, S.cols * n);
  for (let i = 0; i < S.rows; i++) {
    const bi = i * n;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const v = data[p]!;
      const cj = indices[p]! * n;
      for (let j = 0; j < n; j++) c[cj + j]! += v * b[bi + j]!;
    }
  }
  return C;
}
