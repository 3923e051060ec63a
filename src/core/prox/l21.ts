/**
 * Row shrinkage, the proximal operator of the ℓ2,1 norm ‖X‖₂,₁ = Σ_i ‖x_i‖₂ (the sum of the
 * rows' Euclidean norms), which zeroes whole rows:
 *
 *   prox_{t‖·‖₂,₁}(X)_i = max(1 − t/‖x_i‖₂, 0)·x_i        (a zero row stays zero)
 *
 * X: (m, n) → (m, n). O(mn); `out` may be X.
 */
import { nrm2 } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

/** ‖X‖₂,₁ of X (m, n): Σ_i ‖x_i‖₂. */
export function l21Norm(X: Mat): number {
  let s = 0;
  for (let i = 0; i < X.rows; i++) s += nrm2(X.cols, X.data, i * X.cols, 1);
  return s;
}

export function l21Shrink(X: Mat, t: number, out?: Mat): Mat {
  const { rows: m, cols: n } = X;
  if (!(t >= 0)) throw new RangeError(`l21Shrink: threshold ${t} is negative`);
  const Z = out ?? { rows: m, cols: n, data: new Float64Array(m * n) };
  if (Z.rows !== m || Z.cols !== n) {
    throw new RangeError(`l21Shrink: out is ${Z.rows}x${Z.cols}, expected ${m}x${n}`);
  }
  const x = X.data;
  const z = Z.data;
  for (let i = 0; i < m; i++) {
    const norm = nrm2(n, x, i * n, 1);
    const f = norm > t ? 1 - t / norm : 0;
    for (let p = i * n; p < (i + 1) * n; p++) z[p] = f * x[p]!;
  }
  return Z;
}
