/**
 * Small dense helpers shared by the kernels: result-shape checks, vector operations (BLAS level
 * 1 over strided Float64Array views, in the stdlib-js style `(N, x, offsetX, strideX)`), and an
 * out-of-place transpose. Row-major `Mat` throughout: element (i, j) is `data[i * cols + j]`.
 */
import type { Mat } from './types';

/**
 * The matrix a kernel writes: `out` when given (checked for shape, and for not sharing memory
 * with any input), else a new zero matrix. Contents of a given `out` are left as they are; the
 * caller overwrites them.
 */
export function resultMat(
  rows: number,
  cols: number,
  out: Mat | undefined,
  what: string,
  inputs: readonly { data: Float64Array }[],
): Mat {
  if (!out) return { rows, cols, data: new Float64Array(rows * cols) };
  if (out.rows !== rows || out.cols !== cols || out.data.length < rows * cols) {
    throw new Error(`${what}: out is ${out.rows}x${out.cols}, expected ${rows}x${cols}`);
  }
  for (const x of inputs) {
    if (overlaps(out.data, x.data)) throw new Error(`${what}: out shares memory with an input`);
  }
  return out;
}

/** True when two typed arrays view overlapping bytes of the same buffer. */
function overlaps(a: Float64Array, b: Float64Array): boolean {
  if (a.buffer !== b.buffer || a.length === 0 || b.length === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/** Σᵢ x[ox + i·sx] · y[oy + i·sy] for i < n. O(n). */
export function dot(
  n: number,
  x: Float64Array,
  ox: number,
  sx: number,
  y: Float64Array,
  oy: number,
  sy: number,
): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[ox + i * sx]! * y[oy + i * sy]!;
  return s;
}

/** Largest power of two kept unscaled by `safeScale`: squares stay far from overflow. */
const SAFE = 2 ** 500;

/**
 * Brings x[0..len) into a range where squares and sums of squares neither overflow nor
 * underflow: when max|x| lies outside [2⁻⁵⁰⁰, 2⁵⁰⁰], x is multiplied (exactly, in two power-of-two
 * steps) by 2⁻ᵉ so that max|x| ≈ 1, and 2ᵉ is returned to scale results back; otherwise x is
 * left alone and 1 returned. Throws on a non-finite entry, naming `what`. O(len).
 */
export function safeScale(x: Float64Array, len: number, what: string): number {
  let max = 0;
  for (let i = 0; i < len; i++) max = Math.max(max, Math.abs(x[i]!));
  if (!Number.isFinite(max)) throw new Error(`${what}: A has a non-finite entry`);
  if (max === 0 || (max >= 1 / SAFE && max <= SAFE)) return 1;
  const e = Math.round(Math.log2(max));
  const half = Math.trunc(e / 2);
  const f1 = 2 ** -half;
  const f2 = 2 ** (half - e);
  for (let i = 0; i < len; i++) x[i] = x[i]! * f1 * f2;
  return 2 ** half * 2 ** (e - half);
}

/** Euclidean norm of x[ox + i·sx], i < n, scaled so that no square overflows or underflows. */
export function nrm2(n: number, x: Float64Array, ox: number, sx: number): number {
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(x[ox + i * sx]!));
  if (scale === 0 || !Number.isFinite(scale)) return scale;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const t = x[ox + i * sx]! / scale;
    s += t * t;
  }
  return scale * Math.sqrt(s);
}

/**
 * Bᵀ (n×m) of A (m×n), into `out` when given. Walks A in 32×32 tiles so both the reads and
 * the strided writes stay in cache. O(mn).
 */
export function transposeInto(A: Mat, out?: Mat): Mat {
  const T = resultMat(A.cols, A.rows, out, 'transposeInto', [A]);
  const { rows: m, cols: n } = A;
  const a = A.data;
  const t = T.data;
  const TILE = 32;
  for (let i0 = 0; i0 < m; i0 += TILE) {
    const i1 = Math.min(m, i0 + TILE);
    for (let j0 = 0; j0 < n; j0 += TILE) {
      const j1 = Math.min(n, j0 + TILE);
      for (let i = i0; i < i1; i++) for (let j = j0; j < j1; j++) t[j * m + i] = a[i * n + j]!;
    }
  }
  return T;
}
