/**
 * The eigengap heuristic (von Luxburg, "A tutorial on spectral clustering", 2007, §8.1): for a
 * graph W (n × n, symmetric, nonnegative) with degrees D, the normalised affinity
 * A = D^{-1/2}·W·D^{-1/2} has eigenvalues 1 = μ_1 ≥ μ_2 ≥ … ≥ −1 (those of the normalised
 * Laplacian are λ_i = 1 − μ_i), and μ_i = 1 exactly once per connected component. A graph with k
 * well-separated groups has k eigenvalues near 1 and then a drop: the suggested k is the one
 * with the largest gap μ_k − μ_{k+1} = λ_{k+1} − λ_k among the candidates.
 *
 * Three graphs, none formed as a dense n × n array:
 * - an anchor graph Z (n × m): W = Z·Λ⁻¹·Zᵀ, Λ = diag(Zᵀ1), degrees D = diag(Z·1). A's nonzero
 *   eigenvalues are those of the m × m matrix B = Λ^{-1/2}·Zᵀ·D⁻¹·Z·Λ^{-1/2} (A = C·Cᵀ and
 *   B = Cᵀ·C for C = D^{-1/2}·Z·Λ^{-1/2}); the other n − m are 0. O(n·m²).
 * - a sparse graph W (CSR): the largest eigenvalues of A by the block eigensolver
 *   (graph/spectral.ts's `affinityEigenpairs`); up to DENSE_MAX samples, all of A's by the
 *   dense symmetric eigensolver.
 * - no graph from the method: the sum over views of each view's adaptive-neighbour (PKN) graph
 *   over its present samples (graph/pkn.ts), placed at the samples' indices.
 */
import type { View } from '../dataset';
import { normalisedAffinity } from '../graph/affinity';
import { pknGraph } from '../graph/pkn';
import { affinityEigenpairs } from '../graph/spectral';
import { symEigValues } from '../linalg/kernels';
import type { Csr, Mat } from '../linalg/types';
import type { SolverGraph } from '../solvers/types';

/** Neighbours of the views' kNN graph when the method learns no graph. */
export const KNN_NEIGHBOURS = 10;

/**
 * The `count` largest eigenvalues of the anchor graph's normalised affinity, descending (zeros
 * past m). Anchors no sample uses (Λ_a = 0) and samples on no anchor (D_i = 0) drop out.
 */
export function anchorEigenvalues(Z: Mat, count: number): Float64Array {
  const { rows: n, cols: m, data } = Z;
  const colSum = new Float64Array(m);
  const rowSum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let a = 0; a < m; a++) {
      const z = data[i * m + a]!;
      s += z;
      colSum[a]! += z;
    }
    rowSum[i] = s;
  }
  const B: Mat = { rows: m, cols: m, data: new Float64Array(m * m) };
  const row = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    if (!(rowSum[i]! > 0)) continue;
    const w = 1 / rowSum[i]!;
    for (let a = 0; a < m; a++) {
      const c = colSum[a]!;
      row[a] = c > 0 ? data[i * m + a]! / Math.sqrt(c) : 0;
    }
    for (let a = 0; a < m; a++) {
      const ra = row[a]! * w;
      if (ra === 0) continue;
      for (let b = a; b < m; b++) B.data[a * m + b]! += ra * row[b]!;
    }
  }
  for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) B.data[a * m + b] = B.data[b * m + a]!;
  const ascending = symEigValues(B);
  const out = new Float64Array(count);
  for (let i = 0; i < Math.min(count, m); i++) out[i] = ascending[m - 1 - i]!;
  return out;
}

/** Up to this many samples, the affinity's spectrum is taken densely (a block solve for most of it would not pay). */
const DENSE_MAX = 400;

/** The `count` largest eigenvalues of a sparse graph's normalised affinity, descending. */
export function affinityEigenvalues(W: Csr, count: number): Float64Array {
  const n = W.rows;
  const c = Math.min(count, n);
  const out = new Float64Array(count);
  if (n <= DENSE_MAX) {
    const L = normalisedAffinity(W);
    const A: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    for (let i = 0; i < n; i++) {
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++)
        A.data[i * n + L.indices[p]!] = L.data[p]!;
    }
    const ascending = symEigValues(A);
    for (let i = 0; i < c; i++) out[i] = ascending[n - 1 - i]!;
    return out;
  }
  out.set(affinityEigenpairs(W, c).values.subarray(0, c));
  return out;
}

/**
 * Σ_v of view v's PKN graph (neighbours min(KNN_NEIGHBOURS, n_v − 2)) over its present samples,
 * as an (n, n) CSR with sorted rows. A view with fewer than 3 present samples adds nothing.
 */
export function viewsKnnGraph(n: number, views: readonly View[]): Csr {
  const rows: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const v of views) {
    const nv = v.present.length;
    const k = Math.min(KNN_NEIGHBOURS, nv - 2);
    if (k < 1) continue;
    const W = pknGraph(v.values, k);
    for (let i = 0; i < nv; i++) {
      const gi = v.present[i]!;
      const target = rows[gi]!;
      for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
        const gj = v.present[W.indices[p]!]!;
        target.set(gj, (target.get(gj) ?? 0) + W.data[p]!);
      }
    }
  }
  let nnz = 0;
  for (const r of rows) nnz += r.size;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  let q = 0;
  rows.forEach((r, i) => {
    for (const j of [...r.keys()].sort((a, b) => a - b)) {
      indices[q] = j;
      data[q++] = r.get(j)!;
    }
    indptr[i + 1] = q;
  });
  return { rows: n, cols: n, indptr, indices, data };
}

export interface Eigengap {
  /** Where the graph came from, in words (shown with the chart). */
  readonly source: string;
  /** μ_1 ≥ … ≥ μ_{to+1}: the largest eigenvalues of the normalised affinity. */
  readonly eigenvalues: readonly number[];
  /** gaps[i] = μ_{i+1} − μ_{i+2}: the gap after the (i + 1)-th eigenvalue (k = i + 1). */
  readonly gaps: readonly number[];
  /** The k in from..to with the largest gap (the smallest such k on a tie). */
  readonly suggested: number;
}

/** The eigenvalues of `graph` (the method's, else the views' kNN graph) and the suggested k. */
export function eigengap(graph: SolverGraph, source: string, from: number, to: number): Eigengap {
  const count = to + 1;
  const mu =
    graph.kind === 'anchor'
      ? anchorEigenvalues(graph.Z, count)
      : affinityEigenvalues(graph.W, count);
  const eigenvalues = Array.from(mu, (x) => Math.min(1, x));
  const gaps = eigenvalues.slice(0, -1).map((x, i) => x - eigenvalues[i + 1]!);
  let suggested = from;
  for (let k = from; k <= to; k++) if (gaps[k - 1]! > gaps[suggested - 1]!) suggested = k;
  return { source, eigenvalues, gaps, suggested };
}
