/**
 * Sparse (CSR) × dense products, and the CSR transpose. Both products walk S row by row; the
 * dense width n is taken four columns at a time, held in registers (spmm: four accumulators of
 * C's row over the row's entries; spmmTA: four entries of B's row scattered by each stored
 * entry), which beats an axpy per entry for the narrow widths solvers use (n = k ≈ 5..20). Cost
 * 2·nnz(S)·n flops; no allocation when `out` is given.
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
  const n4 = n - (n % 4);
  for (let i = 0; i < S.rows; i++) {
    const ci = i * n;
    const p0 = indptr[i]!;
    const p1 = indptr[i + 1]!;
    // Four output columns at a time, accumulated in registers over the row's entries.
    for (let j = 0; j < n4; j += 4) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let p = p0; p < p1; p++) {
        const v = data[p]!;
        const bj = indices[p]! * n + j;
        s0 += v * b[bj]!;
        s1 += v * b[bj + 1]!;
        s2 += v * b[bj + 2]!;
        s3 += v * b[bj + 3]!;
      }
      c[ci + j] = s0;
      c[ci + j + 1] = s1;
      c[ci + j + 2] = s2;
      c[ci + j + 3] = s3;
    }
    for (let j = n4; j < n; j++) {
      let s0 = 0;
      for (let p = p0; p < p1; p++) s0 += data[p]! * b[indices[p]! * n + j]!;
      c[ci + j] = s0;
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
  const n4 = n - (n % 4);
  for (let i = 0; i < S.rows; i++) {
    const bi = i * n;
    const p0 = indptr[i]!;
    const p1 = indptr[i + 1]!;
    // Four columns of B's row i held in registers while the row's entries scatter them.
    for (let j = 0; j < n4; j += 4) {
      const b0 = b[bi + j]!;
      const b1 = b[bi + j + 1]!;
      const b2 = b[bi + j + 2]!;
      const b3 = b[bi + j + 3]!;
      for (let p = p0; p < p1; p++) {
        const v = data[p]!;
        const cj = indices[p]! * n + j;
        c[cj]! += v * b0;
        c[cj + 1]! += v * b1;
        c[cj + 2]! += v * b2;
        c[cj + 3]! += v * b3;
      }
    }
    for (let j = n4; j < n; j++) {
      const bj = b[bi + j]!;
      for (let p = p0; p < p1; p++) c[indices[p]! * n + j]! += data[p]! * bj;
    }
  }
  return C;
}

/**
 * Sᵀ (cols × rows) of S (rows × cols), as CSR with the column indices of every row ascending
 * (a counting sort by column, the rows of S visited in order). O(nnz + rows + cols).
 */
export function transposeCsr(S: Csr): Csr {
  const { rows, cols, indptr, indices, data } = S;
  const nz = indptr[rows]!;
  const tp = new Int32Array(cols + 1);
  for (let p = 0; p < nz; p++) tp[indices[p]! + 1]!++;
  for (let j = 0; j < cols; j++) tp[j + 1]! += tp[j]!;
  const next = tp.slice(0, cols);
  const ti = new Int32Array(nz);
  const td = new Float64Array(nz);
  for (let i = 0; i < rows; i++)
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const q = next[indices[p]!]!++;
      ti[q] = i;
      td[q] = data[p]!;
    }
  return { rows: cols, cols: rows, indptr: tp, indices: ti, data: td };
}

/** The nonzero entries of a dense M (rows × cols) as CSR, columns ascending. O(rows·cols). */
export function csrFromDense(M: Mat): Csr {
  const { rows, cols, data } = M;
  let nz = 0;
  for (let p = 0; p < rows * cols; p++) if (data[p] !== 0) nz++;
  const indptr = new Int32Array(rows + 1);
  const indices = new Int32Array(nz);
  const values = new Float64Array(nz);
  let q = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const x = data[i * cols + j]!;
      if (x === 0) continue;
      indices[q] = j;
      values[q++] = x;
    }
    indptr[i + 1] = q;
  }
  return { rows, cols, indptr, indices, data: values };
}
