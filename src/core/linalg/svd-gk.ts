/**
 * Thin SVD of any shape by the Golub–Kahan route (LAPACK dgesdd): A (m×n, m ≥ n; a wide A goes
 * through Aᵀ) →
 * 1. when m is well above n (m ≥ TALL·n), Householder QR first, A = Q·R (qr.ts, blocked), and
 *    the rest on the n×n R;
 * 2. Householder bidiagonalisation A = Q_B·B·Pᵀ (bidiag.ts, half its flops in GEMM);
 * 3. the bidiagonal SVD B = U_B·Σ·V_Bᵀ by divide and conquer (bidiag-dc.ts);
 * 4. U = (Q)·Q_B·U_B and V = P·V_B by compact WY blocks and GEMM.
 * Every step is backward stable, so ‖A·V − U·Σ‖ ≈ n·ε·‖A‖ and UᵀU = VᵀV = I to ≈ n·ε whatever
 * the conditioning (singular values are accurate to n·ε·‖A‖ absolutely, not relatively as in
 * the one-sided Jacobi of `thinSvd`). ≈ 4mn² + 8n³ flops for m ≥ TALL·n, mostly GEMM.
 * Small problems (n ≤ SMALL) go to `thinSvd`, which is faster there.
 */
import { safeScale, transposeInto } from './dense';
import { applyP, applyQ, bidiagonalise } from './bidiag';
import { bidiagSvd } from './bidiag-dc';
import { matmul } from './gemm';
import { qr } from './qr';
import { thinSvd, type Svd } from './svd';
import type { Mat } from './types';

/** m ≥ TALL·n: QR first (dgesdd's crossover is 11/6). */
const TALL = 1.6;
/** min(m, n) at or below which one-sided Jacobi (thinSvd) is used. */
const SMALL = 64;

/**
 * Thin SVD A = U·diag(s)·Vᵀ of A (m×n): r = min(m, n), U (m×r) and V (n×r) with orthonormal
 * columns, s (r) descending and non-negative. For r ≤ 64 this is `thinSvd` (same results);
 * otherwise QR (when tall) + bidiagonalisation + divide and conquer. ‖A − U·Σ·Vᵀ‖ ≈ r·ε·‖A‖.
 * Throws `NumericalError` for non-finite input.
 */
export function svd(A: Mat): Svd {
  const { rows: m, cols: n } = A;
  if (Math.min(m, n) <= SMALL) return thinSvd(A);
  if (m < n) {
    const t = tallSvd(transposeInto(A));
    return { U: t.V, s: t.s, V: t.U };
  }
  return tallSvd(A);
}

/** svd for m ≥ n > SMALL. */
function tallSvd(A: Mat): Svd {
  const { rows: m, cols: n } = A;
  if (m >= TALL * n) {
    const { Q, R } = qr(A);
    const r = squareSvd(R.data.slice(), n, n);
    return { U: matmul(Q, r.U), s: r.s, V: r.V };
  }
  return squareSvd(A.data.slice(0, m * n), m, n);
}

/** Golub–Kahan SVD of a (m×n, m ≥ n, row-major; overwritten). */
function squareSvd(a: Float64Array, m: number, n: number): Svd {
  const scale = safeScale(a, m * n, 'svd');
  const F = bidiagonalise(a, m, n);
  const b = bidiagSvd(F.d, F.e, n);
  // U = Q_B·[U_B; 0] (m×n), V = P·V_B (n×n).
  const u = new Float64Array(m * n);
  u.set(b.u);
  applyQ(F, u, n);
  applyP(F, b.v, n);
  const s = b.s;
  for (let i = 0; i < n; i++) s[i]! *= scale;
  return { U: { rows: m, cols: n, data: u }, s, V: { rows: n, cols: n, data: b.v } };
}
