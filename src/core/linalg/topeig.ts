/**
 * Warm-started top-c eigenpairs of a symmetric operator G (n × n, `SymOp`, never formed), for a
 * sequence of related problems whose previous solution, or a good guess, starts the next (CGL's
 * H-step solves one per view and pass). The caller knows μ = `shift` ≥ −λ_min(G).
 *
 * Fast path: block power iteration on G from the start block X0 with Rayleigh–Ritz on the block
 * after every product; Ritz pairs are accepted when ‖G·x_i − θ_i·x_i‖₂ ≤ tol·max(|θ_1|, μ) (the
 * block eigensolver's test) and θ_c > μ: power iteration finds the eigenvalues of largest modulus,
 * and θ_c > μ makes them the largest *algebraic* ones. It converges in a few products when the c
 * wanted eigenvalues dominate the rest in modulus (a dominant low-rank positive part). When the
 * residuals shrink by less than 5× per product (no dominant gap) or the test on θ_c fails, the
 * current block goes to `blockEig` (Chebyshev-filtered subspace iteration with spectrum bounds),
 * the general solver. Either way the returned pairs meet the tolerance.
 *
 * With `predict`, a block that fails the test can still be accepted one product early when a
 * bound proves the next block would pass it: with β = μ ≥ max_{j>c} |λ_j| (the caller's promise;
 * CGL's has it by Weyl, its positive semidefinite part having rank c) and the Ritz values θ and
 * residuals R of the current block X,
 *   sin∠(X, U) ≤ ‖R‖_F / (θ_c − β)                      (Davis–Kahan; U the top-c eigenvectors)
 *   tan∠(G·X, U) ≤ (β / θ_c) · tan∠(X, U)               (subspace iteration; λ_c ≥ θ_c)
 *   ‖(I − P)·G·X'‖ ≤ (λ_1 + β) · sin∠(X', U),  λ_1 ≤ θ_1 + ‖R‖_F   (X' = orth(G·X), P = X'X'ᵀ;
 *                                                        Kahan, as θ_c − ‖R‖_F > β)
 * and every Ritz residual of X' is at most the middle norm. When that bound meets tol·max(|θ_1|, μ)
 * the block X' = orth(G·X) (a basis of the accepted subspace, not its Ritz vectors: for a caller
 * that uses only the subspace) is returned without the product that would have checked it.
 *
 * Cost per product: one application of G to n × c, a c × c `symEig` and two n × c × c GEMMs;
 * memory: five n × c blocks (`fastWork`, reusable from call to call).
 */
import { blockEig, type SymOp } from './blockeig';
import { matmul, matmulTA, symEig } from './kernels';
import { orthonormalise, orthWork, type OrthWork } from './orth';
import type { Mat } from './types';

/**
 * The fast path's blocks (n × c each), kept by a caller that solves many eigenproblems of one
 * size (the H-step, every pass) instead of five n × c arrays allocated and dropped per call,
 * which lowers the peak memory of a solve.
 */
export interface FastWork {
  readonly X: Mat;
  readonly Y: Mat;
  readonly S2: Mat;
  readonly Xr: Mat;
  readonly Yr: Mat;
  readonly orth: OrthWork;
}

export function fastWork(n: number, c: number): FastWork {
  const block = (): Mat => ({ rows: n, cols: c, data: new Float64Array(n * c) });
  return { X: block(), Y: block(), S2: block(), Xr: block(), Yr: block(), orth: orthWork(c) };
}

export interface TopEig {
  /** (n, c) orthonormal eigenvectors, eigenvalues descending. */
  readonly vectors: Mat;
  readonly values: Float64Array;
  readonly converged: boolean;
  /** Products with G (blocks of c columns count once) and whether blockEig was needed. */
  readonly products: number;
  readonly fallback: boolean;
  /**
   * Accepted by the bound on the next block (`predict`): `vectors` is an orthonormal basis of
   * the accepted subspace, not Ritz vectors, and `values` are the previous block's Ritz values.
   */
  readonly predicted: boolean;
}

const MAX_FAST = 30;

/**
 * The block eigensolver's width: its default c + max(3, ⌈c/4⌉) rounded up to a multiple of 8 (at
 * most n), since the CSR kernel takes columns 8 at a time: the wider block needs fewer products
 * and each costs less per column.
 */
function blockSize(c: number, n: number): number {
  return Math.min(n, Math.ceil((c + Math.max(3, Math.ceil(c / 4))) / 8) * 8);
}

/**
 * Top-c eigenpairs of `op` (n × n) from the start block X0 (n × c, orthonormal unless
 * checkFrom > 1: the first product is then a plain power step); `shift` = μ with
 * G + μI ⪰ 0; `bounds` ⊇ G's spectrum, for the fallback. Falls back to `blockEig` (see the module comment).
 */
export function topEigenpairs(
  op: SymOp,
  c: number,
  X0: Mat | null,
  shift: number,
  tol: number,
  bounds: { lower: number; upper: number } | null,
  /** The first product after which the Ritz pairs are tested (1: test the start block too). */
  checkFrom = 1,
  /**
   * The fast path's blocks (`fastWork(n, c)`), reused from call to call; the vectors returned
   * are then its `Xr`, valid until the next call with it.
   */
  fw?: FastWork,
  /** Accept a block one product early when the bound above proves it (needs `bounds`, μ). */
  predict = false,
): TopEig {
  const n = op.n;
  if (X0 && 2 * c < n) {
    const { X, Y, S2, Xr, Yr, orth: work } = fw ?? fastWork(n, c);
    X.data.set(X0.data);
    const res = new Float64Array(2);
    // Ritz blocks X·Φ (returned on convergence) and Y·Φ, written in place every iteration.
    let prev = Infinity;
    for (let it = 1; it <= MAX_FAST; it++) {
      op.apply(X, Y);
      if (it < checkFrom) {
        // A start known not to be converged: a plain power step, no Rayleigh–Ritz.
        X.data.set(orthonormalise(Y, S2, work).data);
        continue;
      }
      // Rayleigh–Ritz on span(X): Hm = XᵀY, Hm = Φ·Θ·Φᵀ.
      const Hm = matmulTA(X, Y);
      const e = symEig(Hm);
      const Phi: Mat = { rows: c, cols: c, data: new Float64Array(c * c) };
      const theta = new Float64Array(c);
      for (let j = 0; j < c; j++) {
        theta[j] = e.values[c - 1 - j]!;
        for (let i = 0; i < c; i++) Phi.data[i * c + j] = e.vectors.data[i * c + (c - 1 - j)]!;
      }
      matmul(X, Phi, Xr);
      matmul(Y, Phi, Yr);
      const norm = Math.max(Math.abs(theta[0]!), shift);
      ritzResiduals(Yr.data, Xr.data, theta, n, c, res);
      const worst = res[0]!;
      const ss = res[1]!;
      const accept = (predicted: boolean): TopEig => ({
        vectors: Xr,
        values: theta,
        converged: true,
        products: it,
        fallback: false,
        predicted,
      });
      // Converged, and the c-th value lies above every possible negative eigenvalue.
      if (worst <= tol * norm && theta[c - 1]! > shift) return accept(false);
      if (predict && bounds && nextMeetsTol(theta, Math.sqrt(ss), shift, tol * norm)) {
        // The next block, orth(G·X_ritz), provably meets the test: returned unchecked.
        Y.data.set(Yr.data);
        Xr.data.set(orthonormalise(Y, S2, work).data);
        return accept(true);
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
      blockSize: blockSize(c, n),
      X0: X,
      ...(bounds ? { bounds } : {}),
    });
    return {
      vectors: r.vectors,
      values: r.values,
      converged: r.converged,
      products: r.matvecs,
      fallback: true,
      predicted: false,
    };
  }
  const r = blockEig(op, c, {
    which: 'largest',
    tol,
    maxIter: 500,
    denseBelow: 0,
    blockSize: blockSize(c, n),
    ...(X0 ? { X0 } : {}),
    ...(bounds ? { bounds } : {}),
  });
  return {
    vectors: r.vectors,
    values: r.values,
    converged: r.converged,
    products: r.matvecs,
    fallback: X0 !== null,
    predicted: false,
  };
}

/**
 * The Ritz residuals' largest 2-norm and squared Frobenius norm, max_j ‖y_j − θ_j·x_j‖ and
 * Σ_j ‖y_j − θ_j·x_j‖², for the n × c blocks Yr = G·Xr, into out[0] and out[1].
 */
function ritzResiduals(
  yr: Float64Array,
  xr: Float64Array,
  theta: Float64Array,
  n: number,
  c: number,
  out: Float64Array,
): void {
  let worst = 0;
  let ss = 0;
  for (let j = 0; j < c; j++) {
    let r = 0;
    for (let i = 0; i < n; i++) {
      const d = yr[i * c + j]! - theta[j]! * xr[i * c + j]!;
      r += d * d;
    }
    worst = Math.max(worst, Math.sqrt(r));
    ss += r;
  }
  out[0] = worst;
  out[1] = ss;
}

/**
 * Whether the block orth(G·X) after the Ritz pairs (θ descending, residuals of Frobenius norm
 * `fro`) provably has every Ritz residual ≤ `limit`, with β ≥ max_{j>c} |λ_j(G)| (the module
 * comment's bound).
 */
function nextMeetsTol(theta: Float64Array, fro: number, beta: number, limit: number): boolean {
  const thetaC = theta[theta.length - 1]!;
  if (!(thetaC - fro > beta) || !(beta >= 0)) return false;
  const sin1 = fro / (thetaC - beta);
  if (!(sin1 < 1)) return false;
  const tan2 = (beta / thetaC) * (sin1 / Math.sqrt(1 - sin1 * sin1));
  // sin ≤ tan; λ_1 ≤ θ_1 + ‖R‖_F.
  return (theta[0]! + fro + beta) * tan2 <= limit;
}
