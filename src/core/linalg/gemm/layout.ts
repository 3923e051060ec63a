/**
 * The packed layouts both GEMM paths share (the Goto/BLIS scheme): k is cut in slices of KC, n
 * in panels of NC and m in blocks of MC, so a packed block of op(A) (MC×KC, 256 KiB) stays in L2
 * and a packed sliver of op(B) (KC×NRW) in L1 while the micro-kernel sweeps down the A block.
 * Packing copies op(A) into slivers of MR = 4 rows and op(B) into slivers of NRW = 4 columns,
 * each "k-major" (the values of one k step are adjacent), so the kernel reads both strictly
 * sequentially whatever the transposition: a transpose is paid for once per block in the packing
 * copy, never materialised; edges are zero-padded, so the kernel's loop has no edge cases.
 */
import type { Mat } from '../types';

/** Micro-tile rows (A slivers) and columns (B slivers) of the wasm kernel's 4×4 tiles. */
export const MR = 4;
export const NRW = 4;
/** Cache blocking: depth of a packed slice, rows of a packed A block, columns of a B panel. */
export const KC = 256;
export const MC = 128;
export const NC = 768;
/**
 * Depth of the op(B) panel the wasm path packs at once (KP×NC, at most 6 MiB): the kernel sums
 * KP/KC slices into its tile buffer before TypeScript adds the buffer into C, so C is read and
 * written once per KP of depth rather than once per KC.
 */
export const KP = 1024;

export const roundUp4 = (x: number): number => (x + 3) & ~3;

/**
 * A strided view of a row-major matrix, as BLAS passes it: element (i, j) is
 * data[offset + i·ld + j]. Lets the decompositions multiply sub-blocks in place.
 */
export interface Strided {
  readonly data: Float64Array;
  readonly offset: number;
  readonly ld: number;
}

/**
 * op(A) (m×k) packed once into the slivers the wasm kernel reads (`packPanelA`'s layout), for
 * many products with different right-hand sides: the block of rows i0 … (multiple of MC) and
 * depths p0 … (multiple of KC) starts at i0·k + roundUp4(mb)·p0. A product from it copies each
 * block into place instead of packing it (the plain loop reads it in place, `packedAt`), and
 * gives the same bits as the product from A.
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

export const lhsOffset = (i0: number, mb: number, p0: number, k: number): number =>
  i0 * k + roundUp4(mb) * p0;

/** Copies block (i0, p0) of a packed op(A) to dst[o0 …): what `packPanelA` would write there. */
export function copyPanelA(
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
 * Packs op(A)[i0 : i0+mb, p0 : p0+kb] into dst from o0 on as ⌈mb/MR⌉ slivers of MR rows: sliver
 * s holds op(A)[i0 + MR·s + t, p0 + p] at dst[o0 + s·MR·kb + MR·p + t], zero for rows past mb
 * (the wasm kernel's layout, also `PackedLhs`'s). Untransposed A is read along MR rows at once,
 * transposed A along contiguous stretches of its rows.
 */
export function packPanelA(
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
 * Packs op(B)[p0 : p0+kb, j0 : j0+nb] into dst from o0 on as ⌈nb/4⌉ slivers of 4 columns (the
 * wasm kernel's layout): sliver s holds op(B)[p0 + p, j0 + 4s + t] at dst[o0 + 4s·kb + 4p + t],
 * zero for columns past nb.
 */
export function packPanelB4(
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
