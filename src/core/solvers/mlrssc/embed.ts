/**
 * The embedding of the reference's `spectral_clustering.m` (Ng, Jordan & Weiss) for a dense
 * affinity Af (n, n), symmetric and nonnegative:
 *   g = column sums of Af + eps,  N = I − G·Af·G,  G = diag(1/√g),
 *   E = the eigenvectors of N's c smallest eigenvalues, each row divided by (its norm + eps).
 * The reference takes the right singular vectors of N's c smallest singular values from a full
 * SVD; N is symmetric positive semi-definite (G·Af·G has its spectrum in [−1, 1]), so its
 * singular values are its eigenvalues and the c smallest eigenpairs (`symEigSelect`, 2n²c flops
 * past the tridiagonalisation) span the same subspace. O(n³) time, two n × n arrays.
 */
import { MATLAB_EPS } from '../../graph/pkn';
import { symEigSelect } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';

export interface ReferenceEmbedding {
  /** (n, c) rows of the c smallest eigenvectors of N, each divided by (norm + eps). */
  readonly embedding: Mat;
  /** The min(c + 1, n) smallest eigenvalues of N, ascending (= its smallest singular values). */
  readonly values: readonly number[];
  /** ‖N‖_F. */
  readonly lapFro: number;
}

/** spectral_clustering.m's embedding of the affinity Af (n, n) into c columns. */
export function referenceEmbedding(Af: Mat, c: number): ReferenceEmbedding {
  const n = Af.rows;
  const a = Af.data;
  const s = new Float64Array(n);
  for (let j = 0; j < n; j++) s[j] = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s[j]! += a[i * n + j]!;
  for (let j = 0; j < n; j++) s[j] = 1 / Math.sqrt(s[j]! + MATLAB_EPS);
  const N: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  let fro = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = (i === j ? 1 : 0) - s[i]! * a[i * n + j]! * s[j]!;
      N.data[i * n + j] = x;
      fro += x * x;
    }
  }
  const m = Math.min(c + 1, n);
  const { values, vectors } = symEigSelect(N, m, 'lowest');
  const E = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let j = 0; j < c; j++) r += vectors.data[i * m + j]! ** 2;
    const f = 1 / (Math.sqrt(r) + MATLAB_EPS);
    for (let j = 0; j < c; j++) E[i * c + j] = vectors.data[i * m + j]! * f;
  }
  return {
    embedding: { rows: n, cols: c, data: E },
    values: Array.from(values),
    lapFro: Math.sqrt(fro),
  };
}
