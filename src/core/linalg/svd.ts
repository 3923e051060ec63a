/**
 * Thin SVD and orthogonal Procrustes.
 *
 * Algorithm (Drmač & Veselić, "New fast and accurate Jacobi SVD algorithm", SIMAX 2008, in its
 * simplest form): reduce the tall side with Householder QR, then diagonalise the small
 * triangular factor with one-sided (Hestenes) Jacobi rotations.
 * - For A (m×n, m ≥ n), G = Aᵀ (n×m) is factored G = L·Qᵀ (qr.ts: LQ of the rows of G, which
 *   is the QR of A). The Gram matrix of L's rows equals AᵀA, but AᵀA is never formed: forming
 *   it would square the condition number and lose the small singular values.
 * - One-sided Jacobi rotates pairs of rows of L until they are mutually orthogonal:
 *   Jᵀ·L = Σ·Wᵀ, i.e. L = J·Σ·Wᵀ with J accumulated from the rotations. Then
 *   A = Gᵀ = Q·Lᵀ = (Q·W)·Σ·Jᵀ: U = Q·W, V = J. Jacobi computes every singular value to high
 *   relative accuracy and W's rows are orthogonal to ~√r·ε whatever their norms.
 * - U = Q·W is formed as (Wᵀ·Qᵀ)ᵀ by applying the stored reflectors to [Wᵀ 0] (GEMM blocks).
 * - A short-fat A (m < n) is treated through Aᵀ, whose rows are already A's rows.
 * Cost for r = min(m, n), l = max(m, n): ≈ 6r²l flops of QR work (mostly GEMM) plus ≈ 8r³ per
 * Jacobi sweep (9-13 sweeps for random matrices): fast for tall-skinny and small problems
 * (20,000×50 in ≈ 0.2 s, 2000×200 in ≈ 0.4 s here) but cubic in r at vector speed, so a square
 * 1000×1000 SVD takes about a minute; large square problems would want a bidiagonal
 * (Golub–Kahan) path behind the same `thinSvd`.
 */
import { nrm2, safeScale, transposeInto } from './dense';
import { matmulTB } from './gemm';
import { lqApplyQt, lqFactor } from './qr';
import type { Mat } from './types';
import { NumericalError } from './errors';

/** Result of `thinSvd`: A = U·diag(s)·Vᵀ. */
export interface Svd {
  /** m×r, orthonormal columns. */
  readonly U: Mat;
  /** r = min(m, n) singular values, descending. */
  readonly s: Float64Array;
  /** n×r, orthonormal columns. */
  readonly V: Mat;
}

/** Jacobi sweeps allowed before giving up (LAPACK's dgesvj allows 30). */
const MAX_SWEEPS = 60;

/**
 * Thin SVD of A (m×n): A = U·diag(s)·Vᵀ with r = min(m, n), U (m×r), V (n×r), s descending
 * (ties keep their computed order). ‖A − U·Σ·Vᵀ‖ ≈ r·ε·‖A‖ and UᵀU = VᵀV = I to ≈ r·ε.
 * Singular vectors of an exactly zero singular value (rank deficiency that survives rounding,
 * or a zero A) are completed deterministically: right vectors by Gram–Schmidt on e₀, e₁, …
 * against the others, left vectors from the identity through the QR. For A = 0 this gives
 * U = I and V = I (first r columns), the LAPACK convention.
 */
export function thinSvd(A: Mat): Svd {
  const { rows: m, cols: n } = A;
  if (m >= n) {
    // Rows of Aᵀ are A's columns: A = Gᵀ = Uᵣ·Σ·Vᵀ.
    const { ut, s, v } = svdOfRows(transposeInto(A).data, n, m);
    return {
      U: transposeInto({ rows: n, cols: m, data: ut }),
      s,
      V: { rows: n, cols: n, data: v },
    };
  }
  // Rows of A: Aᵀ = Gᵀ = Uᵣ·Σ·Vᵣᵀ, so A = Vᵣ·Σ·Uᵣᵀ.
  const { ut, s, v } = svdOfRows(A.data.slice(0, m * n), m, n);
  return { U: { rows: m, cols: m, data: v }, s, V: transposeInto({ rows: m, cols: n, data: ut }) };
}

/**
 * Orthogonal Procrustes: the polar factor Q = U·Vᵀ (m×n) of B (m×n) from its thin SVD, the Q
 * with orthonormal columns (m ≥ n) or rows (m < n) that maximises trace(QᵀB) (equivalently
 * minimises ‖Q − B‖_F). For B = 0 this returns the first columns/rows of the identity (LAPACK
 * returns U = I, V = I for a zero matrix; the IMVC-CBG reference depends on it). For a
 * rank-deficient B the maximiser is not unique; the factor returned is U·Vᵀ from `thinSvd` as
 * computed, with its deterministic completion of the null-space vectors (still orthonormal and
 * still a maximiser).
 */
export function procrustes(B: Mat): Mat {
  const { U, V } = thinSvd(B);
  return matmulTB(U, V);
}

/**
 * SVD of the tall matrix Gᵀ (len×r) given G (r×len, r ≤ len, row-major; overwritten):
 * Gᵀ = Uᵣ·Σ·Vᵀ, computed on G scaled by `safeScale`. Returns ut = Uᵣᵀ (r×len), s (r, descending) and v = V (r×r, row-major).
 */
function svdOfRows(
  g: Float64Array,
  r: number,
  len: number,
): { ut: Float64Array; s: Float64Array; v: Float64Array } {
  const scale = safeScale(g, r * len, 'thinSvd');
  const lq = lqFactor(g, r, len);
  const l = new Float64Array(r * r);
  for (let i = 0; i < r; i++) for (let j = 0; j <= i; j++) l[i * r + j] = g[i * len + j]!;
  const jt = new Float64Array(r * r);
  for (let i = 0; i < r; i++) jt[i * r + i] = 1;
  jacobiRows(l, jt, r);

  const sigma = Float64Array.from({ length: r }, (_, i) => nrm2(r, l, i * r, 1));
  const order = Array.from({ length: r }, (_, i) => i).sort(
    (a, b) => sigma[b]! - sigma[a]! || a - b,
  );
  // Sorted: Wᵀ rows = normalised rows of L, V columns = J's columns = rows of Jᵀ.
  const ut = new Float64Array(r * len);
  const v = new Float64Array(r * r);
  const zero: number[] = [];
  order.forEach((src, p) => {
    const sp = sigma[src]!;
    if (dotSelf(l, src * r, r) === 0) zero.push(p);
    else for (let j = 0; j < r; j++) ut[p * len + j] = l[src * r + j]! / sp;
    for (let i = 0; i < r; i++) v[i * r + p] = jt[src * r + i]!;
  });
  completeRows(ut, len, r, zero);
  lqApplyQt(lq, ut, r);
  const s = Float64Array.from(order, (i) => sigma[i]! * scale);
  return { ut, s, v };
}

/** Σ x[off + i]² for i < n; 0 exactly when the squares underflow. */
function dotSelf(x: Float64Array, off: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[off + i]! * x[off + i]!;
  return s;
}

/**
 * One-sided cyclic Jacobi on the rows of l (r×r): rotates rows i < j until every pair is
 * orthogonal to |lᵢ·lⱼ| ≤ √r·ε·‖lᵢ‖·‖lⱼ‖, applying each rotation to the rows of jt as well.
 * Rows whose squared norm underflows are left alone (they are completed later). The rotation
 * (Rutishauser's formulas) zeroes lᵢ·lⱼ: ζ = (β − α)/(2γ), t = sign(ζ)/(|ζ| + √(1 + ζ²)),
 * c = 1/√(1 + t²), s = c·t, with α = ‖lᵢ‖², β = ‖lⱼ‖², γ = lᵢ·lⱼ. ≈ 16r flops per rotated
 * pair, 2r per pair already orthogonal.
 */
function jacobiRows(l: Float64Array, jt: Float64Array, r: number): void {
  const tol = Math.sqrt(r) * Number.EPSILON;
  const norm2 = new Float64Array(r);
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    for (let i = 0; i < r; i++) norm2[i] = dotSelf(l, i * r, r);
    let rotations = 0;
    for (let i = 0; i < r - 1; i++) {
      for (let j = i + 1; j < r; j++) {
        const alpha = norm2[i]!;
        const beta = norm2[j]!;
        if (alpha === 0 || beta === 0) continue;
        let gamma = 0;
        for (let k = i * r, q = j * r, end = k + r; k < end; k++, q++) gamma += l[k]! * l[q]!;
        if (Math.abs(gamma) <= tol * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
        rotations++;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.hypot(1, zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        rotatePair(l, jt, r, i, j, c, c * t, norm2);
      }
    }
    if (rotations === 0) return;
  }
  throw new NumericalError('thinSvd: Jacobi did not converge');
}

/**
 * Rows i, j of l and of jt (r columns each) ← (c·xᵢ − s·xⱼ, s·xᵢ + c·xⱼ) in one pass; the new
 * squared norms of l's rows go to norm2[i], norm2[j].
 */
function rotatePair(
  l: Float64Array,
  jt: Float64Array,
  r: number,
  i: number,
  j: number,
  c: number,
  s: number,
  norm2: Float64Array,
): void {
  let ni = 0;
  let nj = 0;
  for (let a = i * r, b = j * r, end = a + r; a < end; a++, b++) {
    const x = l[a]!;
    const y = l[b]!;
    const xi = c * x - s * y;
    const yj = s * x + c * y;
    l[a] = xi;
    l[b] = yj;
    ni += xi * xi;
    nj += yj * yj;
    const p = jt[a]!;
    const q = jt[b]!;
    jt[a] = c * p - s * q;
    jt[b] = s * p + c * q;
  }
  norm2[i] = ni;
  norm2[j] = nj;
}

/**
 * Fills the rows listed in `zero` of w (r×len, only columns < r used) with unit vectors
 * orthogonal to all other rows: Gram–Schmidt (twice) of e₀, e₁, … against the rows filled so
 * far, taking the next candidate whose remainder keeps at least 1/(2√r) of its norm. One always
 * does: the squared remainders of all eₖ sum to the number of rows still missing (≥ 1), and
 * the candidates passed over hold less than 1/4 of it.
 */
function completeRows(w: Float64Array, len: number, r: number, zero: readonly number[]): void {
  if (zero.length === 0) return;
  const filled = new Set(Array.from({ length: r }, (_, i) => i).filter((i) => !zero.includes(i)));
  const x = new Float64Array(r);
  let candidate = 0;
  for (const p of zero) {
    for (; candidate < r; candidate++) {
      x.fill(0);
      x[candidate] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (const q of filled) {
          let d = 0;
          for (let k = 0; k < r; k++) d += w[q * len + k]! * x[k]!;
          for (let k = 0; k < r; k++) x[k]! -= d * w[q * len + k]!;
        }
      }
      const nx = nrm2(r, x, 0, 1);
      if (nx >= 0.5 / Math.sqrt(r)) {
        for (let k = 0; k < r; k++) w[p * len + k] = x[k]! / nx;
        filled.add(p);
        candidate++;
        break;
      }
    }
  }
}
