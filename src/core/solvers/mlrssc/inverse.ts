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

/** Applies (K_v + 3μI)⁻¹ to B (n, n), into out (n, n). */
export type KernelInverse = (v: number, mu: number, B: Mat, out: Mat) => void;

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
  return (v, mu, B, out) => {
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
}
