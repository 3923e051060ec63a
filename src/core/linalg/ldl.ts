/**
 * Symmetric indefinite factorisation P·A·Pᵀ = L·D·Lᵀ with Bunch–Kaufman pivoting (Bunch &
 * Kaufman, Math. Comp. 1977; α = (1 + √17)/8 bounds the element growth), blocked as LAPACK
 * dsytrf/dlasyf: a panel of NB columns is factored with its Schur-complement updates delayed
 * (each column is brought up to date from the panel's finished columns when it is needed),
 * keeping W = L·D for the panel; the trailing matrix is then updated once by GEMM,
 * A₂₂ −= L₂₁·W₂₁ᵀ. The working copy keeps both triangles, so a symmetric interchange is two
 * contiguous-row and two column swaps. D is block diagonal with 1×1 and 2×2 blocks.
 * ≈ n³/3 flops in the panels' matrix–vector work plus the trailing GEMMs (2n³/3, whole
 * square blocks); a solve with r right-hand sides is 2n²·r flops, mostly GEMM.
 */
import { resultMat } from './dense';
import { NumericalError } from './errors';
import { gemmStrided, type Strided } from './gemm';
import { trsmLeft } from './trsm';
import type { Mat } from './types';

/** P·A·Pᵀ = L·D·Lᵀ. */
export interface Ldl {
  /** n×n unit lower triangular (zeros above the diagonal). */
  readonly L: Mat;
  /** D's diagonal. */
  readonly d: Float64Array;
  /** D's subdiagonal: e[k] = D[k+1, k], non-zero only where (k, k+1) is a 2×2 block. */
  readonly e: Float64Array;
  /** (P·A·Pᵀ)[i, j] = A[perm[i], perm[j]]. */
  readonly perm: Int32Array;
}

/** Bunch–Kaufman's α = (1 + √17)/8. */
const ALPHA = (1 + Math.sqrt(17)) / 8;
/** Panel width. */
const NB = 64;

/**
 * P·A·Pᵀ = L·D·Lᵀ for a symmetric A (n×n; only the lower triangle is read). Throws
 * `NumericalError` naming the step (and A's column) whose remaining column is exactly zero:
 * A is singular there. O(n³).
 */
export function ldlFactor(A: Mat): Ldl {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`ldlFactor: A is ${A.rows}x${A.cols}, expected square`);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = A.data[i * n + j]!;
      a[i * n + j] = v;
      a[j * n + i] = v;
    }
  }
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const wc = NB + 1;
  const w = new Float64Array(n * wc);
  for (let j0 = 0; j0 < n;) {
    const k = panel(a, n, j0, w, wc, d, e, perm);
    const kb = k - j0;
    const nt = n - k;
    if (nt > 0 && kb > 0) {
      const L21: Strided = { data: a, offset: k * n + j0, ld: n };
      const W21: Strided = { data: w, offset: k * wc, ld: wc };
      gemmStrided(nt, nt, kb, -1, L21, false, W21, true, 1, { data: a, offset: k * n + k, ld: n });
    }
    j0 = k;
  }
  for (let i = 0; i < n; i++) {
    a[i * n + i] = 1;
    a.fill(0, i * n + i + 1, (i + 1) * n);
  }
  return { L: { rows: n, cols: n, data: a }, d, e, perm };
}

/**
 * X (n×r) with A·X = B, from F = ldlFactor(A) and B (n×r): X = Pᵀ·L⁻ᵀ·D⁻¹·L⁻¹·P·B. `out`
 * (n×r, not sharing memory with the factor or B) receives X when given. 2n²·r flops.
 */
export function ldlSolve(F: Ldl, B: Mat, out?: Mat): Mat {
  const n = F.L.rows;
  if (B.rows !== n) throw new Error(`ldlSolve: B has ${B.rows} rows, the factor is ${n}x${n}`);
  const r = B.cols;
  const X = resultMat(n, r, out, 'ldlSolve', [F.L, B]);
  const y = new Float64Array(n * r);
  for (let i = 0; i < n; i++) y.set(B.data.subarray(F.perm[i]! * r, F.perm[i]! * r + r), i * r);
  const Y: Strided = { data: y, offset: 0, ld: r };
  const l = { data: F.L.data, offset: 0, ld: n, lower: true, unit: true };
  trsmLeft(n, r, { ...l, trans: false }, Y);
  for (let k = 0; k < n; k++) {
    if (k + 1 < n && F.e[k] !== 0) {
      // 2×2 block [a b; b c]: its inverse is [c −b; −b a]/(ac − b²).
      const a = F.d[k]!;
      const b = F.e[k]!;
      const c = F.d[k + 1]!;
      const det = a * c - b * b;
      for (let j = 0; j < r; j++) {
        const u = y[k * r + j]!;
        const v = y[(k + 1) * r + j]!;
        y[k * r + j] = (c * u - b * v) / det;
        y[(k + 1) * r + j] = (a * v - b * u) / det;
      }
      k++;
    } else {
      const inv = 1 / F.d[k]!;
      for (let j = 0; j < r; j++) y[k * r + j]! *= inv;
    }
  }
  trsmLeft(n, r, { ...l, trans: true }, Y);
  for (let i = 0; i < n; i++) X.data.set(y.subarray(i * r, i * r + r), F.perm[i]! * r);
  return X;
}

/**
 * Factors columns j0 … (at most NB of them, one more to finish a 2×2 block) of the working
 * matrix a (n×n, both triangles), leaving L in the columns below the diagonal, D in d/e and W
 * (rows ≥ j0, panel column c at w[i·wc + c]) for the trailing update. Returns the first
 * column not factored.
 */
function panel(
  a: Float64Array,
  n: number,
  j0: number,
  w: Float64Array,
  wc: number,
  d: Float64Array,
  e: Float64Array,
  perm: Int32Array,
): number {
  let k = j0;
  while (k < n && k - j0 < NB) {
    const c = k - j0;
    updatedColumn(a, n, j0, k, k, w, wc, c);
    const absakk = Math.abs(w[k * wc + c]!);
    let colmax = 0;
    let imax = k;
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(w[i * wc + c]!);
      if (v > colmax) {
        colmax = v;
        imax = i;
      }
    }
    if (!(Math.max(absakk, colmax) > 0)) {
      throw new NumericalError(
        `ldlFactor: the matrix is singular (step ${k}, column ${perm[k]} of A, is zero)`,
      );
    }
    let size = 1;
    let kp = k;
    if (absakk < ALPHA * colmax) {
      // Column imax brought up to date into panel column c + 1 (rows ≥ k).
      updatedColumn(a, n, j0, k, imax, w, wc, c + 1);
      let rowmax = 0;
      for (let i = k; i < n; i++)
        if (i !== imax) rowmax = Math.max(rowmax, Math.abs(w[i * wc + c + 1]!));
      if (absakk * rowmax >= ALPHA * colmax * colmax) kp = k;
      else if (Math.abs(w[imax * wc + c + 1]!) >= ALPHA * rowmax) {
        kp = imax;
        for (let i = k; i < n; i++) w[i * wc + c] = w[i * wc + c + 1]!;
      } else {
        kp = imax;
        size = 2;
      }
    }
    const kk = k + size - 1;
    if (kp !== kk) swapSym(a, n, w, wc, perm, kk, kp);
    if (size === 1) {
      const dk = w[k * wc + c]!;
      d[k] = dk;
      for (let i = k + 1; i < n; i++) a[i * n + k] = w[i * wc + c]! / dk;
    } else {
      // [w_k w_{k+1}]·D⁻¹ with D = [p q; q s] in dlasyf's scaled form.
      const q = w[(k + 1) * wc + c]!;
      const d11 = w[(k + 1) * wc + c + 1]! / q;
      const d22 = w[k * wc + c]! / q;
      const t = 1 / (d11 * d22 - 1);
      const f = t / q;
      d[k] = w[k * wc + c]!;
      d[k + 1] = w[(k + 1) * wc + c + 1]!;
      e[k] = q;
      for (let i = k + 2; i < n; i++) {
        const wk = w[i * wc + c]!;
        const wk1 = w[i * wc + c + 1]!;
        a[i * n + k] = f * (d11 * wk - wk1);
        a[i * n + k + 1] = f * (d22 * wk1 - wk);
      }
      a[(k + 1) * n + k] = 0;
    }
    k += size;
  }
  return k;
}

/**
 * Panel column c of w (rows k … n−1) ← column col of the working matrix brought up to date with
 * the panel's finished columns j0 … k−1: a[i, col] − Σ_q L[i, q]·W[col, q].
 */
function updatedColumn(
  a: Float64Array,
  n: number,
  j0: number,
  k: number,
  col: number,
  w: Float64Array,
  wc: number,
  c: number,
): void {
  const nq = k - j0;
  const wr = col * wc;
  for (let i = k; i < n; i++) {
    let s = a[i * n + col]!;
    const li = i * n + j0;
    for (let q = 0; q < nq; q++) s -= a[li + q]! * w[wr + q]!;
    w[i * wc + c] = s;
  }
}

/** Symmetric interchange of indices p < q: rows and columns of a, rows of w, entries of perm. */
function swapSym(
  a: Float64Array,
  n: number,
  w: Float64Array,
  wc: number,
  perm: Int32Array,
  p: number,
  q: number,
): void {
  for (let j = 0; j < n; j++) {
    const t = a[p * n + j]!;
    a[p * n + j] = a[q * n + j]!;
    a[q * n + j] = t;
  }
  for (let i = 0; i < n; i++) {
    const t = a[i * n + p]!;
    a[i * n + p] = a[i * n + q]!;
    a[i * n + q] = t;
  }
  for (let j = 0; j < wc; j++) {
    const t = w[p * wc + j]!;
    w[p * wc + j] = w[q * wc + j]!;
    w[q * wc + j] = t;
  }
  const t = perm[p]!;
  perm[p] = perm[q]!;
  perm[q] = t;
}
