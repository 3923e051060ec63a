/**
 * The binary kNN graph as Deng Cai's `constructW` builds it with NeighborMode 'KNN' and
 * WeightMode 'Binary' (its defaults otherwise: Euclidean distances, bSelfConnected 0, bTrueKNN 0),
 * the graph the UEAF and FLSD reference codes use:
 *
 * 1. for each row i of X (n rows), the k + 1 nearest rows *including i itself*, by squared
 *    Euclidean distance with ties to the lower index (`min` taken k + 1 times in the reference);
 * 2. w_ij = 1 for each of them, then the diagonal removed: row i keeps k neighbours when it was
 *    among its own k + 1 candidates, else all k + 1 (a row with at least k + 1 exact duplicates
 *    of lower index, e.g. all-zero rows, does not find itself);
 * 3. W = max(W, Wᵀ) (symmetric, 0/1).
 *
 * The distance of a row to itself is taken as exactly 0 (the reference's is rounding noise of
 * ‖x‖² + ‖x‖² − 2·x·x, clamped at 0), so only exact ties at distance 0 decide step 2. The
 * candidates come from the exact `knn` (k + 1 nearest other rows, ties to the lower index), so
 * memory is O(n·k) and no n × n distance matrix is formed.
 */
import type { Csr, Mat } from '../linalg/types';
import { knn, type KnnOptions } from './knn';
import { symmetrise } from './pkn';

/**
 * max(W, Wᵀ) of `constructW`'s binary kNN graph of the rows of X (see the file comment):
 * (n, n) CSR, sorted column indices, every stored value 1, no diagonal. O(kNN + n·k). With
 * k ≥ n − 1 every row is among every row's k + 1 candidates: the complete graph.
 */
export function binaryKnnGraph(X: Mat | Csr, k: number, options: KnnOptions = {}): Csr {
  const n = X.rows;
  if (!Number.isInteger(k) || k < 1) {
    throw new Error(`binaryKnnGraph: k = ${k} must be an integer ≥ 1`);
  }
  if (k >= n - 1) return completeGraph(n);
  const nn = knn(X, k + 1, options);
  const kk = k + 1;
  // Row i's directed neighbours: the first k of its k + 1 nearest others when i ranks among its
  // own k + 1 candidates, i.e. when fewer than k + 1 others precede it at distance 0 (its own
  // distance) with a lower index; else all k + 1.
  const indptr = new Int32Array(n + 1);
  const cols = new Int32Array(n * kk);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const o = i * kk;
    let before = 0;
    while (before < kk && nn.distances[o + before] === 0 && nn.indices[o + before]! < i) before++;
    const keep = before === kk ? kk : k;
    const start = q;
    for (let r = 0; r < keep; r++) cols[q++] = nn.indices[o + r]!;
    cols.subarray(start, q).sort();
    indptr[i + 1] = q;
  }
  const W: Csr = {
    rows: n,
    cols: n,
    indptr,
    indices: cols.slice(0, q),
    data: new Float64Array(q).fill(1),
  };
  // max(W, Wᵀ) of a 0/1 matrix: the pattern of (W + Wᵀ)/2, every value 1.
  const S = symmetrise(W);
  S.data.fill(1);
  return S;
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
