/**
 * The narrow kernel interface every solver calls for dense and sparse products and small
 * dense decompositions. Shapes are in the names: `matmul` is C = A·B, `matmulTA` is C = Aᵀ·B,
 * `matmulTB` is C = A·Bᵀ; `out`, when given, is overwritten (and must have the result's shape),
 * so iteration loops allocate once. A faster backend (WASM SIMD, threads) replaces these bodies
 * without touching a caller.
 *
 * PLACEHOLDER BODIES: straightforward loops and ml-matrix, correct but slow. Issue 3 replaces
 * them with register-blocked kernels and in-house decompositions.
 */
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import type { Csr, Mat } from './types';

function target(rows: number, cols: number, out: Mat | undefined, what: string): Mat {
  if (!out) return { rows, cols, data: new Float64Array(rows * cols) };
  if (out.rows !== rows || out.cols !== cols) {
    throw new Error(`${what}: out is ${out.rows}x${out.cols}, expected ${rows}x${cols}`);
  }
  out.data.fill(0);
  return out;
}

/** C (m×n) = A (m×k) · B (k×n). */
export function matmul(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.cols !== B.rows) throw new Error(`matmul: ${A.rows}x${A.cols} · ${B.rows}x${B.cols}`);
  const C = target(A.rows, B.cols, out, 'matmul');
  for (let i = 0; i < A.rows; i++)
    for (let p = 0; p < A.cols; p++) {
      const a = A.data[i * A.cols + p]!;
      for (let j = 0; j < B.cols; j++) C.data[i * B.cols + j]! += a * B.data[p * B.cols + j]!;
    }
  return C;
}

/** C (k×n) = Aᵀ · B for A (m×k), B (m×n), without forming Aᵀ. */
export function matmulTA(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.rows !== B.rows) throw new Error(`matmulTA: (${A.rows}x${A.cols})ᵀ · ${B.rows}x${B.cols}`);
  const C = target(A.cols, B.cols, out, 'matmulTA');
  for (let p = 0; p < A.rows; p++)
    for (let i = 0; i < A.cols; i++) {
      const a = A.data[p * A.cols + i]!;
      for (let j = 0; j < B.cols; j++) C.data[i * B.cols + j]! += a * B.data[p * B.cols + j]!;
    }
  return C;
}

/** C (m×n) = A · Bᵀ for A (m×k), B (n×k), without forming Bᵀ. */
export function matmulTB(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.cols !== B.cols) throw new Error(`matmulTB: ${A.rows}x${A.cols} · (${B.rows}x${B.cols})ᵀ`);
  const C = target(A.rows, B.rows, out, 'matmulTB');
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < B.rows; j++) {
      let s = 0;
      for (let p = 0; p < A.cols; p++) s += A.data[i * A.cols + p]! * B.data[j * B.cols + p]!;
      C.data[i * B.rows + j] = s;
    }
  return C;
}

/** C (k×k) = Aᵀ·A for A (m×k): symmetric rank-k update. */
export function syrk(A: Mat, out?: Mat): Mat {
  return matmulTA(A, A, out);
}

/** C (m×n) = S (m×k, CSR) · B (k×n). */
export function spmm(S: Csr, B: Mat, out?: Mat): Mat {
  if (S.cols !== B.rows) throw new Error(`spmm: ${S.rows}x${S.cols} · ${B.rows}x${B.cols}`);
  const C = target(S.rows, B.cols, out, 'spmm');
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      const a = S.data[p]!;
      const r = S.indices[p]! * B.cols;
      for (let j = 0; j < B.cols; j++) C.data[i * B.cols + j]! += a * B.data[r + j]!;
    }
  return C;
}

/** C (k×n) = Sᵀ · B for S (m×k, CSR), B (m×n). */
export function spmmTA(S: Csr, B: Mat, out?: Mat): Mat {
  if (S.rows !== B.rows) throw new Error(`spmmTA: (${S.rows}x${S.cols})ᵀ · ${B.rows}x${B.cols}`);
  const C = target(S.cols, B.cols, out, 'spmmTA');
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      const a = S.data[p]!;
      const r = S.indices[p]! * B.cols;
      for (let j = 0; j < B.cols; j++) C.data[r + j]! += a * B.data[i * B.cols + j]!;
    }
  return C;
}

const toMl = (A: Mat): Matrix => {
  const M = new Matrix(A.rows, A.cols);
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < A.cols; j++) M.set(i, j, A.data[i * A.cols + j]!);
  return M;
};
const fromMl = (M: Matrix): Mat => ({
  rows: M.rows,
  cols: M.columns,
  data: Float64Array.from(M.to1DArray()),
});

/**
 * Symmetric eigendecomposition of A (n×n): A = V·diag(values)·Vᵀ, values ascending,
 * eigenvectors in the columns of V (orthonormal).
 */
export function symEig(A: Mat): { values: Float64Array; vectors: Mat } {
  const e = new EigenvalueDecomposition(toMl(A), { assumeSymmetric: true });
  const values = Float64Array.from(e.realEigenvalues);
  const V = fromMl(e.eigenvectorMatrix);
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
  const sorted = new Float64Array(values.length);
  const vectors: Mat = { rows: V.rows, cols: V.cols, data: new Float64Array(V.data.length) };
  order.forEach((src, dst) => {
    sorted[dst] = values[src]!;
    for (let i = 0; i < V.rows; i++) vectors.data[i * V.cols + dst] = V.data[i * V.cols + src]!;
  });
  return { values: sorted, vectors };
}

/**
 * Thin SVD of A (m×n): A = U·diag(s)·Vᵀ with r = min(m, n), U (m×r), V (n×r), s descending.
 */
export function thinSvd(A: Mat): { U: Mat; s: Float64Array; V: Mat } {
  const svd = new SingularValueDecomposition(toMl(A), { autoTranspose: true });
  return {
    U: fromMl(svd.leftSingularVectors),
    s: Float64Array.from(svd.diagonal),
    V: fromMl(svd.rightSingularVectors),
  };
}

/**
 * Orthogonal Procrustes: the polar factor U·Vᵀ of B (m×n, m ≥ n or m ≤ n) from its thin SVD.
 * For B = 0 this returns the first columns/rows of the identity (LAPACK returns U = I, V = I
 * for a zero matrix; the IMVC-CBG reference depends on it).
 */
export function procrustes(B: Mat): Mat {
  const { U, V } = thinSvd(B);
  return matmulTB(U, V);
}
