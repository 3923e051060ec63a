/**
 * The tall-skinny products on gemm.wat's `ta` and `nn` kernels, which skip the packing: Aᵀ·B
 * and syrk with both short sides ≤ 16 over ≥ 64 rows (Aᵀ·B also with up to 128 rows when B has
 * ≤ 16 columns), A·op(B) with depth ≤ 16 (≤ 128 when op(B) has ≤ 16 columns), and the thin
 * factors' products (thin.ts). Each gives the packed wasm path's bits, so results do not depend
 * on which path ran (on the 'fma' backend too: `w.ta` and `w.nn` are then the fused kernels,
 * gemm-fma.wat, as `w.block` is).
 */
import { KP, type Strided } from './layout';
import { reserve, W_B, W_T, type WasmKernel } from './wasm';

/**
 * Largest short side, and shortest long side, of the products `tallProduct` takes; A·op(B) may
 * have up to TALL_WIDE columns.
 */
const TALL_MAX = 16;
const TALL_MIN = 64;
const TALL_WIDE = 64;
/**
 * With the other short side ≤ TALL_MAX, Aᵀ·B may have up to TALL_WIDE_A rows and A·op(B) a
 * depth up to TALL_DEEP: the per-view products of a d ≤ 128 view with an n × c factor (IMVC-CBG's
 * W- and α-steps), where packing the long operand on every call cost twice the arithmetic.
 */
const TALL_WIDE_A = 128;
const TALL_DEEP = 128;
/** Rows of A (and C) per call of `nn`, so that a chunk fits the B panel's region. */
export const NN_ROWS = 4096;

/**
 * The tall-skinny products on gemm.wat's `ta` / `nn` (returns false, doing nothing, for any
 * other shape): C (m×n) = Aᵀ·B with A (k×m), B (k×n), m ≤ 128, n ≤ 16, k ≥ 64 (transA), or
 * C = A·op(B) with A (m×k), op(B) (k×n), m ≥ 64 and k ≤ 16, n ≤ 64 or k ≤ 128, n ≤ 16;
 * operands contiguous (ld =
 * columns). Rows are copied into the B panel's region of the memory as they are (the packing
 * these shapes would need costs more than their arithmetic). Aᵀ·B goes in chunks of KP rows,
 * each summed from +0 and then written (`assign`) or added into C, as `productWasm` sums a
 * depth of k: the same bits as the packed path, so results do not depend on which path ran.
 */
export function tallProduct(
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
    if (transB || m > TALL_WIDE_A || n > TALL_MAX || k < TALL_MIN || A.ld !== m || B.ld !== n)
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
  if (k > (n <= TALL_MAX ? TALL_DEEP : TALL_MAX) || n > TALL_WIDE || m < TALL_MIN || A.ld !== k)
    return false;
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
export function taChunks(
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
export function nnChunks(
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
