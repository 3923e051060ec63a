/**
 * The unnormalised graph Laplacian L_S = D − S, D = diag(Σ_j s_ij), of a symmetric graph with
 * nonnegative weights S: (n, n) CSR with sorted rows, and the bottom of its spectrum. L_S is
 * positive semidefinite, its spectrum lies in [0, 2·d_max], and 0 is an eigenvalue of multiplicity
 * equal to the number of connected components (eigenvectors: the components' indicators), which
 * is what rank-constrained graph learning (CAN, CLR: `clr.ts`) drives towards.
 */
import { blockEig, csrOp } from '../linalg/blockeig';
import type { Csr, Mat } from '../linalg/types';

/** Row sums d_i = Σ_j s_ij (in storage order) and their maximum. */
function rowSums(S: Csr): { deg: Float64Array; dmax: number } {
  const n = S.rows;
  const deg = new Float64Array(n);
  let dmax = 0;
  for (let i = 0; i < n; i++) {
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) deg[i]! += S.data[p]!;
    dmax = Math.max(dmax, deg[i]!);
  }
  return { deg, dmax };
}

/**
 * diag(δ) + sign·S with the diagonal merged into each row in column order: entry (i, i) is
 * δ_i + sign·s_ii, entry (i, j ≠ i) is sign·s_ij. O(nnz + n).
 */
function withDiagonal(S: Csr, diag: (i: number) => number, sign: 1 | -1): Csr {
  const n = S.rows;
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < n; i++) {
    let diagDone = false;
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
      const j = S.indices[p]!;
      if (!diagDone && j >= i) {
        indices.push(i);
        data.push(diag(i) + (j === i ? sign * S.data[p]! : 0));
        diagDone = true;
        if (j === i) continue;
      }
      indices.push(j);
      data.push(sign * S.data[p]!);
    }
    if (!diagDone) {
      indices.push(i);
      data.push(diag(i));
    }
    indptr[i + 1] = indices.length;
  }
  return {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
}

/** L_S = D − S: (n, n) CSR with sorted rows, S's pattern plus the whole diagonal. */
export function laplacian(S: Csr): Csr {
  if (S.rows !== S.cols) throw new Error(`laplacian: S is ${S.rows}x${S.cols}, not square`);
  const { deg } = rowSums(S);
  return withDiagonal(S, (i) => deg[i]!, -1);
}

export interface LaplacianBottom {
  /** (n, c) orthonormal eigenvectors of L_S, column j for values[j]. */
  readonly vectors: Mat;
  /** (c,) the c smallest eigenvalues of L_S, ascending. */
  readonly values: Float64Array;
  readonly converged: boolean;
}

/**
 * The c smallest eigenpairs of L_S = D − S, from the largest of M = 2·d_max·I − L_S
 * = (2·d_max·I − D) + S (block eigensolver with the bounds [0, 2·d_max] of M's spectrum, relative
 * tolerance 1e-10): the largest end converges as fast as the smallest would, without a shift-
 * invert. Repeated eigenvalues (several components) yield the whole eigenspace.
 */
export function laplacianBottom(S: Csr, c: number): LaplacianBottom {
  if (S.rows !== S.cols) throw new Error(`laplacianBottom: S is ${S.rows}x${S.cols}, not square`);
  if (!Number.isInteger(c) || c < 1 || c > S.rows) {
    throw new Error(`laplacianBottom: c = ${c} must be an integer in 1..${S.rows}`);
  }
  const { deg, dmax } = rowSums(S);
  const shift = 2 * dmax;
  // M = shift·I − D + S: its largest eigenvectors are L_S's smallest.
  const M = withDiagonal(S, (i) => shift - deg[i]!, 1);
  const r = blockEig(csrOp(M), c, {
    which: 'largest',
    tol: 1e-10,
    bounds: { lower: 0, upper: shift },
  });
  return {
    vectors: r.vectors,
    values: Float64Array.from(r.values, (x) => shift - x),
    converged: r.converged,
  };
}

/** The normalised Laplacian of `normalisedLaplacian` and the degrees it was formed from. */
export interface NormalisedLaplacian {
  /** (n, n) CSR with sorted rows: W's pattern plus the whole diagonal. */
  readonly L: Csr;
  /** (n,) d_i = Σ_j w_ij (no eps added). */
  readonly degrees: Float64Array;
  /** (n,) t_i = √(1/d_i), formed as the reference does (the reciprocal first); 0 where d_i = 0. */
  readonly t: Float64Array;
  /** Samples of degree 0 (isolated vertices: t_i = 0, L's row i is e_iᵀ). */
  readonly isolated: number;
}

/**
 * L = I − T·W·T with T = diag(t), t_i = √(1/d_i), d_i = Σ_j w_ij (the AMGL reference's
 * `D^-0.5` on a degree vector, no eps). An isolated vertex (d_i = 0, where the reference divides
 * by zero) gets t_i = 0, the pseudo-inverse's convention: its row and column of L are e_i's, so
 * the spectrum stays in [0, 2]. The reference's dense
 * product rounds entry (i, j) as (t_i·w_ij)·t_j, so its L is symmetric only to about 1e-16; here
 * entry (i, j ≠ i) is the mean −½((t_i·w_ij)·t_j + (t_j·w_ij)·t_i) of the two roundings, so L is
 * exactly symmetric and within one rounding of the reference's symmetric part ½(L + Lᵀ);
 * entry (i, i) is 1 − (t_i·w_ii)·t_i. W: (n, n) CSR, symmetric, nonnegative, sorted rows. For
 * such W the spectrum of L lies in [0, 2]. O(nnz + n).
 */
export function normalisedLaplacian(W: Csr): NormalisedLaplacian {
  if (W.rows !== W.cols)
    throw new Error(`normalisedLaplacian: W is ${W.rows}x${W.cols}, not square`);
  const n = W.rows;
  const { deg } = rowSums(W);
  const t = new Float64Array(n);
  let isolated = 0;
  for (let i = 0; i < n; i++) {
    if (deg[i]! > 0) t[i] = Math.sqrt(1 / deg[i]!);
    else if (deg[i] === 0) isolated++;
    else throw new Error(`normalisedLaplacian: sample ${i + 1} has degree ${deg[i]}, expected ≥ 0`);
  }
  const scaled: Csr = {
    rows: n,
    cols: n,
    indptr: W.indptr,
    indices: W.indices,
    data: new Float64Array(W.data.length),
  };
  for (let i = 0; i < n; i++) {
    const ti = t[i]!;
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      const j = W.indices[p]!;
      const w = W.data[p]!;
      scaled.data[p] = i === j ? ti * w * ti : 0.5 * (ti * w * t[j]! + t[j]! * w * ti);
    }
  }
  return { L: withDiagonal(scaled, () => 1, -1), degrees: deg, t, isolated };
}
