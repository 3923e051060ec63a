/**
 * (K_v + 3μI)⁻¹·B for the fast MLRSSC path, from one eigendecomposition of each kernel per
 * solve (K = Q·diag(λ)·Qᵀ), never a factorisation per iteration:
 *
 * - full route (any kernel): (K + cI)⁻¹·B = Q·diag(1/(λ + c))·Qᵀ·B, two (n, n) GEMMs while μ
 *   still changes; once μ is final (μ = maxMu, or ρ ≤ 1) the matrix Q·diag(1/(λ + c))·Qᵀ is formed
 *   once, Q is released, and each application is one GEMM.
 * - thin route (linear kernel K = X·Xᵀ, X (n, d) with d ≤ n/2, the Woodbury case): X = Q_x·R,
 *   R·Rᵀ = W·diag(λ)·Wᵀ, Q = Q_x·W (n, d) orthonormal, and
 *   (K + cI)⁻¹·B = B/c + Q·diag(1/(λ + c) − 1/c)·Qᵀ·B, two (n, d) products (4n²d flops).
 */
import { matmul, matmulTA, matmulTB, qr, symEig, syrk } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';

/** What `kernelInverse` returns. */
export interface KernelInverse {
  /** Applies (K_v + 3μI)⁻¹ to B (n, n), into out (n, n). */
  readonly apply: (v: number, mu: number, B: Mat, out: Mat) => void;
  /**
   * The first iteration's threshold (every iterate and multiplier zero, so its argument is
   * A = (K_v + 3μI)⁻¹·K_v) from the kernel's eigenpairs: A = Q·diag(g)·Qᵀ with g = λ/(λ + 3μ),
   * so A's singular values are |g| and SVT(A, τ) = Q·diag(sign(g)·max(|g| − τ, 0))·Qᵀ, one
   * (n, r) product instead of an SVD. Returns null when the eigenpairs are gone or go when A
   * is formed (the cached route), when the rounding of the computed A is not far below τ (FIRST_ACCURACY), or when
   * some |g| lies within that rounding (times FIRST_MARGIN) of τ, so that the kept set is in
   * doubt: the caller then runs the SVD on the computed A. Otherwise a function that writes
   * SVT(A, τ) into out and the squared singular values into sq (n; zeros past the thin route's
   * d) and returns the kept rank; it does not read A, so the plan can be made before A is.
   */
  readonly firstThreshold: (
    v: number,
    mu: number,
    tau: number,
  ) => ((out: Mat, sq: Float64Array) => number) | null;
}

/**
 * Distance of a singular value from τ, in units of the computed A's rounding n·ε·κ(K + 3μI)·‖A‖
 * (the reference's A, by a solve, carries as much), below which the closed form leaves the
 * kept set to the SVD.
 */
const FIRST_MARGIN = 100;
/**
 * Largest rounding of the computed A, relative to τ, at which the closed form is used: the
 * residual max|A − C1| (of order τ) then moves by at most this fraction whether C1 comes from
 * A's own SVD or from the kernel's eigenpairs. A linear kernel of badly scaled features
 * (κ(K + 3μI) ≈ 1e9 on MSRC-v1) fails it and keeps the SVD; a Gaussian kernel (κ < 2) passes.
 */
const FIRST_ACCURACY = 1e-9;

interface ViewInverse {
  /** (n, q) orthonormal eigenvectors (q = n: full route; q = d: thin route); null once cached. */
  Q: Mat | null;
  readonly lambda: Float64Array;
  readonly thin: boolean;
  /** The formed (K + cI)⁻¹ (full route, μ final) and its c. */
  cached: Mat | null;
  c: number;
}

/** Thin eigenpairs of X·Xᵀ (n, d ≤ n) through the QR of X (no n × n matrix). */
function thinEig(X: Mat): { Q: Mat; lambda: Float64Array } {
  const { Q: Qx, R } = qr(X);
  const { values, vectors } = symEig(syrk({ rows: R.cols, cols: R.rows, data: transposed(R) }));
  return { Q: matmul(Qx, vectors), lambda: values };
}

function transposed(M: Mat): Float64Array {
  const out = new Float64Array(M.rows * M.cols);
  for (let i = 0; i < M.rows; i++)
    for (let j = 0; j < M.cols; j++) out[j * M.rows + i] = M.data[i * M.cols + j]!;
  return out;
}

/**
 * The inverse applicator for kernels K (n, n each). factors[v], when given, is X_v (n, d_v) with
 * K_v = X_v·X_vᵀ; it is used when d_v ≤ n/2. `final(mu)` says whether μ no longer changes.
 */
export function kernelInverse(
  K: readonly Mat[],
  factors: readonly (Mat | null)[] | undefined,
  final: (mu: number) => boolean,
): KernelInverse {
  const n = K[0]!.rows;
  const views: ViewInverse[] = K.map((k, v) => {
    const X = factors?.[v] ?? null;
    if (X && 2 * X.cols <= n) {
      const { Q, lambda } = thinEig(X);
      return { Q, lambda, thin: true, cached: null, c: 0 };
    }
    const { values, vectors } = symEig(k);
    return { Q: vectors, lambda: values, thin: false, cached: null, c: 0 };
  });
  const dmax = Math.max(...views.map((w) => (w.thin ? w.Q!.cols : n)));
  const T: Mat = { rows: dmax, cols: n, data: new Float64Array(dmax * n) };
  const apply = (v: number, mu: number, B: Mat, out: Mat): void => {
    const w = views[v]!;
    const c = 3 * mu;
    if (w.cached && w.c === c) {
      matmul(w.cached, B, out);
      return;
    }
    const Q = w.Q!;
    const q = Q.cols;
    const t: Mat = { rows: q, cols: n, data: T.data.subarray(0, q * n) };
    if (!w.thin && final(mu)) {
      // (K + cI)⁻¹ = S·Sᵀ with S = Q·diag((λ + c)^(−1/2)) (λ + c > 0: K is PSD up to rounding
      // and c ≥ 3μ0 > 0), formed once in Q's own memory; Q is no longer needed.
      const s = Float64Array.from(w.lambda, (l) => 1 / Math.sqrt(l + c));
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Q.data[i * n + j]! *= s[j]!;
      w.cached = matmulTB(Q, Q);
      w.c = c;
      w.Q = null;
      matmul(w.cached, B, out);
      return;
    }
    matmulTA(Q, B, t);
    for (let i = 0; i < q; i++) {
      const s = w.thin ? 1 / (w.lambda[i]! + c) - 1 / c : 1 / (w.lambda[i]! + c);
      const row = t.data.subarray(i * n, (i + 1) * n);
      for (let j = 0; j < n; j++) row[j]! *= s;
    }
    matmul(Q, t, out);
    if (w.thin) {
      const o = out.data;
      const b = B.data;
      const ic = 1 / c;
      for (let i = 0; i < n * n; i++) o[i]! += b[i]! * ic;
    }
  };
  const firstThreshold: KernelInverse['firstThreshold'] = (v, mu, tau) => {
    const w = views[v]!;
    const Q = w.Q;
    // Forming A on the cached route (μ already final) scales Q in place and drops it.
    if (!Q || (!w.thin && final(mu))) return null;
    const q = Q.cols;
    const c = 3 * mu;
    const g = new Float64Array(q);
    let gmax = 0;
    let lmax = 0;
    for (let i = 0; i < q; i++) {
      const l = w.lambda[i]!;
      g[i] = l / (l + c);
      gmax = Math.max(gmax, Math.abs(g[i]!));
      lmax = Math.max(lmax, Math.abs(l));
    }
    // The computed A carries about n·ε·κ·‖A‖ of rounding (κ = κ(K + 3μI)).
    const rounding = n * Number.EPSILON * gmax * ((lmax + c) / c);
    if (!(rounding <= FIRST_ACCURACY * tau)) return null;
    const kept: number[] = [];
    for (let i = 0; i < q; i++) {
      const d = Math.abs(g[i]!) - tau;
      if (Math.abs(d) <= FIRST_MARGIN * rounding) return null;
      if (d > 0) kept.push(i);
    }
    return (out, sq) => {
      sq.fill(0, 0, n);
      for (let i = 0; i < q; i++) sq[i] = g[i]! * g[i]!;
      const r = kept.length;
      if (r === 0) {
        out.data.fill(0, 0, n * n);
        return 0;
      }
      // SVT(A, τ) = Y·Zᵀ, Z (n, r) the kept eigenvectors, Y = Z·diag(sign(g)·(|g| − τ)).
      const Y: Mat = { rows: n, cols: r, data: new Float64Array(n * r) };
      const Z: Mat = { rows: n, cols: r, data: new Float64Array(n * r) };
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < r; j++) {
          const k = kept[j]!;
          const z = Q.data[i * q + k]!;
          const gk = g[k]!;
          Z.data[i * r + j] = z;
          Y.data[i * r + j] = z * (gk > 0 ? gk - tau : gk + tau);
        }
      }
      matmulTB(Y, Z, out);
      return r;
    };
  };

  return { apply, firstThreshold };
}
