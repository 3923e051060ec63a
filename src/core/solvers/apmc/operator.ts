/**
 * APMC's total similarity S (n × n) and its Laplacian as operators on blocks, never formed:
 *
 *   S(i, j) = (1 / t(g_i, g_j)) · Σ_{pairs p ∋ i, j} S_p(i, j),   S_p = Z_p·Λ_p·Z_pᵀ
 *
 * (`groups.ts` for t and the groups g, `similarity.ts` for Z_p, Λ_p). Since t depends only on the
 * two samples' groups, for a block X (n × b) and each pair p:
 *
 *   U_h = Λ_p·Z_p[h]ᵀ·X[h]                  (m_p × b) for each group h in p
 *   W_g = Σ_h U_h / t(g, h)                 for each group g in p
 *   (S·X)[g] += Z_p[g]·W_g
 *
 * where Z_p[h] are the pair's rows of group h (a contiguous run). One product costs
 * O(Σ_p (nnz(Z_p) + G_p²·m_p)·b) for G_p groups in pair p, against O(n²·b) for a dense S;
 * memory O(Σ_p nnz(Z_p) + G·m·b). The Laplacian L = D − S, D = diag(S·1), is the reference's
 * `diag(sum(S, 2)) − S`; the eigensolver reads M = s·I − L = (s·I − D) + S.
 */
import type { SymOp } from '../../linalg/linop';
import type { Mat } from '../../linalg/types';
import type { Groups } from './groups';
import type { PairGraph } from './similarity';

/** Scratch of one product: U_h per segment of each pair and one W, for blocks of width b. */
interface Scratch {
  readonly b: number;
  readonly U: Float64Array[][];
  readonly W: Float64Array[];
}

function scratchFor(pairs: readonly PairGraph[], b: number): Scratch {
  return {
    b,
    U: pairs.map((p) => p.segments.map(() => new Float64Array(p.m * b))),
    W: pairs.map((p) => new Float64Array(p.m * b)),
  };
}

/** Y (n × b) ← S·X for the total similarity S. */
function applySimilarity(
  groups: Groups,
  pairs: readonly PairGraph[],
  X: Mat,
  Y: Mat,
  scratch: Scratch,
): void {
  const b = X.cols;
  const G = groups.patterns.length;
  const x = X.data;
  const y = Y.data;
  y.fill(0);
  pairs.forEach((p, pi) => {
    const { m, samples, indptr, indices, data, lambda, segments } = p;
    const U = scratch.U[pi]!;
    const W = scratch.W[pi]!;
    segments.forEach((seg, s) => {
      const u = U[s]!;
      u.fill(0);
      for (let r = seg.from; r < seg.to; r++) {
        const xi = samples[r]! * b;
        for (let q = indptr[r]!; q < indptr[r + 1]!; q++) {
          const z = data[q]!;
          const uj = indices[q]! * b;
          for (let c = 0; c < b; c++) u[uj + c]! += z * x[xi + c]!;
        }
      }
      for (let j = 0; j < m; j++) {
        const l = lambda[j]!;
        for (let c = 0; c < b; c++) u[j * b + c]! *= l;
      }
    });
    for (const seg of segments) {
      W.fill(0);
      segments.forEach((h, s) => {
        const w = groups.invCount[seg.group * G + h.group]!;
        const u = U[s]!;
        for (let t = 0; t < W.length; t++) W[t]! += w * u[t]!;
      });
      for (let r = seg.from; r < seg.to; r++) {
        const yi = samples[r]! * b;
        for (let q = indptr[r]!; q < indptr[r + 1]!; q++) {
          const z = data[q]!;
          const wj = indices[q]! * b;
          for (let c = 0; c < b; c++) y[yi + c]! += z * W[wj + c]!;
        }
      }
    }
  });
}

/**
 * The total similarity S as a symmetric operator. Its scratch (G_p + 1 blocks of m_p × b per
 * pair) is allocated on the first product of each block width and reused.
 */
export function similarityOp(groups: Groups, pairs: readonly PairGraph[]): SymOp {
  const cache = new Map<number, Scratch>();
  return {
    n: groups.n,
    apply(X, Y) {
      let s = cache.get(X.cols);
      if (!s) {
        s = scratchFor(pairs, X.cols);
        cache.set(X.cols, s);
      }
      applySimilarity(groups, pairs, X, Y, s);
    },
  };
}

/** (n,) the degrees d = S·1. */
export function degrees(op: SymOp): Float64Array {
  const ones: Mat = { rows: op.n, cols: 1, data: new Float64Array(op.n).fill(1) };
  const d: Mat = { rows: op.n, cols: 1, data: new Float64Array(op.n) };
  op.apply(ones, d);
  return d.data;
}

/** trace(S) = Σ_i S(i, i) = Σ_p Σ_{r ∈ p} Σ_j Z_p(r, j)²·λ_j / t(g_r, g_r). O(Σ_p nnz(Z_p)). */
export function similarityTrace(groups: Groups, pairs: readonly PairGraph[]): number {
  const G = groups.patterns.length;
  let tr = 0;
  for (const p of pairs) {
    for (const seg of p.segments) {
      const w = groups.invCount[seg.group * (G + 1)]!;
      for (let r = seg.from; r < seg.to; r++) {
        for (let q = p.indptr[r]!; q < p.indptr[r + 1]!; q++) {
          tr += w * p.data[q]! * p.data[q]! * p.lambda[p.indices[q]!]!;
        }
      }
    }
  }
  return tr;
}

/** M = s·I − L = (s − d_i)·I + S, whose largest eigenpairs are L's smallest (L ≤ s·I). */
export function shiftedLaplacianOp(S: SymOp, deg: Float64Array, shift: number): SymOp {
  return {
    n: S.n,
    apply(X, Y) {
      S.apply(X, Y);
      const b = X.cols;
      for (let i = 0; i < S.n; i++) {
        const s = shift - deg[i]!;
        for (let c = 0; c < b; c++) Y.data[i * b + c]! += s * X.data[i * b + c]!;
      }
    },
  };
}
