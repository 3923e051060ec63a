/**
 * The H-step's eigensolver (factorised path): the c largest eigenpairs of
 *   G = λ·L + S,  S = Q(½(T + Tᵀ) − ½F̄F̄ᵀ)Q = Σ U·Wᵀ of rank ≤ 2Vc   (n × n, never formed).
 *
 * After the first pass S dominates: on HW (λ = 1/√n) the c wanted eigenvalues are ≈ 10⁴ and the
 * (c+1)-th ≈ 1, so warm-started subspace iteration converges in three or four products. Fast
 * path: block power iteration on G with the previous H as start and Rayleigh–Ritz on the block
 * after every product; Ritz pairs are accepted when ‖G·x_i − θ_i·x_i‖₂ ≤ tol·max(|θ_1|, μ) (the
 * block eigensolver's test) and θ_c > μ, where μ ≥ −λ_min(G) from
 *   λ_min(G) ≥ −λ + λ_min(S),  λ_min(S) ≥ −‖Q·ΔP‖_F·‖Q·F_cat‖_F
 * (λL has its spectrum in [−λ, λ]; ½QF̄F̄ᵀQ is positive semidefinite): power iteration finds the
 * eigenvalues of largest modulus, and θ_c > μ makes them the largest *algebraic* ones. When the
 * residuals shrink by less than 5× per product (no dominant gap: large λ, the first pass) or the
 * test on θ_c fails, the current block goes to `blockEig` (Chebyshev-filtered subspace iteration
 * with spectrum bounds), the general solver. Either way the returned pairs meet the tolerance.
 */
import { blockEig, type SymOp } from '../../linalg/blockeig';
import { matmul, matmulTA, symEig } from '../../linalg/kernels';
import { orthonormalise, orthWork } from '../../linalg/orth';
import type { Mat } from '../../linalg/types';

export interface TopEig {
  /** (n, c) orthonormal eigenvectors, eigenvalues descending. */
  readonly vectors: Mat;
  readonly values: Float64Array;
  readonly converged: boolean;
  /** Products with G (blocks of c columns count once) and whether blockEig was needed. */
  readonly products: number;
  readonly fallback: boolean;
}

const MAX_FAST = 30;

/**
 * Top-c eigenpairs of `op` (n × n) from the orthonormal start block X0 (n × c); `shift` = μ with
 * G + μI ⪰ 0. Falls back to `blockEig` (see the module comment).
 */
export function topEigenpairs(
  op: SymOp,
  c: number,
  X0: Mat | null,
  shift: number,
  tol: number,
  bounds: { lower: number; upper: number } | null,
): TopEig {
  const n = op.n;
  if (X0 && 2 * c < n) {
    const X: Mat = { rows: n, cols: c, data: Float64Array.from(X0.data) };
    const Y: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    const S2: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    const work = orthWork(c);
    let prev = Infinity;
    for (let it = 1; it <= MAX_FAST; it++) {
      op.apply(X, Y);
      // Rayleigh–Ritz on span(X): Hm = XᵀY, Hm = Φ·Θ·Φᵀ.
      const Hm = matmulTA(X, Y);
      const e = symEig(Hm);
      const Phi: Mat = { rows: c, cols: c, data: new Float64Array(c * c) };
      const theta = new Float64Array(c);
      for (let j = 0; j < c; j++) {
        theta[j] = e.values[c - 1 - j]!;
        for (let i = 0; i < c; i++) Phi.data[i * c + j] = e.vectors.data[i * c + (c - 1 - j)]!;
      }
      const Xr = matmul(X, Phi);
      const Yr = matmul(Y, Phi);
      const norm = Math.max(Math.abs(theta[0]!), shift);
      let worst = 0;
      for (let j = 0; j < c; j++) {
        let r = 0;
        for (let i = 0; i < n; i++) {
          const d = Yr.data[i * c + j]! - theta[j]! * Xr.data[i * c + j]!;
          r += d * d;
        }
        worst = Math.max(worst, Math.sqrt(r));
      }
      // Converged, and the c-th value lies above every possible negative eigenvalue.
      if (worst <= tol * norm && theta[c - 1]! > shift) {
        return {
          vectors: Xr,
          values: theta,
          converged: true,
          products: it,
          fallback: false,
        };
      }
      if (it >= 3 && worst > prev * 0.2) break;
      if (worst <= tol * norm) break; // converged to eigenvalues that may not be the largest
      prev = worst;
      // Next block: orth(G·X_ritz).
      Y.data.set(Yr.data);
      X.data.set(orthonormalise(Y, S2, work).data);
    }
    const r = blockEig(op, c, {
      which: 'largest',
      tol,
      maxIter: 500,
      denseBelow: 0,
      X0: X,
      ...(bounds ? { bounds } : {}),
    });
    return {
      vectors: r.vectors,
      values: r.values,
      converged: r.converged,
      products: r.matvecs,
      fallback: true,
    };
  }
  const r = blockEig(op, c, {
    which: 'largest',
    tol,
    maxIter: 500,
    denseBelow: 0,
    ...(X0 ? { X0 } : {}),
    ...(bounds ? { bounds } : {}),
  });
  return {
    vectors: r.vectors,
    values: r.values,
    converged: r.converged,
    products: r.matvecs,
    fallback: X0 !== null,
  };
}
