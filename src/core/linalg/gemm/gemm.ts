/**
 * Dense matrix products, C ← α·op(A)·op(B) + β·C with op(X) = X or Xᵀ, on row-major `Mat`s: the
 * public entry points, which check shapes and send each product to a path. With the wasm kernels
 * (wasm.ts, the default wherever WebAssembly SIMD runs), α = 1, β = 0 products go to the
 * tall-skinny kernels when their shape fits (tall.ts) and otherwise to the packed Goto/BLIS path
 * (layout.ts, wasm.ts); without them, or after `setGemmBackend('ts')`, to one plain loop
 * (plain.ts). On the 'wasm' and 'ts' backends every path forms each product and sum as separate
 * IEEE operations, in order of k: for k ≤ KP, α = 1 and β = 0 all give the plain triple loop's
 * bits exactly. On 'fma' (the default where relaxed SIMD runs and fuses: Electron; Node 20 only
 * with --experimental-wasm-relaxed-simd) every wasm path, packed and tall-skinny alike, makes
 * each step one fused multiply-add instead, so for k ≤ KP, α = 1 and β = 0 every entry is the
 * fused sequential dot product from +0 in order of k, on every path; it differs from the plain
 * loop's within 2γ_k·Σ|a||b| (γ_k = ku/(1 − ku)).
 * Cost 2mnk flops. A product into a given `out` allocates nothing (the wasm memory grows only
 * when a product needs a deeper or wider B panel than any before, up to its cap).
 */
import { resultMat } from '../dense';
import type { Mat } from '../types';
import type { PackedLhs, Strided } from './layout';
import { productPlain, scaleBlock } from './plain';
import { tallProduct } from './tall';
import { productWasm, wasmKernel } from './wasm';

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
  if (alpha === 1 && beta === 0 && k > 0 && m > 0 && n > 0) {
    const w = wasmKernel();
    if (w) {
      if (tallProduct(w, m, n, k, A, transA, B, transB, C, true)) return;
      productWasm(w, m, n, k, 1, A, transA, B, transB, C, false, true);
      return;
    }
  }
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
  const w = A.rows > 0 ? wasmKernel() : null;
  const cs: Strided = { data: c, offset: 0, ld: k };
  if (w && tallProduct(w, k, k, A.rows, a, true, a, false, cs, false)) return C;
  if (A.rows > 0) product(k, k, A.rows, 1, a, true, a, false, cs, true);
  for (let i = 1; i < k; i++) for (let j = 0; j < i; j++) c[i * k + j] = c[j * k + i]!;
  return C;
}

/**
 * C (m×n) += α·op(A)·op(B) on the selected backend. With `upper` (syrk, m = n), only the
 * entries on and above the diagonal are guaranteed: micro-tiles lying wholly below it are
 * skipped, and the caller mirrors the upper triangle.
 */
function product(
  m: number,
  n: number,
  k: number,
  alpha: number,
  A: Strided | PackedLhs,
  transA: boolean,
  B: Strided,
  transB: boolean,
  C: Strided,
  upper: boolean,
): void {
  const w = wasmKernel();
  if (w) productWasm(w, m, n, k, alpha, A, transA, B, transB, C, upper);
  else productPlain(m, n, k, alpha, A, transA, B, transB, C, upper);
}

/**
 * C (m×n) ← α·op(A)·op(B) + β·C from op(A) packed by `packLhs`: the same result, bit for bit,
 * as `gemm` with A, without repacking A. C must not share memory with B.
 */
export function gemmPacked(
  P: PackedLhs,
  B: Mat,
  C: Mat,
  opts: Omit<GemmOptions, 'transA'> = {},
): Mat {
  const { transB = false, alpha = 1, beta = 0 } = opts;
  const kB = transB ? B.cols : B.rows;
  const n = transB ? B.rows : B.cols;
  if (P.k !== kB) {
    throw new Error(
      `gemmPacked: inner dimensions differ, ${P.m}x${P.k} · ${B.rows}x${B.cols}${transB ? 'ᵀ' : ''}`,
    );
  }
  resultMat(P.m, n, C, 'gemmPacked', [B]);
  const c: Strided = { data: C.data, offset: 0, ld: n };
  const b: Strided = { data: B.data, offset: 0, ld: B.cols };
  if (alpha === 1 && beta === 0 && P.k > 0 && P.m > 0 && n > 0) {
    const w = wasmKernel();
    if (w) {
      productWasm(w, P.m, n, P.k, 1, P, false, b, transB, c, false, true);
      return C;
    }
  }
  scaleBlock(P.m, n, beta, c);
  if (alpha !== 0 && P.k > 0 && P.m > 0 && n > 0)
    product(P.m, n, P.k, alpha, P, false, b, transB, c, false);
  return C;
}
