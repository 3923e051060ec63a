/**
 * Dense matrix products, C ← α·op(A)·op(B) + β·C with op(X) = X or Xᵀ, on row-major `Mat`s.
 *
 * Layout of the computation (the Goto/BLIS scheme, in plain TypeScript):
 * - k is cut in slices of KC, n in panels of NC and m in blocks of MC, so a packed block of
 *   op(A) (MC×KC, 256 KiB) stays in L2 and a packed sliver of op(B) (KC×3, 6 KiB) in L1 while
 *   the micro-kernel sweeps down the A block;
 * - packing copies op(A) into slivers of MR = 4 rows and op(B) into slivers of NR = 3 columns,
 *   each "k-major" (the values of one k step are adjacent), so the micro-kernel reads both
 *   strictly sequentially whatever the transposition: a transpose is paid for once per block in
 *   the packing copy, never materialised; edges are zero-padded, so the kernel's loop has no
 *   edge cases;
 * - the 4×3 micro-kernel keeps its 12 sums in registers: 24 flops per 7 loads.
 * Cost 2mnk flops; 3–4.5 GFLOP/s on one core here (bench medians vary with the machine's load),
 * against 0.5 for ml-matrix (toolchain.md).
 * The packing buffers are fixed module-level scratch (1.75 MiB), so a product into a given
 * `out` allocates nothing, and V8 compiles their bounds as constants.
 */
import { resultMat } from './dense';
import type { Mat } from './types';

/** Micro-tile rows and columns (the packing and the micro-kernel are written out for 4×3). */
const MR = 4;
const NR = 3;
/** Cache blocking: depth of a packed slice, rows of a packed A block, columns of a B panel. */
const KC = 256;
const MC = 128;
const NC = 768;

const PACK_A = new Float64Array(MC * KC);
const PACK_B = new Float64Array(KC * NC);

/**
 * A strided view of a row-major matrix, as BLAS passes it: element (i, j) is
 * data[offset + i·ld + j]. Lets the decompositions multiply sub-blocks in place.
 */
export interface Strided {
  readonly data: Float64Array;
  readonly offset: number;
  readonly ld: number;
}

/** Options of `gemm`: C ← alpha·op(A)·op(B) + beta·C, op(X) = Xᵀ when `transX`. */
export interface GemmOptions {
  readonly transA?: boolean;
  readonly transB?: boolean;
  /** Default 1. */
  readonly alpha?: number;
  /** Default 0: C's previous contents are ignored (even NaN). */
  readonly beta?: number;
}

/**
 * General product C (m×n) ← α·op(A)·op(B) + β·C, with op(A) m×k and op(B) k×n: A is m×k, or
 * k×m when `transA`; B is k×n, or n×k when `transB`. C must not share memory with A or B.
 * O(mnk) time; no array is allocated.
 */
export function gemm(A: Mat, B: Mat, C: Mat, opts: GemmOptions = {}): Mat {
  const { transA = false, transB = false, alpha = 1, beta = 0 } = opts;
  const m = transA ? A.cols : A.rows;
  const k = transA ? A.rows : A.cols;
  const kB = transB ? B.cols : B.rows;
  const n = transB ? B.rows : B.cols;
  if (k !== kB) {
    const shape = (X: Mat, t: boolean): string => `${X.rows}x${X.cols}${t ? 'ᵀ' : ''}`;
    throw new Error(`gemm: inner dimensions differ, ${shape(A, transA)} · ${shape(B, transB)}`);
  }
  resultMat(m, n, C, 'gemm', [A, B]);
  const view = (X: Mat): Strided => ({ data: X.data, offset: 0, ld: X.cols });
  gemmStrided(m, n, k, alpha, view(A), transA, view(B), transB, beta, view(C));
  return C;
}

/**
 * C (m×n) ← α·op(A)·op(B) + β·C on strided views (op(A) m×k, op(B) k×n), the BLAS dgemm
 * contract: no shape checks, C must not overlap A or B. β = 0 ignores C's previous contents.
 * O(mnk); no array is allocated.
 */
export function gemmStrided(
  m: number,
  n: number,
  k: number,
  alpha: number,
  A: Strided,
  transA: boolean,
  B: Strided,
  transB: boolean,
  beta: number,
  C: Strided,
): void {
  scaleBlock(m, n, beta, C);
  if (alpha !== 0 && k > 0 && m > 0 && n > 0)
    product(m, n, k, alpha, A, transA, B, transB, C, false);
}

/** C (m×n) = A (m×k) · B (k×n). O(mnk). */
export function matmul(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.cols !== B.rows) throw new Error(`matmul: ${A.rows}x${A.cols} · ${B.rows}x${B.cols}`);
  return gemm(A, B, resultMat(A.rows, B.cols, out, 'matmul', [A, B]));
}

/** C (k×n) = Aᵀ · B for A (m×k), B (m×n), without forming Aᵀ. O(mnk). */
export function matmulTA(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.rows !== B.rows) throw new Error(`matmulTA: (${A.rows}x${A.cols})ᵀ · ${B.rows}x${B.cols}`);
  return gemm(A, B, resultMat(A.cols, B.cols, out, 'matmulTA', [A, B]), { transA: true });
}

/** C (m×n) = A · Bᵀ for A (m×k), B (n×k), without forming Bᵀ. O(mnk). */
export function matmulTB(A: Mat, B: Mat, out?: Mat): Mat {
  if (A.cols !== B.cols) throw new Error(`matmulTB: ${A.rows}x${A.cols} · (${B.rows}x${B.cols})ᵀ`);
  return gemm(A, B, resultMat(A.rows, B.rows, out, 'matmulTB', [A, B]), { transB: true });
}

/**
 * C (k×k) = Aᵀ·A for A (m×k): symmetric rank-m update. Only the micro-tiles that touch the
 * upper triangle are computed (≈ mk² flops instead of 2mk²); the lower triangle is then
 * mirrored, so C is exactly symmetric.
 */
export function syrk(A: Mat, out?: Mat): Mat {
  const k = A.cols;
  const C = resultMat(k, k, out, 'syrk', [A]);
  const c = C.data;
  c.fill(0, 0, k * k);
  const a: Strided = { data: A.data, offset: 0, ld: k };
  if (A.rows > 0) product(k, k, A.rows, 1, a, true, a, false, { data: c, offset: 0, ld: k }, true);
  for (let i = 1; i < k; i++) for (let j = 0; j < i; j++) c[i * k + j] = c[j * k + i]!;
  return C;
}

/** C (m×n) ← β·C, with β = 0 writing exact zeros. */
function scaleBlock(m: number, n: number, beta: number, C: Strided): void {
  if (beta === 1) return;
  const { data: c, offset, ld } = C;
  for (let i = 0; i < m; i++) {
    const r = offset + i * ld;
    if (beta === 0) c.fill(0, r, r + n);
    else for (let j = r; j < r + n; j++) c[j]! *= beta;
  }
}

/**
 * C (m×n) += α·op(A)·op(B), the blocked driver. With `upper`, micro-tiles lying wholly below
 * the diagonal are skipped (for syrk, m = n).
 */
function product(
  m: number,
  n: number,
  k: number,
  alpha: number,
  A: Strided,
  transA: boolean,
  B: Strided,
  transB: boolean,
  C: Strided,
  upper: boolean,
): void {
  const { data: c, offset: c0, ld: ldc } = C;
  for (let j0 = 0; j0 < n; j0 += NC) {
    const nb = Math.min(NC, n - j0);
    for (let p0 = 0; p0 < k; p0 += KC) {
      const kb = Math.min(KC, k - p0);
      packPanelB(B, transB, p0, kb, j0, nb);
      for (let i0 = 0; i0 < m && !(upper && i0 >= j0 + nb); i0 += MC) {
        const mb = Math.min(MC, m - i0);
        packPanelA(A, transA, i0, mb, p0, kb);
        for (let j = 0; j < nb; j += NR) {
          const nr = Math.min(NR, nb - j);
          // With `upper`, rows below the tile's last column are not needed.
          const iEnd = upper ? Math.min(mb, j0 + j + nr - i0) : mb;
          for (let i = 0; i < iEnd; i += MR) {
            const mr = Math.min(MR, mb - i);
            const cOff = c0 + (i0 + i) * ldc + j0 + j;
            microKernel(kb, i * kb, j * kb, alpha, c, cOff, ldc, mr, nr);
          }
        }
      }
    }
  }
}

/**
 * Packs op(A)[i0 : i0+mb, p0 : p0+kb] into PACK_A as ⌈mb/MR⌉ slivers of MR rows: sliver s holds
 * op(A)[i0 + MR·s + t, p0 + p] at PACK_A[s·MR·kb + MR·p + t], zero for rows past mb. Untransposed
 * A is read along MR rows at once, transposed A along contiguous stretches of its rows.
 */
function packPanelA(
  A: Strided,
  transA: boolean,
  i0: number,
  mb: number,
  p0: number,
  kb: number,
): void {
  const { data: a, offset, ld: lda } = A;
  const dst = PACK_A;
  let o = 0;
  for (let i = 0; i < mb; i += MR) {
    const rows = Math.min(MR, mb - i);
    const r0 = i0 + i;
    if (rows === MR && !transA) {
      let s0 = offset + r0 * lda + p0;
      let s1 = s0 + lda;
      let s2 = s1 + lda;
      let s3 = s2 + lda;
      for (let p = 0; p < kb; p++, o += MR) {
        dst[o] = a[s0++]!;
        dst[o + 1] = a[s1++]!;
        dst[o + 2] = a[s2++]!;
        dst[o + 3] = a[s3++]!;
      }
    } else if (rows === MR) {
      for (let p = 0, s = offset + p0 * lda + r0; p < kb; p++, o += MR, s += lda) {
        dst[o] = a[s]!;
        dst[o + 1] = a[s + 1]!;
        dst[o + 2] = a[s + 2]!;
        dst[o + 3] = a[s + 3]!;
      }
    } else {
      for (let p = 0; p < kb; p++, o += MR) {
        for (let t = 0; t < MR; t++) {
          const src = offset + (transA ? (p0 + p) * lda + r0 + t : (r0 + t) * lda + p0 + p);
          dst[o + t] = t < rows ? a[src]! : 0;
        }
      }
    }
  }
}

/**
 * Packs op(B)[p0 : p0+kb, j0 : j0+nb] into PACK_B as ⌈nb/NR⌉ slivers of NR columns: sliver s
 * holds op(B)[p0 + p, j0 + NR·s + t] at PACK_B[s·NR·kb + NR·p + t], zero for columns past nb.
 */
function packPanelB(
  B: Strided,
  transB: boolean,
  p0: number,
  kb: number,
  j0: number,
  nb: number,
): void {
  const { data: b, offset, ld: ldb } = B;
  const dst = PACK_B;
  let o = 0;
  for (let j = 0; j < nb; j += NR) {
    const cols = Math.min(NR, nb - j);
    const c0 = j0 + j;
    if (cols === NR && !transB) {
      for (let p = 0, s = offset + p0 * ldb + c0; p < kb; p++, o += NR, s += ldb) {
        dst[o] = b[s]!;
        dst[o + 1] = b[s + 1]!;
        dst[o + 2] = b[s + 2]!;
      }
    } else if (cols === NR) {
      let s0 = offset + c0 * ldb + p0;
      let s1 = s0 + ldb;
      let s2 = s1 + ldb;
      for (let p = 0; p < kb; p++, o += NR) {
        dst[o] = b[s0++]!;
        dst[o + 1] = b[s1++]!;
        dst[o + 2] = b[s2++]!;
      }
    } else {
      for (let p = 0; p < kb; p++, o += NR) {
        for (let t = 0; t < NR; t++) {
          const src = offset + (transB ? (c0 + t) * ldb + p0 + p : (p0 + p) * ldb + c0 + t);
          dst[o + t] = t < cols ? b[src]! : 0;
        }
      }
    }
  }
}

/** The 12 sums of an edge micro-tile, row-major, on their way from the registers to C. */
const TILE = new Float64Array(MR * NR);

/**
 * c[cOff + r·ldc + s] += α · Σ_p A[ia + 4p + r] · B[ib + 3p + s] for r < mr, s < nr (A, B the
 * packing buffers): one 4×3 tile of the product from a packed A sliver and a packed B sliver of
 * depth kb. The 12 partial sums, the 4 A values and the B value in flight fill the 16 vector
 * registers (4×4 would spill); each k step does 7 loads and 12 multiply-adds. Indices are
 * advanced with `| 0` so V8 computes them as int32 without overflow checks, and the buffers are
 * module constants so their bounds are compile-time constants.
 */
function microKernel(
  kb: number,
  ia: number,
  ib: number,
  alpha: number,
  c: Float64Array,
  cOff: number,
  ldc: number,
  mr: number,
  nr: number,
): void {
  const a = PACK_A;
  const b = PACK_B;
  // prettier-ignore
  let c00 = 0, c01 = 0, c02 = 0, c10 = 0, c11 = 0, c12 = 0,
      c20 = 0, c21 = 0, c22 = 0, c30 = 0, c31 = 0, c32 = 0;
  for (const end = ia + MR * kb; ia < end; ia = (ia + MR) | 0, ib = (ib + NR) | 0) {
    const x0 = a[ia]!;
    const x1 = a[(ia + 1) | 0]!;
    const x2 = a[(ia + 2) | 0]!;
    const x3 = a[(ia + 3) | 0]!;
    let y = b[ib]!;
    c00 += x0 * y;
    c10 += x1 * y;
    c20 += x2 * y;
    c30 += x3 * y;
    y = b[(ib + 1) | 0]!;
    c01 += x0 * y;
    c11 += x1 * y;
    c21 += x2 * y;
    c31 += x3 * y;
    y = b[(ib + 2) | 0]!;
    c02 += x0 * y;
    c12 += x1 * y;
    c22 += x2 * y;
    c32 += x3 * y;
  }
  if (mr === MR && nr === NR) {
    // Full tile: straight from the registers into C.
    let o = cOff;
    c[o]! += alpha * c00;
    c[o + 1]! += alpha * c01;
    c[o + 2]! += alpha * c02;
    o += ldc;
    c[o]! += alpha * c10;
    c[o + 1]! += alpha * c11;
    c[o + 2]! += alpha * c12;
    o += ldc;
    c[o]! += alpha * c20;
    c[o + 1]! += alpha * c21;
    c[o + 2]! += alpha * c22;
    o += ldc;
    c[o]! += alpha * c30;
    c[o + 1]! += alpha * c31;
    c[o + 2]! += alpha * c32;
    return;
  }
  // Edge tile: through TILE, only the rows and columns inside C.
  const t = TILE;
  // prettier-ignore
  {
    t[0] = c00; t[1] = c01; t[2] = c02; t[3] = c10; t[4] = c11; t[5] = c12;
    t[6] = c20; t[7] = c21; t[8] = c22; t[9] = c30; t[10] = c31; t[11] = c32;
  }
  for (let r = 0; r < mr; r++) {
    const o = cOff + r * ldc;
    for (let s = 0; s < nr; s++) c[o + s]! += alpha * t[r * NR + s]!;
  }
}
