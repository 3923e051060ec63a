/**
 * The binary kNN graph of Deng Cai's `constructW` (NeighborMode 'KNN', WeightMode 'Binary',
 * bSelfConnected 0, bTrueKNN 0), which the FLSD and UEAF codes build per view:
 *
 * 1. for each sample i, its k + 1 nearest samples by squared Euclidean distance
 *    d(i, j) = max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0), **the sample itself among the candidates**,
 *    ties broken by the lower index (the reference takes the row minimum k + 1 times);
 * 2. W_ij = 1 for each of them, then the diagonal is cleared;
 * 3. W = max(W, Wᵀ) (an edge when either end picked the other).
 *
 * Usually the sample itself is its own nearest, so each sample gets k neighbours; a sample with
 * duplicates of lower index (exact ties at distance 0, e.g. the all-zero samples of BDGP) can
 * fall out of its own k + 1 and then gets k + 1 neighbours, exactly as in the reference.
 *
 * From the exact kNN of `knn` (k + 1 other samples each, sorted by (distance, index)), the
 * sample itself is merged in and the k + 2 candidates are ranked again with every distance
 * recomputed by one sequential formula (`gramDistance`, or its CSR form), so a sample and a
 * duplicate tie exactly. With k ≥ n − 1 every sample is among every sample's k + 1 candidates:
 * the complete graph (UEAF builds graphs over a view's features, which can be that few). Output:
 * (n, n) CSR, sorted columns, values 1, symmetric, at most 2·n·(k + 1) entries. Time: `knn` (O(n²·d) at worst) plus O(n·k·d); memory O(n·k). No n × n
 * array.
 */
import type { Csr, Mat } from '../linalg/types';
import { knn, type KnnOptions } from './knn';
import { gramDistance, insertByDistance, symmetrise } from './pkn';

/** constructW's symmetrised binary kNN graph of the rows of X (n, d); see the file comment. */
export function binaryKnnGraph(X: Mat | Csr, k: number, options: KnnOptions = {}): Csr {
  const n = X.rows;
  if (!Number.isInteger(k) || k < 1) {
    throw new Error(`binaryKnnGraph: k = ${k} must be an integer ≥ 1 (n = ${n} rows)`);
  }
  if (k >= n - 1) return completeGraph(n);
  const nn = knn(X, k + 1, options);
  const dist = 'indptr' in X ? csrDistance(X) : gramDistance(X);
  const m = k + 1;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(n * m);
  const cd = new Float64Array(m + 1);
  const ci = new Int32Array(m + 1);
  const row = new Int32Array(m);
  let q = 0;
  for (let i = 0; i < n; i++) {
    // The k + 2 candidates (itself first, then its k + 1 nearest others), kept sorted by
    // (distance, index) by insertion.
    for (let r = 0; r <= m; r++) {
      const j = r === 0 ? i : nn.indices[i * m + r - 1]!;
      insertByDistance(cd, ci, r, dist(i, j), j);
    }
    // The first k + 1 of them without the sample itself, by column.
    let len = 0;
    for (let r = 0; r < m; r++) if (ci[r] !== i) row[len++] = ci[r]!;
    row.subarray(0, len).sort();
    indices.set(row.subarray(0, len), q);
    q += len;
    indptr[i + 1] = q;
  }
  const W = symmetrise({
    rows: n,
    cols: n,
    indptr,
    indices: indices.slice(0, q),
    data: new Float64Array(q).fill(1),
  });
  W.data.fill(1);
  return W;
}

/** `gramDistance` for CSR rows: max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0), the dot by a sorted merge. */
function csrDistance(X: Csr): (i: number, j: number) => number {
  const { rows, indptr, indices, data } = X;
  const sq = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) s += data[p]! * data[p]!;
    sq[i] = s;
  }
  return (i, j) => {
    let d = 0;
    let p = indptr[i]!;
    let t = indptr[j]!;
    const pe = indptr[i + 1]!;
    const te = indptr[j + 1]!;
    while (p < pe && t < te) {
      const a = indices[p]!;
      const b = indices[t]!;
      if (a === b) d += data[p++]! * data[t++]!;
      else if (a < b) p++;
      else t++;
    }
    return Math.max(sq[i]! + sq[j]! - 2 * d, 0);
  };
}

/** The complete graph on n vertices, 11ᵀ − I, as CSR. */
function completeGraph(n: number): Csr {
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(n * Math.max(0, n - 1));
  let q = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (j !== i) indices[q++] = j;
    indptr[i + 1] = q;
  }
  return { rows: n, cols: n, indptr, indices, data: new Float64Array(q).fill(1) };
}
