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

/**
 * Golub–Kahan SVD of a (m×n, m ≥ n, row-major; overwritten). `keep(s)`, when given, sees the
 * singular values and returns how many leading pairs to form (U m×r, V n×r); the back
 * transformations then run on those r columns only, each column's arithmetic unchanged.
 */
function squareSvd(a: Float64Array, m: number, n: number, keep?: (s: Float64Array) => number): Svd {
  const scale = safeScale(a, m * n, 'svd');
  const F = bidiagonalise(a, m, n);
  const b = bidiagSvd(F.d, F.e, n);
  const s = b.s;
  for (let i = 0; i < n; i++) s[i]! *= scale;
  const r = keep ? keep(s) : n;
  // U = Q_B·[U_B; 0] (m×r), V = P·V_B (n×r): the first r columns of U_B and V_B.
  let u = b.u;
  let v = b.v;
  if (m > n || r < n) {
    u = new Float64Array(m * r);
    if (r === n) u.set(b.u);
    else for (let i = 0; i < n; i++) u.set(b.u.subarray(i * n, i * n + r), i * r);
  }
  if (r < n) {
    v = new Float64Array(n * r);
    for (let i = 0; i < n; i++) v.set(b.v.subarray(i * n, i * n + r), i * r);
  }
  applyQ(F, u, r);
  applyP(F, v, r);
  return { U: { rows: m, cols: r, data: u }, s, V: { rows: n, cols: r, data: v } };
}

/**
 * The leading singular pairs of a square A (n×n): all n singular values s (descending), and
 * U, V (n×r) for the r = keep(s) largest, r ≤ n. The same numbers as the first r columns of
 * `svd(A)`, bit for bit (the back transformations act column by column), at a fraction of
 * their cost when r ≪ n. Throws `NumericalError` for non-finite input.
 */
export function svdTop(A: Mat, keep: (s: Float64Array) => number): Svd {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`svdTop: A must be square, got ${n}×${A.cols}`);
  const clamp = (s: Float64Array): number => Math.max(0, Math.min(n, Math.floor(keep(s))));
  if (n > SMALL) return squareSvd(A.data.slice(0, n * n), n, n, clamp);
  const f = svd(A);
  const r = clamp(f.s);
  if (r === n) return f;
  const cut = (M: Mat): Mat => {
    const d = new Float64Array(n * r);
    for (let i = 0; i < n; i++) d.set(M.data.subarray(i * n, i * n + r), i * r);
    return { rows: n, cols: r, data: d };
  };
  return { U: cut(f.U), s: f.s, V: cut(f.V) };
}
