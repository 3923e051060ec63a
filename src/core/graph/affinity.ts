/**
 * The normalised affinity of a graph (spec cgl-cgmvc-nc.md, step 2):
 *   L = D^{-1/2}·W·D^{-1/2},  D = diag(rowsum(W) + eps),  eps = 2⁻⁵² (MATLAB's eps),
 * so l_ij = w_ij / √(d_i·d_j). W: (n, n) CSR, symmetric with nonnegative weights; L has W's
 * pattern. For such W the spectrum of L lies in [−1, 1], and 1 is an eigenvalue of multiplicity
 * equal to the number of connected components (up to the eps shift of D), with eigenvectors
 * D^{1/2}·1_C. O(nnz).
 */
import type { Csr } from '../linalg/types';
import { MATLAB_EPS } from './pkn';

/** d_i = Σ_j w_ij + eps: the degrees used by `normalisedAffinity`. */
export function degrees(W: Csr): Float64Array {
  const d = new Float64Array(W.rows);
  for (let i = 0; i < W.rows; i++) {
    let s = 0;
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) s += W.data[p]!;
    d[i] = s + MATLAB_EPS;
  }
  return d;
}

/** L = D^{-1/2}·W·D^{-1/2} for a square CSR W (same pattern, new values). */
export function normalisedAffinity(W: Csr): Csr {
  if (W.rows !== W.cols)
    throw new Error(`normalisedAffinity: W is ${W.rows}x${W.cols}, not square`);
  const s = degrees(W).map((d) => 1 / Math.sqrt(d));
  const data = new Float64Array(W.data.length);
  for (let i = 0; i < W.rows; i++)
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      data[p] = W.data[p]! * (s[i]! * s[W.indices[p]!]!); // s_i·s_j first: L is exactly symmetric
    }
  return { rows: W.rows, cols: W.cols, indptr: W.indptr, indices: W.indices, data };
}
