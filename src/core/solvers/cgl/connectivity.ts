/**
 * The seed paper's connectivity constraint (Algorithm 1, Eqs. 18–20; the CAN scheme of Nie,
 * Wang & Huang, KDD 2014): a consensus graph with exactly c connected components, whose
 * components are the clusters. Not in the CGL reference code; off by default.
 *
 * Distances between samples are those of Eq. 6, d^F_ij = Σ_v ‖f̄_i^v − f̄_j^v‖² (the concatenated
 * rows of F̄). Candidates per sample: its m = min(n − 1, 3k) nearest samples under d^F (exact kNN),
 * so everything stays O(n·k). Starting from S = the consensus graph (PKN, k neighbours):
 *   repeat (at most 40 times)
 *     count the connected components of S (breadth-first search); stop when there are c
 *     Q (n × c) = eigenvectors of the c smallest eigenvalues of L_S = D − S (block eigensolver on
 *       2·d_max·I − L_S)
 *     d_ij = d^F_ij + β·‖q_i − q_j‖² on the candidates; S = symmetrised PKN rows of d (Eq. 20:
 *       the closed form with k neighbours)
 *     β ← 2β if S has fewer than c components, β/2 if more (the paper's rule, β₀ = the mean
 *       PKN scale γ = (1/n)Σ_i ½(k·d_{i,k+1} − Σ_{j≤k} d_ij))
 * Labels are the components, numbered in order of their smallest sample.
 */
import { knn, type Knn } from '../../graph/knn';
import { pknRows, symmetrise } from '../../graph/pkn';
import { blockEig, csrOp } from '../../linalg/blockeig';
import type { Csr, Mat } from '../../linalg/types';

export interface Connectivity {
  /** Component labels (n,) when exactly c components were reached, else null. */
  readonly labels: Int32Array | null;
  readonly components: number;
  readonly rounds: number;
  readonly beta: number;
  readonly graph: Csr;
}

/** Connected components of a symmetric CSR graph: labels numbered by smallest member. */
export function components(S: Csr): { count: number; labels: Int32Array } {
  const n = S.rows;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let count = 0;
  for (let s = 0; s < n; s++) {
    if (labels[s] !== -1) continue;
    let top = 0;
    stack[top++] = s;
    labels[s] = count;
    while (top > 0) {
      const i = stack[--top]!;
      for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
        const j = S.indices[p]!;
        if (S.data[p]! > 0 && labels[j] === -1) {
          labels[j] = count;
          stack[top++] = j;
        }
      }
    }
    count++;
  }
  return { count, labels };
}

/** Q: (n, c) eigenvectors of the c smallest eigenvalues of L_S = D − S. */
function laplacianBottom(S: Csr, c: number): Mat {
  const n = S.rows;
  const deg = new Float64Array(n);
  let dmax = 0;
  for (let i = 0; i < n; i++) {
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) deg[i]! += S.data[p]!;
    dmax = Math.max(dmax, deg[i]!);
  }
  const shift = 2 * dmax;
  // M = shift·I − D + S: its largest eigenvectors are L_S's smallest.
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < n; i++) {
    let diagDone = false;
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      const j = S.indices[p]!;
      if (!diagDone && j >= i) {
        indices.push(i);
        data.push(shift - deg[i]! + (j === i ? S.data[p]! : 0));
        diagDone = true;
        if (j === i) continue;
      }
      indices.push(j);
      data.push(S.data[p]!);
    }
    if (!diagDone) {
      indices.push(i);
      data.push(shift - deg[i]!);
    }
    indptr[i + 1] = indices.length;
  }
  const M: Csr = {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
  return blockEig(csrOp(M), c, { which: 'largest', tol: 1e-10, bounds: { lower: 0, upper: shift } })
    .vectors;
}

/**
 * Algorithm 1 on F_cat (n × Vc, the concatenated F̄), starting from the consensus graph W.
 * k = neighbours, c = clusters.
 */
export function connectivityConstraint(Fcat: Mat, W: Csr, k: number, c: number): Connectivity {
  const n = Fcat.rows;
  const m = Math.min(n - 1, 3 * k);
  const cand = knn(Fcat, m);
  let gamma = 0;
  for (let i = 0; i < n; i++) {
    const o = i * m;
    let s = 0;
    for (let j = 0; j < k; j++) s += cand.distances[o + j]!;
    gamma += 0.5 * (k * cand.distances[o + k]! - s);
  }
  let beta = gamma / n > 0 ? gamma / n : 1;
  let S = W;
  let comp = components(S);
  let rounds = 0;
  const dist = new Float64Array(n * m);
  const idx = new Int32Array(n * m);
  const pairs: [number, number][] = [];
  while (comp.count !== c && rounds < 40) {
    rounds++;
    const Q = laplacianBottom(S, c);
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
    comp = components(S);
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
