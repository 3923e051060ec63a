/**
 * LU factorisation with partial pivoting, P·A = L·U, and solves with it. Recursive on column
 * halves (Toledo, "Locality of reference in LU decomposition with partial pivoting", SIMAX
 * 1997): factor the left half of the panel, U₁₂ = L₁₁⁻¹·A₁₂ (trsm.ts), A₂₂ −= L₂₁·U₁₂ (GEMM),
 * factor A₂₂; panels of at most LEAF columns are factored by the plain right-looking loop.
 * Row interchanges swap whole rows of the row-major matrix (contiguous), so L's finished
 * columns and the unfinished part are permuted together, as LAPACK dgetrf's dlaswp does.
 * ≈ 2n³/3 flops, nearly all GEMM; a solve with r right-hand sides is 2n²·r flops.
 */
import { resultMat } from './dense';
import { NumericalError } from './errors';
import { gemmStrided, type Strided } from './gemm';
import { trsmLeft } from './trsm';
import type { Mat } from './types';

/** P·A = L·U: `lu` holds L strictly below the diagonal (unit diagonal implied) and U on and above. */
export interface Lu {
  /** n×n: L (unit lower, diagonal not stored) and U (upper) packed together. */
  readonly lu: Mat;
  /** Row i of P·A is row perm[i] of A. */
  readonly perm: Int32Array;
}

/** Panel width below which the factorisation is the plain loop. */
const LEAF = 32;

const sub = (X: Strided, i: number, j: number): Strided => ({
  data: X.data,
  offset: X.offset + i * X.ld + j,
  ld: X.ld,
});

/**
 * P·A = L·U for A (n×n) with partial pivoting (the largest |entry| of each column below the
 * diagonal is the pivot; ties keep the topmost). Throws `NumericalError` naming the first
 * column (0-based) whose pivot is exactly zero: A is singular (a column is a combination of
 * the earlier ones to working precision and its remainder cancels exactly). ≈ 2n³/3 flops.
 */
export function luFactor(A: Mat): Lu {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`luFactor: A is ${A.rows}x${A.cols}, expected square`);
  const lu: Mat = { rows: n, cols: n, data: A.data.slice(0, n * n) };
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  panel(lu.data, n, 0, n, perm);
  return { lu, perm };
}

/**
 * X (n×r) with A·X = B, from F = luFactor(A) and B (n×r): X = U⁻¹·L⁻¹·P·B. `out` (n×r, not
 * sharing memory with the factor or B) receives X when given. 2n²·r flops, mostly GEMM.
 */
export function luSolve(F: Lu, B: Mat, out?: Mat): Mat {
  const n = F.lu.rows;
  if (B.rows !== n) throw new Error(`luSolve: B has ${B.rows} rows, the factor is ${n}x${n}`);
  const r = B.cols;
  const X = resultMat(n, r, out, 'luSolve', [F.lu, B]);
  for (let i = 0; i < n; i++) {
    const src = F.perm[i]! * r;
    X.data.set(B.data.subarray(src, src + r), i * r);
  }
  const x: Strided = { data: X.data, offset: 0, ld: r };
  const t = { data: F.lu.data, offset: 0, ld: n, trans: false };
  trsmLeft(n, r, { ...t, lower: true, unit: true }, x);
  trsmLeft(n, r, { ...t, lower: false, unit: false }, x);
  return X;
}

/**
 * Factors the panel of columns c0 … c0+w−1, rows c0 … n−1 (its part above row c0 is already
 * U), of the n×n row-major a, swapping whole rows and recording them in perm.
 */
function panel(a: Float64Array, n: number, c0: number, w: number, perm: Int32Array): void {
  if (w <= LEAF) {
    panelLeaf(a, n, c0, w, perm);
    return;
  }
  const w1 = w >> 1;
  const w2 = w - w1;
  panel(a, n, c0, w1, perm);
  const A: Strided = { data: a, offset: c0 * n + c0, ld: n };
  // U₁₂ = L₁₁⁻¹·A₁₂ (w1×w2), then the rows below: A₂₂ −= L₂₁·U₁₂.
  trsmLeft(w1, w2, { ...A, lower: true, trans: false, unit: true }, sub(A, 0, w1));
  gemmStrided(
    n - c0 - w1,
    w2,
    w1,
    -1,
    sub(A, w1, 0),
    false,
    sub(A, 0, w1),
    false,
    1,
    sub(A, w1, w1),
  );
  panel(a, n, c0 + w1, w2, perm);
}

/** Right-looking LU of a narrow panel (columns c0 … c0+w−1, rows c0 …), with pivoting. */
function panelLeaf(a: Float64Array, n: number, c0: number, w: number, perm: Int32Array): void {
  for (let k = c0; k < c0 + w; k++) {
    let p = k;
    let big = Math.abs(a[k * n + k]!);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]!);
      if (v > big) {
        big = v;
        p = i;
      }
    }
    if (!(big > 0)) {
      const what = big === 0 ? 'is singular' : 'has a non-finite entry';
      throw new NumericalError(`luFactor: the matrix ${what} (zero pivot in column ${k})`);
    }
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = a[k * n + j]!;
        a[k * n + j] = a[p * n + j]!;
        a[p * n + j] = t;
      }
      const t = perm[k]!;
      perm[k] = perm[p]!;
      perm[p] = t;
    }
    const inv = 1 / a[k * n + k]!;
    const end = c0 + w;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const l = (a[ri + k]! *= inv);
      if (l === 0) continue;
      for (let j = k + 1, rk = k * n; j < end; j++) a[ri + j]! -= l * a[rk + j]!;
    }
  }
}
