/**
 * Thin SVD of any shape by the Golub–Kahan route (LAPACK dgesdd): A (m×n, m ≥ n; a wide A goes
 * through Aᵀ) →
 * 1. when m is well above n (m ≥ TALL·n), Householder QR first, A = Q·R (svd-tall.ts, blocked,
 *    in place on the row-major A), and the rest on the n×n R (by `thinSvd` when n ≤ SMALL);
 * 2. Householder bidiagonalisation A = Q_B·B·Pᵀ (bidiag.ts, half its flops in GEMM);
 * 3. the bidiagonal SVD B = U_B·Σ·V_Bᵀ by divide and conquer (bidiag-dc.ts);
 * 4. U = (Q)·Q_B·U_B and V = P·V_B by compact WY blocks and GEMM.
 * Every step is backward stable, so ‖A·V − U·Σ‖ ≈ n·ε·‖A‖ and UᵀU = VᵀV = I to ≈ n·ε whatever
 * the conditioning (singular values are accurate to n·ε·‖A‖ absolutely, not relatively as in
 * the one-sided Jacobi of `thinSvd`). ≈ 4mn² + 8n³ flops for m ≥ TALL·n, mostly GEMM.
 * Small problems that are not tall (n ≤ SMALL, m < TALL·n) go to `thinSvd`, faster there.
 */
import { safeScale, transposeInto } from './dense';
import { applyP, applyQ, bidiagonalise } from './bidiag';
import { bidiagSvd } from './bidiag-dc';
import { thinSvd, type Svd } from './svd';
import { tallApplyQ, tallQr, tallR } from './svd-tall';
import type { Mat } from './types';

/** m ≥ TALL·n: QR first (dgesdd's crossover is 11/6). */
const TALL = 1.6;
/** min(m, n) at or below which one-sided Jacobi (thinSvd) is used. */
const SMALL = 64;

/**
 * Thin SVD A = U·diag(s)·Vᵀ of A (m×n): r = min(m, n), U (m×r) and V (n×r) with orthonormal
 * columns, s (r) descending and non-negative. For r ≤ 64 and max(m, n) < 1.6·r this is
 * `thinSvd` (same results); otherwise QR (when tall or wide by 1.6×), then `thinSvd` of R
 * (r ≤ 64) or bidiagonalisation + divide and conquer. ‖A − U·Σ·Vᵀ‖ ≈ r·ε·‖A‖.
 * Throws `NumericalError` for non-finite input.
 */
export function svd(A: Mat): Svd {
  const { rows: m, cols: n } = A;
  const r = Math.min(m, n);
  if (r <= SMALL && Math.max(m, n) < TALL * r) return thinSvd(A);
  if (m < n) {
    const t = tallSvd(transposeInto(A));
    return { U: t.V, s: t.s, V: t.U };
  }
  return tallSvd(A);
}

/** svd for m ≥ n, n > SMALL or m ≥ TALL·n. */
function tallSvd(A: Mat): Svd {
  const { rows: m, cols: n } = A;
  if (m >= TALL * n) {
    const F = tallQr(A.data.slice(0, m * n), m, n);
    const R = tallR(F);
    const r = n <= SMALL ? thinSvd(R) : squareSvd(R.data, n, n);
    return { U: tallApplyQ(F, r.U), s: r.s, V: r.V };
  }
  return squareSvd(A.data.slice(0, m * n), m, n);
}

/** Golub–Kahan SVD of a (m×n, m ≥ n, row-major; overwritten). */
function squareSvd(a: Float64Array, m: number, n: number): Svd {
  const scale = safeScale(a, m * n, 'svd');
  const F = bidiagonalise(a, m, n);
  const b = bidiagSvd(F.d, F.e, n);
  // U = Q_B·[U_B; 0] (m×n), V = P·V_B (n×n).
  let u = b.u;
  if (m > n) {
    u = new Float64Array(m * n);
    u.set(b.u);
  }
  applyQ(F, u, n);
  applyP(F, b.v, n);
  const s = b.s;
  for (let i = 0; i < n; i++) s[i]! *= scale;
  return { U: { rows: m, cols: n, data: u }, s, V: { rows: n, cols: n, data: b.v } };
}
