/**
 * Singular-value thresholding, the proximal operator of the nuclear norm ‖X‖_* = Σ σ_i
 * (Cai, Candès & Shen, SIAM J. Optim. 2010):
 *
 *   prox_{τ‖·‖_*}(A) = U·diag(max(σ − τ, 0))·Vᵀ,   A = U·diag(σ)·Vᵀ the thin SVD.
 *
 * A: (m, n) → X: (m, n) of rank r = #{σ_i > τ}. The SVD is linalg/svd.ts' (QR + one-sided
 * Jacobi), O(mn·min(m, n)); the recomposition multiplies only the r kept pairs, O(mnr).
 */
import { matmulTB, thinSvd } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

export interface SvtResult {
  /** (m, n) the thresholded matrix. */
  readonly X: Mat;
  /** Number of singular values above τ. */
  readonly rank: number;
  /** (min(m, n),) the shrunk singular values max(σ − τ, 0), descending; Σ is ‖X‖_*. */
  readonly s: Float64Array;
}

/** prox_{τ‖·‖_*}(A); `out` (m, n), when given, receives X and must not share memory with A. */
export function singularValueThreshold(A: Mat, tau: number, out?: Mat): SvtResult {
  if (!(tau >= 0)) throw new RangeError(`singularValueThreshold: τ = ${tau} is negative`);
  const { rows: m, cols: n } = A;
  const { U, s, V } = thinSvd(A);
  const q = s.length;
  let rank = 0;
  for (let i = 0; i < q; i++) {
    s[i] = Math.max(s[i]! - tau, 0);
    if (s[i]! > 0) rank = i + 1;
  }
  // U_r·diag(s_r) (m, r) and V_r (n, r): the leading r columns, copied row by row.
  const us = new Float64Array(m * rank);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < rank; j++) us[i * rank + j] = U.data[i * q + j]! * s[j]!;
  const vr = new Float64Array(n * rank);
  for (let i = 0; i < n; i++) for (let j = 0; j < rank; j++) vr[i * rank + j] = V.data[i * q + j]!;
  const X = matmulTB({ rows: m, cols: rank, data: us }, { rows: n, cols: rank, data: vr }, out);
  if (rank === 0) X.data.fill(0, 0, m * n);
  return { X, rank, s };
}
