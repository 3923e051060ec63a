/**
 * Dense matrix products, C ← α·op(A)·op(B) + β·C with op(X) = X or Xᵀ, on row-major `Mat`s.
 *
 * Layout of the computation (the Goto/BLIS scheme):
 * - k is cut in slices of KC, n in panels of NC and m in blocks of MC, so a packed block of
 *   op(A) (MC×KC, 256 KiB) stays in L2 and a packed sliver of op(B) (KC×NR, 6–8 KiB) in L1 while
 *   the micro-kernel sweeps down the A block;
 * - packing copies op(A) into slivers of MR = 4 rows and op(B) into slivers of NR columns,
 *   each "k-major" (the values of one k step are adjacent), so the micro-kernel reads both
 *   strictly sequentially whatever the transposition: a transpose is paid for once per block in
 *   the packing copy, never materialised; edges are zero-padded, so the kernel's loop has no
 *   edge cases;
 * - the micro-kernel has two backends, the first that works chosen on first use
 *   (`setGemmBackend` overrides, for tests and benchmarks):
 *   - 'wasm', where the engine has WebAssembly SIMD (Node, Electron, current browsers):
 *     wasm/gemm.wat, 4×4 tiles (NR = 4) whose 16 sums live in 8 f64x2 registers, 32 flops per
 *     6 loads. The packing writes straight into the module's memory; the kernel sums the
 *     product of an A block and a B panel over up to KP = 1024 of depth into a tile buffer
 *     there, and TypeScript adds α times the buffer into C (`productWasm`). Its memory (2.5 MiB
 *     at first, at most 7 MiB) grows with k and is kept;
 *   - 'ts', the fallback: a 4×3 micro-kernel in plain TypeScript (NR = 3) whose 12 sums stay in
 *     registers, 24 flops per 7 loads, over fixed module-level packing scratch (1.75 MiB).
 *   Both form every product and sum as separate IEEE operations (no fused multiply-add), in
 *   order of k within a slice: for k ≤ KC, α = 1 and β = 0 both give the plain triple loop's
 *   bits exactly.
 * Cost 2mnk flops. Here, at 1000² and 2000² (bench medians), the wasm kernel does 10–11
 * GFLOP/s on a free core (4–7 with both cores busy with other work), about 3.5× the TypeScript
 * one (3–4.5), against 0.5 for ml-matrix and 35–50 for OpenBLAS on one thread.
 * A product into a given `out` allocates nothing (the wasm memory grows only when a product
 * needs a deeper or wider B panel than any before, up to its cap).
 */
import { resultMat } from './dense';
import type { Mat } from './types';
import { GEMM_WASM } from './wasm/gemm-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

/** Micro-tile rows and columns (the packing and the TS micro-kernel are written out for 4×3). */
const MR = 4;
const NR = 3;
/** Micro-tile columns of the wasm kernel (4×4: two f64x2 per row). */
const NRW = 4;
/** Cache blocking: depth of a packed slice, rows of a packed A block, columns of a B panel. */
const KC = 256;
const MC = 128;
const NC = 768;

const PACK_A = new Float64Array(MC * KC);
const roundUp4 = (x: number): number => (x + 3) & ~3;
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

/** C (m×n) ← β·C, with β = 0 writing exact zeros. */
function scaleBlock(m: number, n: number, beta: number, C: Strided): void {
  if (beta === 1) return;
  const { data: c, offset, ld } = C;
  if (beta === 0 && ld === n) {
    c.fill(0, offset, offset + m * n);
    return;
  }
  for (let i = 0; i < m; i++) {
    const r = offset + i * ld;
    if (beta === 0) c.fill(0, r, r + n);
    else for (let j = r; j < r + n; j++) c[j]! *= beta;
  }
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
  else productTs(m, n, k, alpha, A, transA, B, transB, C, upper);
}

/**
 * op(A) (m×k) packed once into the slivers both micro-kernels read (`packPanelA`'s layout), for
 * many products with different right-hand sides: the block of rows i0 … (multiple of MC) and
 * depths p0 … (multiple of KC) starts at i0·k + roundUp4(mb)·p0. A product from it copies each
 * block into place instead of packing it, and gives the same bits as the product from A.
 */
export interface PackedLhs {
  readonly m: number;
  readonly k: number;
  readonly packed: Float64Array;
}

/**
 * Packs op(A) (A m×k, or k×m when `transA`) for `gemmPacked`. O(mk) time and memory. With
 * `reuse`, its storage is overwritten: that handle must not be used afterwards.
 */
export function packLhs(A: Mat, transA = false, reuse?: PackedLhs | null): PackedLhs {
  const m = transA ? A.cols : A.rows;
  const k = transA ? A.rows : A.cols;
  const size = (Math.floor(m / MC) * MC + roundUp4(m % MC)) * k;
  // A new handle (the wasm kernel's resident copies are keyed by handle), over the old storage
  // when it is large enough: a solver repacking its factors every iteration allocates nothing.
  const packed =
    reuse && reuse.packed.length >= size ? reuse.packed.subarray(0, size) : new Float64Array(size);
  const a: Strided = { data: A.data, offset: 0, ld: A.cols };
  for (let i0 = 0; i0 < m; i0 += MC) {
    const mb = Math.min(MC, m - i0);
    for (let p0 = 0; p0 < k; p0 += KC)
      packPanelA(a, transA, i0, mb, p0, Math.min(KC, k - p0), packed, lhsOffset(i0, mb, p0, k));
  }
  return { m, k, packed };
}

const lhsOffset = (i0: number, mb: number, p0: number, k: number): number =>
  i0 * k + roundUp4(mb) * p0;

/** Copies block (i0, p0) of a packed op(A) to dst[o0 …): what `packPanelA` would write there. */
function copyPanelA(
  P: PackedLhs,
  i0: number,
  mb: number,
  p0: number,
  kb: number,
  dst: Float64Array,
  o0: number,
): void {
  const o = lhsOffset(i0, mb, p0, P.k);
  dst.set(P.packed.subarray(o, o + roundUp4(mb) * kb), o0);
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

/** `product` on the TypeScript 4×3 micro-kernel. */
function productTs(
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
  const { data: c, offset: c0, ld: ldc } = C;
  for (let j0 = 0; j0 < n; j0 += NC) {
    const nb = Math.min(NC, n - j0);
    for (let p0 = 0; p0 < k; p0 += KC) {
      const kb = Math.min(KC, k - p0);
      packPanelB(B, transB, p0, kb, j0, nb);
      for (let i0 = 0; i0 < m && !(upper && i0 >= j0 + nb); i0 += MC) {
        const mb = Math.min(MC, m - i0);
        if ('packed' in A) copyPanelA(A, i0, mb, p0, kb, PACK_A, 0);
        else packPanelA(A, transA, i0, mb, p0, kb, PACK_A, 0);
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
 * Packs op(A)[i0 : i0+mb, p0 : p0+kb] into dst from o0 on as ⌈mb/MR⌉ slivers of MR rows: sliver
 * s holds op(A)[i0 + MR·s + t, p0 + p] at dst[o0 + s·MR·kb + MR·p + t], zero for rows past mb
 * (both micro-kernels read this layout). Untransposed A is read along MR rows at once,
 * transposed A along contiguous stretches of its rows.
 */
function packPanelA(
  A: Strided,
  transA: boolean,
  i0: number,
  mb: number,
  p0: number,
  kb: number,
  dst: Float64Array,
  o0: number,
): void {
  const { data: a, offset, ld: lda } = A;
  let o = o0;
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

/**
 * Depth of the op(B) panel the wasm path packs at once (KP×NC, at most 6 MiB): the kernel sums
 * KP/KC slices into its tile buffer before TypeScript adds the buffer into C, so C is read and
 * written once per KP of depth rather than once per KC.
 */
const KP = 1024;
/** Byte offsets in the wasm memory: the packed A block, the tile buffer T, the packed B panel. */
const W_A = 0;
const W_T = W_A + 8 * MC * KC;
const W_B = W_T + 8 * MC * NC;
/** Where resident packed left operands (`PackedLhs`) start: after the deepest B panel. */
const W_R = W_B + 8 * KP * NC;
/** Most bytes of resident packed operands; larger ones are copied block by block instead. */
const RESIDENT_MAX = 256 * 2 ** 20;
/** Resident slots: an operator may take turns between four packed factors (CGL's H-step). */
const SLOTS = 4;

/** The instantiated wasm kernel and its memory, which grows with the depth of the B panel. */
interface WasmKernel {
  /** gemm.wat's `block(pa, pb, pc, mb, nb, kb, ldc, lim, acc)`, see there. */
  readonly block: (...args: number[]) => void;
  /** gemm.wat's tall-skinny kernels `ta(pa, pb, pt, n, ka, kb)` and `nn(pa, pm, pc, n, k, kb)`. */
  readonly ta: (...args: number[]) => void;
  readonly nn: (...args: number[]) => void;
  readonly memory: WasmMemory;
  /** A view of the whole memory, renewed when it grows. */
  f64: Float64Array;
  /**
   * Packed left operands kept in the memory from W_R on, so that repeated products from one
   * read it in place: per slot the operand it holds (or null), its byte offset and capacity,
   * and when it was last used (the least recently used slot is refilled).
   */
  readonly slots: { owner: object | null; offset: number; bytes: number; used: number }[];
  /** First free byte of the resident region, and a use counter. */
  top: number;
  clock: number;
}

/** Which micro-kernel the products run on: WebAssembly SIMD or plain TypeScript. */
export type GemmBackend = 'wasm' | 'ts';

let wantWasm = true;
/** undefined until first needed; null when this engine cannot run the module. */
let wasmState: WasmKernel | null | undefined;

/**
 * Chooses the micro-kernel (for tests and benchmarks; the default is 'wasm'). 'wasm' falls back
 * to 'ts' where WebAssembly or its SIMD extension is missing. Returns the backend now in use.
 */
export function setGemmBackend(backend: GemmBackend): GemmBackend {
  wantWasm = backend === 'wasm';
  return gemmBackend();
}

/** The backend the products use now (instantiating the wasm kernel if it is wanted). */
export function gemmBackend(): GemmBackend {
  return wasmKernel() ? 'wasm' : 'ts';
}

/** The wasm kernel if wanted and available, instantiated synchronously on first use. */
function wasmKernel(): WasmKernel | null {
  if (!wantWasm) return null;
  if (wasmState === undefined) wasmState = instantiateWasm();
  return wasmState;
}

/**
 * Compiles GEMM_WASM synchronously over a memory holding A, T and one KC slice of B, or returns
 * null when WebAssembly is absent, rejects the module (no SIMD) or refuses to compile (a page
 * whose CSP lacks 'wasm-unsafe-eval'). Synchronous compilation is allowed everywhere for a
 * module this small (Chromium's main-thread limit is 4 KiB).
 */
function instantiateWasm(): WasmKernel | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(GEMM_WASM)) return null;
    const memory = new api.Memory({
      initial: Math.ceil((W_B + 8 * KC * NC) / WASM_PAGE),
      maximum: Math.ceil((W_R + RESIDENT_MAX) / WASM_PAGE),
    });
    const instance = new api.Instance(new api.Module(GEMM_WASM), { env: { memory } });
    const { block, ta, nn } = instance.exports;
    if (typeof block !== 'function' || typeof ta !== 'function' || typeof nn !== 'function')
      return null;
    const f64 = new Float64Array(memory.buffer);
    const slots = Array.from({ length: SLOTS }, () => ({
      owner: null,
      offset: 0,
      bytes: 0,
      used: 0,
    }));
    return {
      block: block as WasmKernel['block'],
      ta: ta as WasmKernel['ta'],
      nn: nn as WasmKernel['nn'],
      memory,
      f64,
      slots,
      top: W_R,
      clock: 0,
    };
  } catch {
    return null;
  }
}

/**
 * The byte offset in the wasm memory where P's packed data lies, copying it there into the least
 * recently used slot if it is not resident yet; null when it is too large to keep (the caller
 * then copies block by block). A slot too small for P gets a new region at the top of the
 * resident area; when that area is full, every slot is emptied and the area starts again.
 */
function resident(w: WasmKernel, P: PackedLhs): number | null {
  return residentCopy(w, P, P.packed, 0);
}

/**
 * The byte offset of `data` (keyed by `owner`) in a resident slot, copied there unless that slot
 * still holds it, followed by `pad` zeros; null when it is too large for a slot.
 */
function residentCopy(
  w: WasmKernel,
  owner: object,
  data: Float64Array,
  pad: number,
): number | null {
  const bytes = 8 * (data.length + pad);
  if (bytes > RESIDENT_MAX / SLOTS) return null;
  w.clock++;
  for (const s of w.slots) {
    if (s.owner === owner) {
      s.used = w.clock;
      return s.offset;
    }
  }
  let slot = w.slots[0]!;
  for (const s of w.slots) if (s.used < slot.used) slot = s;
  if (slot.bytes < bytes) {
    if (w.top + bytes > W_R + RESIDENT_MAX) {
      for (const s of w.slots) Object.assign(s, { owner: null, offset: 0, bytes: 0, used: 0 });
      w.top = W_R;
    }
    slot.offset = w.top;
    slot.bytes = bytes;
    w.top += bytes;
  }
  reserve(w, slot.offset + bytes);
  w.f64.set(data, slot.offset / 8);
  w.f64.fill(0, slot.offset / 8 + data.length, slot.offset / 8 + data.length + pad);
  slot.owner = owner;
  slot.used = w.clock;
  return slot.offset;
}

/** Grows the wasm memory to at least `bytes` (it never shrinks) and renews the view over it. */
function reserve(w: WasmKernel, bytes: number): void {
  const have = w.memory.buffer.byteLength;
  if (have >= bytes) return;
  w.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  w.f64 = new Float64Array(w.memory.buffer);
}

/**
 * `product` on the wasm kernel. Loops: n in panels of NC; k in chunks of KP, whose op(B) panel
 * is packed whole (KC slices one after the other, slivers of NRW = 4 columns); m in blocks of
 * MC. For an A block, each KC slice is packed and the kernel adds its product into the tile
 * buffer T (MC × NC, starting from zero at the first slice), then α·T is added into C. So each
 * entry of C receives its dot product summed in order over a whole KP chunk, and with α = 1,
 * β = 0 and k ≤ KP equals the plain sequential loop's bit for bit. With `upper`, the kernel skips
 * tiles wholly below the diagonal and only entries on and above it are added.
 */
function productWasm(
  w: WasmKernel,
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
  /**
   * C's block is written, not added to, by the first KP chunk (the caller's α = 1, β = 0, no
   * `upper`): 0 + T is T bit for bit, since the kernel's sums start from +0 and so are never −0.
   */
  assign = false,
): void {
  const { data: c, offset: c0, ld: ldc } = C;
  const t0 = W_T / 8;
  const home = 'packed' in A ? resident(w, A) : null;
  for (let j0 = 0; j0 < n; j0 += NC) {
    const nb = Math.min(NC, n - j0);
    const nbPad = roundUp4(nb);
    for (let q0 = 0; q0 < k; q0 += KP) {
      const kq = Math.min(KP, k - q0);
      reserve(w, W_B + 8 * kq * nbPad);
      const mem = w.f64;
      for (let p0 = q0; p0 < q0 + kq; p0 += KC) {
        const kb = Math.min(KC, q0 + kq - p0);
        packPanelB4(B, transB, p0, kb, j0, nb, mem, W_B / 8 + (p0 - q0) * nbPad);
      }
      for (let i0 = 0; i0 < m && !(upper && i0 >= j0 + nb); i0 += MC) {
        const mb = Math.min(MC, m - i0);
        const mbPad = roundUp4(mb);
        // Tile (i, j) of T is computed when i < lim + j + 4: all of them, or with `upper`
        // those reaching the diagonal (global row i0 + i, global column j0 + j).
        const lim = upper ? j0 - i0 : mbPad;
        for (let p0 = q0; p0 < q0 + kq; p0 += KC) {
          const kb = Math.min(KC, q0 + kq - p0);
          let pa = W_A;
          if (home !== null) pa = home + 8 * lhsOffset(i0, mb, p0, k);
          else if ('packed' in A) copyPanelA(A, i0, mb, p0, kb, w.f64, W_A / 8);
          else packPanelA(A, transA, i0, mb, p0, kb, w.f64, W_A / 8);
          const pb = W_B + 8 * (p0 - q0) * nbPad;
          w.block(pa, pb, W_T, mbPad, nbPad, kb, nbPad, lim, p0 === q0 ? 0 : 1);
        }
        if (assign && q0 === 0) {
          for (let i = 0; i < mb; i++) {
            const r = c0 + (i0 + i) * ldc + j0;
            const t = t0 + i * nbPad;
            for (let j = 0; j < nb; j++) c[r + j] = mem[t + j]!;
          }
          continue;
        }
        for (let i = 0; i < mb; i++) {
          const r = c0 + (i0 + i) * ldc + j0;
          const t = t0 + i * nbPad;
          for (let j = upper ? Math.max(0, i - lim) : 0; j < nb; j++)
            c[r + j]! += alpha * mem[t + j]!;
        }
      }
    }
  }
}

/**
 * Largest short side, and shortest long side, of the products `tallProduct` takes; A·op(B) may
 * have up to TALL_WIDE columns.
 */
const TALL_MAX = 16;
const TALL_MIN = 64;
const TALL_WIDE = 64;
/** Rows of A (and C) per call of `nn`, so that a chunk fits the B panel's region. */
const NN_ROWS = 4096;

/**
 * The tall-skinny products on gemm.wat's `ta` / `nn` (returns false, doing nothing, for any
 * other shape): C (m×n) = Aᵀ·B with A (k×m), B (k×n), m, n ≤ 16 ≤ 64 ≤ k (transA), or
 * C = A·op(B) with A (m×k), op(B) (k×n), k ≤ 16, n ≤ 64, m ≥ 64; operands contiguous (ld =
 * columns). Rows are copied into the B panel's region of the memory as they are (the packing
 * these shapes would need costs more than their arithmetic). Aᵀ·B goes in chunks of KP rows,
 * each summed from +0 and then written (`assign`) or added into C, as `productWasm` sums a
 * depth of k: the same bits as the packed path, so results do not depend on which path ran.
 */
function tallProduct(
  w: WasmKernel,
  m: number,
  n: number,
  k: number,
  A: Strided,
  transA: boolean,
  B: Strided,
  transB: boolean,
  C: Strided,
  assign: boolean,
): boolean {
  if (transA) {
    if (transB || m > TALL_MAX || n > TALL_MAX || k < TALL_MIN || A.ld !== m || B.ld !== n)
      return false;
    // A chunk of A and of B, each followed by 8 readable f64 (the kernel reads past their ends).
    const aAt = W_B;
    const bAt = aAt + 8 * (KP * m + 8);
    reserve(w, bAt + 8 * (KP * n + 8));
    taChunks(w, k, m, B, bAt, C, assign, (q0, kq) => {
      copyRows(w.f64, A, q0 * m, kq * m, aAt);
      return aAt;
    });
    return true;
  }
  if (k > TALL_MAX || n > TALL_WIDE || m < TALL_MIN || A.ld !== k) return false;
  if (B.ld !== (transB ? k : n)) return false;
  // op(B) zero-padded to ldp columns at W_T; chunks of A and of C (n per row, 8 f64 of room
  // after the last) in the B panel's region.
  const aAt = W_B;
  const cAt = aAt + 8 * NN_ROWS * k;
  reserve(w, cAt + 8 * (NN_ROWS * n + 8));
  nnChunks(w, m, k, n, B, transB, cAt, C, (i0, rows) => {
    w.f64.set(A.data.subarray(A.offset + i0 * k, A.offset + (i0 + rows) * k), aAt / 8);
    return aAt;
  });
  return true;
}

/** len values of `from` from index `start` on into the memory at byte `at`, then 8 zeros. */
function copyRows(mem: Float64Array, from: Strided, start: number, len: number, at: number): void {
  mem.set(from.data.subarray(from.offset + start, from.offset + start + len), at / 8);
  mem.fill(0, at / 8 + len, at / 8 + len + 8);
}

/**
 * C (ka × kb, kb = B.ld) = Aᵀ·B over `depth` rows on `ta`, in chunks of KP rows:
 * `placeA(q0, kq)` puts A's rows q0 … q0 + kq − 1 (ka per row, 8 readable f64 after) in the
 * memory and returns their byte offset; B's rows go to `bAt` (the caller reserves KP rows and
 * 8 more). Each chunk is summed from +0 and then written (the first, with `assign`) or added
 * into C: `productWasm`'s bits.
 */
function taChunks(
  w: WasmKernel,
  depth: number,
  ka: number,
  B: Strided,
  bAt: number,
  C: Strided,
  assign: boolean,
  placeA: (q0: number, kq: number) => number,
): void {
  const kb = B.ld;
  const { data: c, offset: c0, ld: ldc } = C;
  const ldt = (kb + 7) & ~7;
  const t0 = W_T / 8;
  for (let q0 = 0; q0 < depth; q0 += KP) {
    const kq = Math.min(KP, depth - q0);
    const aAt = placeA(q0, kq);
    copyRows(w.f64, B, q0 * kb, kq * kb, bAt);
    w.ta(aAt, bAt, W_T, kq, ka, kb);
    const mem = w.f64;
    for (let i = 0; i < ka; i++) {
      const r = c0 + i * ldc;
      const t = t0 + i * ldt;
      if (assign && q0 === 0) for (let j = 0; j < kb; j++) c[r + j] = mem[t + j]!;
      else for (let j = 0; j < kb; j++) c[r + j]! += mem[t + j]!;
    }
  }
}

/**
 * C (m × n) = A·op(B) for op(B) (k × n) on `nn`: op(B) zero-padded to n rounded up to 8 columns
 * at W_T, then chunks of NN_ROWS rows: `placeA(i0, rows)` puts A's rows (k per row) in the
 * memory and returns their byte offset, and the chunk of C at `cAt` (the caller reserves
 * NN_ROWS rows and 8 f64 more) is copied into C.
 */
function nnChunks(
  w: WasmKernel,
  m: number,
  k: number,
  n: number,
  B: Strided,
  transB: boolean,
  cAt: number,
  C: Strided,
  placeA: (i0: number, rows: number) => number,
): void {
  const { data: c, offset: c0, ld: ldc } = C;
  const ldp = (n + 7) & ~7;
  const mAt = W_T / 8;
  const mem = w.f64;
  mem.fill(0, mAt, mAt + k * ldp);
  for (let p = 0; p < k; p++)
    for (let j = 0; j < n; j++)
      mem[mAt + p * ldp + j] = B.data[B.offset + (transB ? j * B.ld + p : p * B.ld + j)]!;
  for (let i0 = 0; i0 < m; i0 += NN_ROWS) {
    const rows = Math.min(NN_ROWS, m - i0);
    w.nn(placeA(i0, rows), W_T, cAt, rows, k, n);
    const out = w.f64.subarray(cAt / 8, cAt / 8 + rows * n);
    if (ldc === n) c.set(out, c0 + i0 * n);
    else
      for (let i = 0; i < rows; i++) c.set(out.subarray(i * n, (i + 1) * n), c0 + (i0 + i) * ldc);
  }
}

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

/**
 * Packs op(B)[p0 : p0+kb, j0 : j0+nb] into dst from o0 on as ⌈nb/4⌉ slivers of 4 columns (the
 * wasm kernel's layout): sliver s holds op(B)[p0 + p, j0 + 4s + t] at dst[o0 + 4s·kb + 4p + t],
 * zero for columns past nb.
 */
function packPanelB4(
  B: Strided,
  transB: boolean,
  p0: number,
  kb: number,
  j0: number,
  nb: number,
  dst: Float64Array,
  o0: number,
): void {
  const { data: b, offset, ld: ldb } = B;
  let o = o0;
  for (let j = 0; j < nb; j += NRW) {
    const cols = Math.min(NRW, nb - j);
    const cj = j0 + j;
    if (cols === NRW && !transB) {
      for (let p = 0, s = offset + p0 * ldb + cj; p < kb; p++, o += NRW, s += ldb) {
        dst[o] = b[s]!;
        dst[o + 1] = b[s + 1]!;
        dst[o + 2] = b[s + 2]!;
        dst[o + 3] = b[s + 3]!;
      }
    } else if (cols === NRW) {
      let s0 = offset + cj * ldb + p0;
      let s1 = s0 + ldb;
      let s2 = s1 + ldb;
      let s3 = s2 + ldb;
      for (let p = 0; p < kb; p++, o += NRW) {
        dst[o] = b[s0++]!;
        dst[o + 1] = b[s1++]!;
        dst[o + 2] = b[s2++]!;
        dst[o + 3] = b[s3++]!;
      }
    } else if (!transB) {
      // An edge sliver (1 to 3 columns), zero-padded: c = 10 columns, CGL's blocks, end in one.
      for (let p = 0, s = offset + p0 * ldb + cj; p < kb; p++, o += NRW, s += ldb) {
        dst[o] = b[s]!;
        dst[o + 1] = cols > 1 ? b[s + 1]! : 0;
        dst[o + 2] = cols > 2 ? b[s + 2]! : 0;
        dst[o + 3] = 0;
      }
    } else {
      for (let p = 0; p < kb; p++, o += NRW) {
        for (let t = 0; t < NRW; t++)
          dst[o + t] = t < cols ? b[offset + (cj + t) * ldb + p0 + p]! : 0;
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
