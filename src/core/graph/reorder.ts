/**
 * Bandwidth-reducing reordering of a sparse symmetric matrix: reverse Cuthill–McKee (Cuthill &
 * McKee 1969; George & Liu, "Computer Solution of Large Sparse Positive Definite Systems",
 * 1981). Samples of a kNN graph arrive in file order, so the rows of X that one row of S·X
 * reads are scattered over memory; after S' = P·S·Pᵀ with the RCM order they sit in a narrow
 * band around the row, and a block product runs several times faster from cache. The
 * eigenpairs of S' are those of S with the rows of the eigenvectors permuted:
 *   S·v = λ·v  ⇔  S'·(P·v) = λ·(P·v),  (P·v)_i = v_perm[i].
 */
import type { Csr } from '../linalg/types';

/**
 * The RCM order of a structurally symmetric n×n CSR matrix: perm[i] is the old index of the
 * node placed at position i. Each connected component is swept breadth-first from a node of
 * minimum degree, neighbours visited by increasing degree (ties by index); the whole order is
 * then reversed. O(nnz·log(max degree)) for the neighbour sorts.
 */
export function rcmOrder(S: Csr): Int32Array {
  const n = S.rows;
  const deg = new Int32Array(n);
  for (let i = 0; i < n; i++) deg[i] = S.indptr[i + 1]! - S.indptr[i]!;
  const byDegree = Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => deg[a]! - deg[b]! || a - b,
  );
  const visited = new Uint8Array(n);
  const order = new Int32Array(n);
  let tail = 0;
  const nbrs: number[] = [];
  for (const root of byDegree) {
    if (visited[root]) continue;
    visited[root] = 1;
    order[tail++] = root;
    for (let head = tail - 1; head < tail; head++) {
      const v = order[head]!;
      nbrs.length = 0;
      for (let p = S.indptr[v]!; p < S.indptr[v + 1]!; p++) {
        const u = S.indices[p]!;
        if (!visited[u]) {
          visited[u] = 1;
          nbrs.push(u);
        }
      }
      nbrs.sort((a, b) => deg[a]! - deg[b]! || a - b);
      for (const u of nbrs) order[tail++] = u;
    }
  }
  return order.reverse();
}

/** S' = P·S·Pᵀ: S'[i, j] = S[perm[i], perm[j]], rows with sorted column indices. O(nnz log). */
export function permuteCsr(S: Csr, perm: Int32Array): Csr {
  const n = S.rows;
  const inv = new Int32Array(n);
  for (let i = 0; i < n; i++) inv[perm[i]!] = i;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(S.indices.length);
  const data = new Float64Array(S.data.length);
  const row: [number, number][] = [];
  let q = 0;
  for (let i = 0; i < n; i++) {
    const old = perm[i]!;
    row.length = 0;
    for (let p = S.indptr[old]!; p < S.indptr[old + 1]!; p++)
      row.push([inv[S.indices[p]!]!, S.data[p]!]);
    row.sort((a, b) => a[0] - b[0]);
    for (const [j, v] of row) {
      indices[q] = j;
      data[q++] = v;
    }
    indptr[i + 1] = q;
  }
  return { rows: n, cols: n, indptr, indices, data };
}
