/**
 * Cholesky factorisation A = L·Lᵀ of a symmetric positive definite A (n×n) and solves with it,
 * recursive (Gustavson 1997; Toledo's recursive LU): with A = [A₁₁ ·; A₂₁ A₂₂] split in halves,
 * L₁₁ = chol(A₁₁), L₂₁ = A₂₁·L₁₁⁻ᵀ (trsm.ts), L₂₂ = chol(A₂₂ − L₂₁·L₂₁ᵀ), so nearly all of the
 * n³/3 flops are GEMM updates; blocks of at most LEAF columns are factored by the plain
 * row-oriented loop. Only the lower triangle of A is read (LAPACK dpotrf 'L').
 * The solve A·X = B (B n×r) is two blocked triangular solves, 2·n²·r flops.
 */
import { resultMat } from './dense';
import { NumericalError } from './errors';
import { gemmStrided, type Strided } from './gemm';
import { trsmLeft, trsmRight } from './trsm';
import type { Mat } from './types';

/** Order below which the factorisation is the plain loop. */
const LEAF = 48;
/** Order below which the symmetric update works on its whole (square) block. */
const SYRK_LEAF = 128;

const sub = (X: Strided, i: number, j: number): Strided => ({
  data: X.data,
  offset: X.offset + i * X.ld + j,
  ld: X.ld,
});

/**
 * The lower-triangular L (n×n, zeros above the diagonal) with A = L·Lᵀ, for A (n×n) symmetric
 * positive definite; only A's lower triangle is read. Throws `NumericalError` naming the first
 * pivot (0-based column j) whose Schur complement a_jj − Σ l_jp² is not positive (A not
 * positive definite to working precision, or not finite). ≈ n³/3 flops, mostly GEMM.
 */
export function choleskyFactor(A: Mat): Mat {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`choleskyFactor: A is ${A.rows}x${A.cols}, expected square`);
  const L: Mat = { rows: n, cols: n, data: A.data.slice(0, n * n) };
  factor(n, { data: L.data, offset: 0, ld: n }, 0);
  for (let i = 0; i < n; i++) L.data.fill(0, i * n + i + 1, (i + 1) * n);
  return L;
}

/**
 * X (n×r) with L·Lᵀ·X = B, for L from `choleskyFactor` and B (n×r); `out` (n×r, not sharing
 * memory with L or B) receives X when given. 2·n²·r flops, mostly GEMM.
 */
export function choleskySolve(L: Mat, B: Mat, out?: Mat): Mat {
  const n = L.rows;
  if (L.cols !== n) throw new Error(`choleskySolve: L is ${L.rows}x${L.cols}, expected square`);
  if (B.rows !== n) throw new Error(`choleskySolve: B has ${B.rows} rows, L is ${n}x${n}`);
  const r = B.cols;
  const X = resultMat(n, r, out, 'choleskySolve', [L, B]);
  X.data.set(B.data.subarray(0, n * r));
  const x: Strided = { data: X.data, offset: 0, ld: r };
  const l = { data: L.data, offset: 0, ld: n, lower: true, unit: false };
  trsmLeft(n, r, { ...l, trans: false }, x);
  trsmLeft(n, r, { ...l, trans: true }, x);
  return X;
}

/**
 * In-place Cholesky of the lower triangle of the n×n block A (strided); `at` is the block's
 * first global column, for the error message. The strict upper triangle may be overwritten.
 */
function factor(n: number, A: Strided, at: number): void {
  if (n <= LEAF) {
    factorLeaf(n, A, at);
    return;
  }
  const n1 = n >> 1;
  const n2 = n - n1;
  factor(n1, A, at);
  const A21 = sub(A, n1, 0);
  trsmRight(n2, n1, { ...A, lower: true, trans: true, unit: false }, A21);
  syrkLower(n2, n1, A21, sub(A, n1, n1));
  factor(n2, sub(A, n1, n1), at + n1);
}

/**
 * Lower triangle of C (n×n) −= A·Aᵀ, A n×k: the off-diagonal block by one GEMM, the diagonal
 * blocks by recursion, so ≈ n²·k flops instead of the full product's 2n²·k.
 */
function syrkLower(n: number, k: number, A: Strided, C: Strided): void {
  if (n <= SYRK_LEAF) {
    gemmStrided(n, n, k, -1, A, false, A, true, 1, C);
    return;
  }
  const n1 = n >> 1;
  const n2 = n - n1;
  syrkLower(n1, k, A, C);
  gemmStrided(n2, n1, k, -1, sub(A, n1, 0), false, A, true, 1, sub(C, n1, 0));
  syrkLower(n2, k, sub(A, n1, 0), sub(C, n1, n1));
}

/** Row-oriented Cholesky of a small block: l_ij = (a_ij − Σ_{p<j} l_ip·l_jp) / l_jj. */
function factorLeaf(n: number, A: Strided, at: number): void {
  const a = A.data;
  const ld = A.ld;
  for (let j = 0; j < n; j++) {
    const rj = A.offset + j * ld;
    for (let i = j; i < n; i++) {
      const ri = A.offset + i * ld;
      let s = a[ri + j]!;
      for (let p = 0; p < j; p++) s -= a[ri + p]! * a[rj + p]!;
      if (i === j) {
        if (!(s > 0)) {
          throw new NumericalError(
            `choleskyFactor: the matrix is not positive definite (pivot ${at + j} is ${s})`,
          );
        }
        a[rj + j] = Math.sqrt(s);
      } else a[ri + j] = s / a[rj + j]!;
    }
  }
}
