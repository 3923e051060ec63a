/**
 * Sparse graph helpers (first written for MVGL, spec baselines-graph.md §2): the c + 1 smallest eigenpairs of a
 * graph Laplacian (dense full decomposition, or the block eigensolver warm-started from the last
 * solve's whole block with the null space taken from the connected components), squared row distances of F on a
 * support, and CSR sums / norms. Every graph here is (n, n) CSR with sorted column indices.
 */
import { symEig } from '../linalg/kernels';
import type { Csr, Mat } from '../linalg/types';
import { connectedComponents } from './components';
import { blockedBottomPairs } from './laplacian-blocks';

export type Eigensolver = 'sparse' | 'dense';

/** The c + 1 smallest eigenvalues of L = diag(S·1) − S and F, the eigenvectors of the c smallest. */
export interface Bottom {
  /** (c + 1,) ascending. */
  readonly values: Float64Array;
  /** (n, c) orthonormal columns. */
  readonly F: Mat;
  /** Connected components of S counted on its positive entries (sparse path), else −1. */
  readonly components: number;
  /**
   * The start for the next solve on a nearby graph: the block eigensolver's whole final block
   * where it ran (one component), else F.
   */
  readonly warm: Mat;
}

/** L = diag(S·1) − S as CSR (diagonal entries of S cancel and are dropped). */
export function laplacianOf(S: Csr): Csr {
  const n = S.rows;
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(S.indptr[n]! + n);
  const data = new Float64Array(indices.length);
  let q = 0;
  for (let i = 0; i < n; i++) {
    let deg = 0;
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      if (S.indices[p]! !== i) deg += S.data[p]!;
    }
    let placed = false;
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      const j = S.indices[p]!;
      if (j === i) continue;
      if (!placed && j > i) {
        indices[q] = i;
        data[q++] = deg;
        placed = true;
      }
      indices[q] = j;
      data[q++] = -S.data[p]!;
    }
    if (!placed) {
      indices[q] = i;
      data[q++] = deg;
    }
    indptr[i + 1] = q;
  }
  return { rows: n, cols: n, indptr, indices: indices.slice(0, q), data: data.slice(0, q) };
}

/** The component indicators of the first c components, each scaled to unit norm: (n, c). */
function indicators(labels: Int32Array, c: number): Mat {
  const n = labels.length;
  const size = new Float64Array(c);
  for (let i = 0; i < n; i++) if (labels[i]! < c) size[labels[i]!]!++;
  const F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let i = 0; i < n; i++) {
    const l = labels[i]!;
    if (l < c) F.data[i * c + l] = 1 / Math.sqrt(size[l]!);
  }
  return F;
}

/**
 * The c + 1 smallest eigenpairs of the Laplacian of the symmetric S.
 * 'dense': L formed as an n × n array and fully decomposed (the reference's eig1).
 * 'sparse': when S (nonnegative) has ≥ c + 1 components, its Laplacian has ≥ c + 1 exact zero
 * eigenvalues, so the values are 0 and F is the first c component indicators (no eigensolver);
 * otherwise by components (laplacian-blocks.ts): one component by the block eigensolver
 * (relative tolerance 1e-12) from `warm` (the previous solve's `warm`: its whole block, or F),
 * several one block at a time.
 */
export function laplacianBottomPairs(
  S: Csr,
  c: number,
  mode: Eigensolver,
  warm: Mat | null,
): Bottom {
  const n = S.rows;
  const L = laplacianOf(S);
  if (mode === 'dense') {
    const A: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    for (let i = 0; i < n; i++) {
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++)
        A.data[i * n + L.indices[p]!] = L.data[p]!;
    }
    const e = symEig(A);
    const F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < c; j++) F.data[i * c + j] = e.vectors.data[i * n + j]!;
    }
    return { values: e.values.slice(0, c + 1), F, components: -1, warm: F };
  }
  let nonnegative = true;
  for (let p = 0; p < S.data.length; p++) if (S.data[p]! < 0) nonnegative = false;
  const comp = connectedComponents(S);
  if (nonnegative && comp.count >= c + 1) {
    const F = indicators(comp.labels, c);
    return { values: new Float64Array(c + 1), F, components: comp.count, warm: F };
  }
  const r = blockedBottomPairs(L, c, nonnegative, warm);
  return { values: r.values, F: r.F, components: comp.count, warm: r.block ?? r.F };
}

/** Σ of the first m entries. */
export function head(values: Float64Array, m: number): number {
  let s = 0;
  for (let i = 0; i < m; i++) s += values[i]!;
  return s;
}

/** ‖F[i, :] − F[j, :]‖². */
export function rowDistance(F: Mat, i: number, j: number): number {
  const c = F.cols;
  let s = 0;
  for (let a = 0; a < c; a++) {
    const t = F.data[i * c + a]! - F.data[j * c + a]!;
    s += t * t;
  }
  return s;
}

/** Sum, stored nonzeros and Frobenius norm of a CSR matrix. */
export function csrStats(S: Csr): { sum: number; nnz: number; fro: number } {
  let sum = 0;
  let nnz = 0;
  let sq = 0;
  for (let p = 0; p < S.data.length; p++) {
    const x = S.data[p]!;
    sum += x;
    sq += x * x;
    if (x !== 0) nnz++;
  }
  return { sum, nnz, fro: Math.sqrt(sq) };
}

/** Builds a CSR from per-row (column, value) lists; columns sorted, exact zeros dropped. */
export class CsrBuilder {
  private readonly indptr: Int32Array;
  private indices: Int32Array;
  private data: Float64Array;
  private q = 0;
  private row = 0;
  constructor(
    private readonly n: number,
    capacity: number,
  ) {
    this.indptr = new Int32Array(n + 1);
    this.indices = new Int32Array(Math.max(1, capacity));
    this.data = new Float64Array(Math.max(1, capacity));
  }
  /** Appends entry (row, col) = x; rows in order, columns ascending within a row. */
  push(col: number, x: number): void {
    if (x === 0) return;
    if (this.q === this.indices.length) {
      const ni = new Int32Array(2 * this.q);
      ni.set(this.indices);
      const nd = new Float64Array(2 * this.q);
      nd.set(this.data);
      this.indices = ni;
      this.data = nd;
    }
    this.indices[this.q] = col;
    this.data[this.q++] = x;
  }
  endRow(): void {
    this.indptr[++this.row] = this.q;
  }
  build(): Csr {
    return {
      rows: this.n,
      cols: this.n,
      indptr: this.indptr,
      indices: this.indices.slice(0, this.q),
      data: this.data.slice(0, this.q),
    };
  }
}
