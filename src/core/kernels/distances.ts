/**
 * Squared Euclidean distances between the rows of two dense matrices by the expansion the
 * reference MATLAB codes use (`EuDist2`, `eucl_dist2`):
 *
 *   D_ij = max(‖x_i‖² + ‖y_j‖² − 2·x_i·y_j, 0)        X: (n, d), Y: (m, d) → D: (n, m)
 *
 * The cross products go through GEMM, so a distance costs what a product costs (2nmd flops);
 * rounding can leave a small positive D_ij for equal rows, which the clamp does not remove.
 * Without Y the distances are those among X's rows, made exactly symmetric by the elementwise
 * max(D, Dᵀ) and given a zero diagonal (what MLRSSC's `construct_kernel` and `opt_sigma` do
 * before a kernel or a bandwidth is taken from them).
 */
import { matmulTB, syrk, transposeInto } from '../linalg/kernels';
import { rowSquaredNorms } from '../linalg/rows';
import type { Mat } from '../linalg/types';

/**
 * D (n, m) of the rows of X (n, d) against the rows of Y (m, d), or among the rows of X
 * (n, n; symmetric, zero diagonal) when Y is omitted. O(nmd) time, the output's memory plus
 * the Gram matrix it is computed in place of.
 */
export function squaredDistances(X: Mat, Y?: Mat): Mat {
  if (Y && Y.cols !== X.cols) {
    throw new RangeError(`squaredDistances: X has ${X.cols} columns, Y has ${Y.cols}`);
  }
  const nx = rowSquaredNorms(X);
  if (Y) {
    const ny = rowSquaredNorms(Y);
    const D = matmulTB(X, Y);
    const m = Y.rows;
    const g = D.data;
    for (let i = 0; i < X.rows; i++) {
      for (let j = 0; j < m; j++) g[i * m + j] = Math.max(nx[i]! + ny[j]! - 2 * g[i * m + j]!, 0);
    }
    return D;
  }
  // X·Xᵀ as the symmetric rank update of Xᵀ: syrk mirrors its triangle, so D is exactly
  // symmetric and max(D, Dᵀ) changes nothing.
  const D = syrk(transposeInto(X));
  const n = X.rows;
  const g = D.data;
  for (let i = 0; i < n; i++) {
    g[i * n + i] = 0;
    for (let j = i + 1; j < n; j++) {
      const v = Math.max(nx[i]! + nx[j]! - 2 * g[i * n + j]!, 0);
      g[i * n + j] = v;
      g[j * n + i] = v;
    }
  }
  return D;
}
