/**
 * Best Single View (BSV)'s math: the spectral analysis of one completed view X_v: (n, d_v),
 *   1. W_v: (n, n) CSR, the symmetrised PKN graph of X_v with `neighbors` neighbours
 *      (Nie, Wang & Huang, KDD 2014; `graph/pkn.ts`);
 *   2. L_v = D^{-1/2}·W_v·D^{-1/2}, its k+1 largest eigenpairs λ_1 ≥ … ≥ λ_{k+1}
 *      (`graph/spectral.ts`);
 *   3. eigengap g_v = λ_k − λ_{k+1}; F_v: (n, k) the first k eigenvectors, rows scaled to unit
 *      length (Ng, Jordan & Weiss, NIPS 2001).
 * Cost per view: O(n²·d_v) for the kNN search + the eigensolver's O(nnz·(k+1)) per filter step;
 * memory O(n·neighbors + n·k).
 */
import { pknGraph } from '../../graph/pkn';
import { affinityEigenpairs, normaliseRows } from '../../graph/spectral';
import type { Mat } from '../../linalg/types';

/** The spectral analysis of one view's graph. */
export interface ViewSpectrum {
  /** (n, k) eigenvectors of the k largest eigenvalues, rows scaled to unit length. */
  readonly embedding: Mat;
  /** (min(k+1, n),) largest eigenvalues of L_v, descending. */
  readonly values: Float64Array;
  /** λ_k − λ_{k+1} (0 when k = n). */
  readonly eigengap: number;
  readonly converged: boolean;
}

/**
 * Steps 1–3 for one complete dense view X: (n, d): PKN graph, the k+1 largest eigenpairs of its
 * normalised affinity, the eigengap and the row-normalised k-dimensional embedding.
 */
export function viewSpectrum(X: Mat, neighbors: number, k: number): ViewSpectrum {
  const n = X.rows;
  const m = Math.min(k + 1, n);
  const r = affinityEigenpairs(pknGraph(X, neighbors), m);
  // The first k eigenvector columns: F[i, :] = V[i, :k].
  const F = new Float64Array(n * k);
  for (let i = 0; i < n; i++) F.set(r.vectors.data.subarray(i * m, i * m + k), i * k);
  const eigengap = m > k ? r.values[k - 1]! - r.values[k]! : 0;
  return {
    embedding: normaliseRows({ rows: n, cols: k, data: F }),
    values: r.values,
    eigengap,
    converged: r.converged,
  };
}
