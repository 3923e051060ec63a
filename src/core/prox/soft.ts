/**
 * Soft thresholding, the proximal operator of the elementwise ℓ1 norm:
 *
 *   prox_{t‖·‖₁}(X)_ij = argmin_Z ½(Z − X_ij)² + t|Z| = sign(X_ij)·max(|X_ij| − t, 0)
 *
 * X: (m, n) → (m, n). `t` is one threshold, or one per row (m,) (FLSD thresholds each sample by
 * its own degree). O(mn); `out` may be X.
 */
import type { Mat } from '../linalg/types';

export function softThreshold(X: Mat, t: number | Float64Array, out?: Mat): Mat {
  const { rows: m, cols: n } = X;
  if (typeof t !== 'number' && t.length !== m) {
    throw new RangeError(`softThreshold: ${t.length} thresholds for ${m} rows`);
  }
  const Z = out ?? { rows: m, cols: n, data: new Float64Array(m * n) };
  if (Z.rows !== m || Z.cols !== n) {
    throw new RangeError(`softThreshold: out is ${Z.rows}x${Z.cols}, expected ${m}x${n}`);
  }
  const x = X.data;
  const z = Z.data;
  for (let i = 0; i < m; i++) {
    const ti = typeof t === 'number' ? t : t[i]!;
    if (!(ti >= 0)) throw new RangeError(`softThreshold: threshold ${ti} (row ${i}) is negative`);
    for (let p = i * n; p < (i + 1) * n; p++) {
      const v = x[p]!;
      // −max(−x − t, 0) mirrors max(x − t, 0) exactly, so this is sign(x)·max(|x| − t, 0)
      // bit for bit, −0 where a negative entry is zeroed included.
      z[p] = v < 0 ? -Math.max(-v - ti, 0) : Math.max(v - ti, 0);
    }
  }
  return Z;
}
