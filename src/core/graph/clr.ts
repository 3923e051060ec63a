/**
 * The rank-constrained adaptive-neighbour graph (the CAN scheme of Nie, Wang & Huang, KDD 2014,
 * whose constraint rank(L_S) = n − c CLR and the multi-view graph methods share): a graph S with
 * exactly c connected components, whose components are the clusters. In CGL it is the seed
 * paper's connectivity constraint (Algorithm 1, Eqs. 18–20), run on the concatenated embeddings.
 *
 * Input: X (n, d), whose squared Euclidean row distances d^X_ij are the data term, and a starting
 * graph W (n, n) CSR, symmetric. Candidates per sample: its m = min(n − 1, 3k) nearest samples
 * under d^X (exact kNN), so everything stays O(n·k) per round. Starting from S = W:
 *   repeat (at most 40 times)
 *     count the connected components of S (`components.ts`); stop when there are c
 *     Q (n × c) = eigenvectors of the c smallest eigenvalues of L_S = D − S (`laplacian.ts`)
 *     d_ij = d^X_ij + β·‖q_i − q_j‖² on the candidates; S = symmetrised PKN rows of d (the
 *       closed form with k neighbours, `pkn.ts`)
 *     β ← 2β if S has fewer than c components, β/2 if more (the paper's rule, β₀ = the mean
 *       PKN scale γ = (1/n)Σ_i ½(k·d_{i,k+1} − Σ_{j≤k} d_ij))
 * Labels are the components, numbered in order of their smallest sample.
 */
import type { Csr, Mat } from '../linalg/types';
import { connectedComponents } from './components';
import { knn, type Knn } from './knn';
import { laplacianBottom } from './laplacian';
import { pknRows, symmetrise } from './pkn';

export interface Connectivity {
  /** Component labels (n,) when exactly c components were reached, else null. */
  readonly labels: Int32Array | null;
  readonly components: number;
  readonly rounds: number;
  readonly beta: number;
  readonly graph: Csr;
}

/**
 * The loop above on X (n, d) from the graph W (n, n); k = neighbours (1 ≤ k, 3k < n useful),
 * c = components wanted.
 */
export function connectivityConstraint(X: Mat, W: Csr, k: number, c: number): Connectivity {
  const n = X.rows;
  const m = Math.min(n - 1, 3 * k);
  const cand = knn(X, m);
  let gamma = 0;
  for (let i = 0; i < n; i++) {
    const o = i * m;
    let s = 0;
    for (let j = 0; j < k; j++) s += cand.distances[o + j]!;
    gamma += 0.5 * (k * cand.distances[o + k]! - s);
  }
  let beta = gamma / n > 0 ? gamma / n : 1;
  let S = W;
  let comp = connectedComponents(S);
  let rounds = 0;
  const dist = new Float64Array(n * m);
  const idx = new Int32Array(n * m);
  const pairs: [number, number][] = [];
  while (comp.count !== c && rounds < 40) {
    rounds++;
    const Q = laplacianBottom(S, c).vectors;
    for (let i = 0; i < n; i++) {
      pairs.length = 0;
      for (let r = 0; r < m; r++) {
        const j = cand.indices[i * m + r]!;
        let dq = 0;
        for (let a = 0; a < c; a++) dq += (Q.data[i * c + a]! - Q.data[j * c + a]!) ** 2;
        pairs.push([cand.distances[i * m + r]! + beta * dq, j]);
      }
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (let r = 0; r < m; r++) {
        dist[i * m + r] = pairs[r]![0];
        idx[i * m + r] = pairs[r]![1];
      }
    }
    const nn: Knn = { n, k: m, indices: idx, distances: dist };
    S = symmetrise(pknRows(nn, k));
    comp = connectedComponents(S);
    if (comp.count < c) beta *= 2;
    else if (comp.count > c) beta /= 2;
  }
  return {
    labels: comp.count === c ? comp.labels : null,
    components: comp.count,
    rounds,
    beta,
    graph: S,
  };
}
