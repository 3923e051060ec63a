/**
 * Solves (I + λ·L)·x = b for the Laplacian L = D − W of a sparse symmetric nonnegative graph W
 * (n × n CSR, D = diag(W·1)) and many right-hand sides, without forming or inverting an n × n
 * matrix: conjugate gradients with the Jacobi preconditioner diag(I + λ·D), the right-hand
 * sides side by side. I + λL is symmetric positive definite with eigenvalues in [1, 1 + 2λ·max deg], so
 * CG converges in O(√(1 + 2λ·max deg)) iterations; each costs O(n + nnz(W)).
 *
 * The reference codes precompute inv(λL + I) densely (d³ once, then 2·d² per column per use);
 * this is the same solution to within the solve's rounding (relative residual ≤ `RESIDUAL_TOL`).
 */
import { spmm } from '../linalg/sparse';
import type { Csr, Mat } from '../linalg/types';

/** Relative residual ‖b − (I + λL)x‖ / ‖b‖ at which a right-hand side is solved. */
export const RESIDUAL_TOL = 1e-14;

/** What one call did: the solution and the most CG iterations any right-hand side took. */
export interface ShiftedLaplacianSolve {
  readonly X: Mat;
  readonly maxIterations: number;
}

/**
 * X (n × m) with (I + λ(D − W))·X = B for B (n × m), each column a right-hand side, W an
 * (n × n) symmetric nonnegative CSR graph, λ ≥ 0. The m CG recurrences run side by side (their
 * scalars per column), so each step is one sparse product W·P (`spmm`) and row-wise updates;
 * a column stops moving once its relative residual is at most `RESIDUAL_TOL`, and all stop
 * after `maxIterations` (default 2n + 50) steps. O(iterations·(n·m + nnz·m)).
 */
export function shiftedLaplacianSolve(
  W: Csr,
  lambda: number,
  B: Mat,
  maxIterations = 2 * W.rows + 50,
): ShiftedLaplacianSolve {
  const n = W.rows;
  const m = B.cols;
  if (W.cols !== n) throw new Error(`shiftedLaplacianSolve: W is ${W.rows}x${W.cols}, not square`);
  if (B.rows !== n) throw new Error(`shiftedLaplacianSolve: B has ${B.rows} rows, W is ${n}x${n}`);
  if (!(lambda >= 0)) throw new Error(`shiftedLaplacianSolve: λ = ${lambda} must be ≥ 0`);
  const shift = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let d = 0;
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) d += W.data[p]!;
    shift[i] = 1 + lambda * d;
  }
  const b = B.data;
  const X: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
  const x = X.data;
  const r = new Float64Array(n * m);
  const P: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
  const p = P.data;
  const WP: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
  const q = new Float64Array(n * m);
  const rz = new Float64Array(m);
  const rr = new Float64Array(m);
  const stop = new Float64Array(m);
  const step = new Float64Array(m);
  // y = (I + λ(D − W))·Y for the columns of Y = P (rows scaled by the shift, minus λ·W·P).
  const apply = (into: Float64Array): void => {
    spmm(W, P, WP);
    const wp = WP.data;
    for (let i = 0; i < n; i++) {
      const si = shift[i]!;
      for (let j = i * m; j < (i + 1) * m; j++) into[j] = si * p[j]! - lambda * wp[j]!;
    }
  };
  // From x = 0: r = b, z = M⁻¹r, p = z (M = diag(I + λD), the Jacobi preconditioner).
  for (let i = 0; i < n; i++) {
    const si = shift[i]!;
    for (let j = i * m, c = 0; c < m; j++, c++) {
      const bj = b[j]!;
      r[j] = bj;
      p[j] = bj / si;
      rr[c]! += bj * bj;
      rz[c]! += (bj * bj) / si;
    }
  }
  for (let c = 0; c < m; c++) stop[c] = RESIDUAL_TOL * RESIDUAL_TOL * rr[c]!;
  let it = 0;
  const active = (): boolean => {
    for (let c = 0; c < m; c++) if (rr[c]! > stop[c]!) return true;
    return false;
  };
  while (it < maxIterations && active()) {
    it++;
    apply(q);
    step.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i * m, c = 0; c < m; j++, c++) step[c]! += p[j]! * q[j]!;
    }
    // A converged column takes no step (α = 0) and keeps its direction (β = 0 below).
    for (let c = 0; c < m; c++) step[c] = rr[c]! > stop[c]! ? rz[c]! / step[c]! : 0;
    const rzNext = new Float64Array(m);
    rr.fill(0);
    for (let i = 0; i < n; i++) {
      const si = shift[i]!;
      for (let j = i * m, c = 0; c < m; j++, c++) {
        x[j]! += step[c]! * p[j]!;
        r[j]! -= step[c]! * q[j]!;
        rr[c]! += r[j]! * r[j]!;
        rzNext[c]! += (r[j]! * r[j]!) / si;
      }
    }
    for (let c = 0; c < m; c++) {
      const beta = step[c] === 0 ? 0 : rzNext[c]! / rz[c]!;
      rz[c] = rzNext[c]!;
      step[c] = beta;
    }
    for (let i = 0; i < n; i++) {
      const si = shift[i]!;
      for (let j = i * m, c = 0; c < m; j++, c++) p[j] = r[j]! / si + step[c]! * p[j]!;
    }
  }
  return { X, maxIterations: it };
}
