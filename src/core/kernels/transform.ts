/**
 * The two transforms multiple-kernel methods apply to a kernel K (n, n) before using it, as
 * the MKKM-IK / EEIMVC codes (`kcenter`, `knorm`) do:
 *
 *   centring       K_c = H·K·H with H = I − (1/n)·11ᵀ, computed as
 *                  K_ij − m_j − m_i + e  (m = column means, e = grand mean),
 *                  then (K_c + K_cᵀ)/2 so it is exactly symmetric (H K H for a symmetric K);
 *   normalisation  K_ij / √(K_ii·K_jj)  (a unit diagonal: the cosine of the feature maps).
 *
 * Both are O(n²) and may write over K (`out` = K).
 */
import type { Mat } from '../linalg/types';

function square(K: Mat, out: Mat | undefined, what: string): Mat {
  const n = K.rows;
  if (K.cols !== n) throw new RangeError(`${what}: K is ${K.rows}x${K.cols}, not square`);
  if (!out) return { rows: n, cols: n, data: new Float64Array(n * n) };
  if (out.rows !== n || out.cols !== n) {
    throw new RangeError(`${what}: out is ${out.rows}x${out.cols}, expected ${n}x${n}`);
  }
  return out;
}

/** H·K·H (n, n), exactly symmetric. `out` may be K. */
export function centreKernel(K: Mat, out?: Mat): Mat {
  const C = square(K, out, 'centreKernel');
  const n = K.rows;
  if (n === 0) return C;
  const k = K.data;
  const c = C.data;
  const m = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) m[j]! += k[i * n + j]!;
  for (let j = 0; j < n; j++) {
    total += m[j]!;
    m[j]! /= n;
  }
  const e = total / (n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) c[i * n + j] = k[i * n + j]! - m[j]! - m[i]! + e;
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const s = (c[i * n + j]! + c[j * n + i]!) / 2;
      c[i * n + j] = s;
      c[j * n + i] = s;
    }
  }
  return C;
}

/**
 * K_ij / √(K_ii·K_jj) (n, n). A sample with K_ii ≤ 0 (a zero feature vector, or one equal to
 * the mean after centring) has no direction: the reference divides by 0 and returns NaN, so by
 * default this throws naming the sample; `zeroDiagonal: 'zero'` sets its row and column to 0
 * instead, a choice the caller records. `out` may be K.
 */
export function normaliseKernel(
  K: Mat,
  out?: Mat,
  options: { readonly zeroDiagonal?: 'error' | 'zero' } = {},
): Mat {
  const N = square(K, out, 'normaliseKernel');
  const n = K.rows;
  const k = K.data;
  const diag = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const kii = k[i * n + i]!;
    if (kii > 0) diag[i] = kii;
    else if (options.zeroDiagonal !== 'zero') {
      throw new RangeError(
        `normaliseKernel: K[${i}, ${i}] = ${kii}, so sample ${i} cannot be normalised`,
      );
    }
  }
  const c = N.data;
  for (let i = 0; i < n; i++) {
    const di = diag[i]!;
    for (let j = 0; j < n; j++) {
      // √(K_ii·K_jj), one root of the product as the reference forms it.
      const d = di * diag[j]!;
      c[i * n + j] = d > 0 ? k[i * n + j]! / Math.sqrt(d) : 0;
    }
  }
  return N;
}
