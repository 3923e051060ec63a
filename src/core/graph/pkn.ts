/**
 * The adaptive-neighbour (PKN / CAN) graph of Nie, Wang & Huang, "Clustering and projected
 * clustering with adaptive neighbors", KDD 2014, in closed form, as the CGL reference code
 * (`constructW_PKN`) builds it (spec cgl-cgmvc-nc.md, step 1). For sample i with its k+1
 * nearest other samples at squared distances d_1 ≤ … ≤ d_{k+1}:
 *   w_ij = (d_{k+1} − d_j) / (k·d_{k+1} − Σ_{j≤k} d_j + eps),  j = 1..k,  0 otherwise,
 * so each row sums to 1 (up to eps), then W = (W + Wᵀ)/2. eps = 2.220446049250313e-16 (MATLAB's
 * eps). W: (n, n) CSR with sorted column indices and at most 2nk entries; weights that are
 * exactly 0 (a neighbour tied with the (k+1)-th) are not stored, and a sample whose k + 1
 * neighbours all tie has an empty row. `pknGraph` takes the exact kNN;
 * `referencePknGraph` also reproduces the reference's neighbour lists (the sample itself among
 * the candidates) and its rounding of the distances, for bit-level agreement with it.
 */
import type { Csr, Mat } from '../linalg/types';
import { transposeCsr } from '../linalg/sparse';
import { knn, type Knn, type KnnOptions } from './knn';

/** MATLAB's eps, 2⁻⁵², as the reference code adds it. */
export const MATLAB_EPS = 2.220446049250313e-16;

/** The symmetrised PKN graph W (n×n CSR) of the rows of X with k neighbours. */
export function pknGraph(X: Mat | Csr, k: number, options: KnnOptions = {}): Csr {
  if (!Number.isInteger(k) || k < 1 || k > X.rows - 2) {
    throw new Error(`pknGraph: k = ${k} must be an integer in 1..${X.rows - 2} (n = ${X.rows})`);
  }
  return symmetrise(pknRows(knn(X, k + 1, options), k));
}

/**
 * The unsymmetrised PKN rows from neighbour lists with at least k+1 neighbours per row (the
 * sorted output of `knn`, or any distances the caller transformed, e.g. 2 − Dis of spec step 5).
 * Row i holds the weights of its k nearest neighbours; it sums to 1 − eps/(k·d_{k+1} − Σd_j + eps).
 * O(n·k²) at worst (insertion by column; k is small).
 */
export function pknRows(nn: Knn, k: number): Csr {
  const { n } = nn;
  if (nn.k < k + 1) throw new Error(`pknRows: need ${k + 1} neighbours per row, have ${nn.k}`);
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(n * k);
  const data = new Float64Array(n * k);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const o = i * nn.k;
    const dk1 = nn.distances[o + k]!;
    let sum = 0;
    for (let j = 0; j < k; j++) sum += nn.distances[o + j]!;
    const denom = k * dk1 - sum + MATLAB_EPS;
    const start = q;
    // All k + 1 neighbours tied (duplicates, e.g. a view's mean-filled samples): every
    // numerator is 0 and k·d_{k+1} − Σd_j rounds to about −eps, so the quotient is 0/0 or 0/eps.
    // The row is left empty, the reference's result whenever that sum does not round to −eps.
    if (!(denom > 0)) {
      indptr[i + 1] = q;
      continue;
    }
    for (let j = 0; j < k; j++) {
      const wij = (dk1 - nn.distances[o + j]!) / denom;
      if (wij === 0) continue;
      // Insertion by column index (the k entries of a row, distinct).
      const c = nn.indices[o + j]!;
      let p = q++;
      while (p > start && indices[p - 1]! > c) {
        indices[p] = indices[p - 1]!;
        data[p] = data[p - 1]!;
        p--;
      }
      indices[p] = c;
      data[p] = wij;
    }
    indptr[i + 1] = q;
  }
  return { rows: n, cols: n, indptr, indices: indices.slice(0, q), data: data.slice(0, q) };
}

/** (W + Wᵀ)/2 for a square CSR W with sorted rows; the result has sorted rows. O(nnz). */
export function symmetrise(W: Csr): Csr {
  if (W.rows !== W.cols) throw new Error(`symmetrise: W is ${W.rows}x${W.cols}, not square`);
  const Wt = transposeCsr(W);
  const n = W.rows;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(W.indptr[n]! + Wt.indptr[n]!);
  const data = new Float64Array(indices.length);
  let q = 0;
  for (let i = 0; i < n; i++) {
    let p = W.indptr[i]!;
    let t = Wt.indptr[i]!;
    const pe = W.indptr[i + 1]!;
    const te = Wt.indptr[i + 1]!;
    // Merge two sorted rows.
    while (p < pe || t < te) {
      const cp = p < pe ? W.indices[p]! : n;
      const ct = t < te ? Wt.indices[t]! : n;
      let v = 0;
      if (cp <= ct) v += W.data[p++]!;
      if (ct <= cp) v += Wt.data[t++]!;
      indices[q] = Math.min(cp, ct);
      data[q++] = 0.5 * v;
    }
    indptr[i + 1] = q;
  }
  return { rows: n, cols: n, indptr, indices: indices.slice(0, q), data: data.slice(0, q) };
}

/**
 * The reference's neighbour lists (`constructW_PKN`: sort each row of the distance matrix, the
 * sample itself included, and drop the first entry): from the k + 1 nearest *other* samples
 * `nn`, the sample i is merged in at distance dist(i, i) and the list re-sorted by
 * (distance, index); the first entry is dropped. All distances are recomputed by `dist`, so a
 * sample and an exact duplicate of it tie exactly: the lower index sorts first, and a sample whose
 * duplicate has a lower index keeps itself as a neighbour (3Sources holds one duplicated
 * document, which is how the reference graph differs from a self-excluding kNN).
 */
export function referenceNeighbours(nn: Knn, dist: (i: number, j: number) => number): Knn {
  const { n, k } = nn;
  const indices = new Int32Array(n * k);
  const distances = new Float64Array(n * k);
  // Row i's k + 1 candidates, kept sorted by (distance, index) by insertion as they come
  // (the knn's order nearly holds already, so each insertion moves little).
  const cd = new Float64Array(k + 1);
  const ci = new Int32Array(k + 1);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r <= k; r++) {
      const j = r === 0 ? i : nn.indices[i * k + r - 1]!;
      insertByDistance(cd, ci, r, dist(i, j), j);
    }
    for (let r = 0; r < k; r++) {
      distances[i * k + r] = cd[r + 1]!;
      indices[i * k + r] = ci[r + 1]!;
    }
  }
  return { n, k, indices, distances };
}

/**
 * Inserts the candidate (x, j) into the first `len` entries of (cd, ci), which are sorted by
 * (distance, index) and stay so (entry `len` is overwritten). O(len).
 */
export function insertByDistance(
  cd: Float64Array,
  ci: Int32Array,
  len: number,
  x: number,
  j: number,
): void {
  let p = len;
  while (p > 0 && (cd[p - 1]! > x || (cd[p - 1] === x && ci[p - 1]! > j))) {
    cd[p] = cd[p - 1]!;
    ci[p] = ci[p - 1]!;
    p--;
  }
  cd[p] = x;
  ci[p] = j;
}

/** Squared Euclidean distance as the reference forms it: max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0). */
export function gramDistance(X: Mat): (i: number, j: number) => number {
  const { rows, cols, data } = X;
  const sq = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let p = i * cols; p < (i + 1) * cols; p++) s += data[p]! * data[p]!;
    sq[i] = s;
  }
  return (i, j) => {
    let d = 0;
    const oi = i * cols;
    const oj = j * cols;
    for (let p = 0; p < cols; p++) d += data[oi + p]! * data[oj + p]!;
    return Math.max(sq[i]! + sq[j]! - 2 * d, 0);
  };
}

/**
 * The symmetrised PKN graph W (n×n CSR) of the rows of X (n, d) with k neighbours, exactly as the
 * reference code builds it (`constructW_PKN` on squared distances formed as
 * max(‖x_i‖² + ‖x_j‖² − 2·x_i·x_j, 0), the neighbour lists of `referenceNeighbours`). Differs from
 * `pknGraph` only where distances tie or round differently (exact duplicates, Gram cancellation).
 */
export function referencePknGraph(X: Mat, k: number): Csr {
  if (!Number.isInteger(k) || k < 1 || k > X.rows - 2) {
    throw new Error(`referencePknGraph: ${k} neighbours need at least ${k + 2} samples`);
  }
  const nn = referenceNeighbours(knn(X, k + 1), gramDistance(X));
  return symmetrise(pknRows(nn, k));
}
