/**
 * PKN graph, normalised affinity and spectral embedding against numpy computed exactly per spec
 * cgl-cgmvc-nc.md steps 1, 2, 6 (test/fixtures/graph/make.py), plus their identities.
 */
import { describe, expect, it } from 'vitest';
import { degrees, normalisedAffinity } from '../../../src/core/graph/affinity';
import { knn } from '../../../src/core/graph/knn';
import { MATLAB_EPS, pknGraph, pknRows, symmetrise } from '../../../src/core/graph/pkn';
import { permuteCsr, rcmOrder } from '../../../src/core/graph/reorder';
import { normaliseRows, spectralEmbedding } from '../../../src/core/graph/spectral';
import { matmulTB } from '../../../src/core/linalg/kernels';
import type { Csr } from '../../../src/core/linalg/types';
import { csr, graphFixture, mat, maxRelDiff } from '../../helpers/linalg';

const fx = graphFixture();
const m = fx.mixture;
const X = mat(m.n, m.d, m.X);

function dense(S: Csr): Float64Array {
  const D = new Float64Array(S.rows * S.cols);
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++)
      D[i * S.cols + S.indices[p]!] = S.data[p]!;
  return D;
}

function sortedRows(S: Csr): boolean {
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]! + 1; p < S.indptr[i + 1]!; p++)
      if (S.indices[p]! <= S.indices[p - 1]!) return false;
  return true;
}

describe('PKN graph (spec step 1)', () => {
  it('eps is MATLAB eps', () => {
    expect(MATLAB_EPS).toBe(fx.eps);
    expect(MATLAB_EPS).toBe(2 ** -52);
  });

  it('rows sum to 1 before symmetrisation, as numpy', () => {
    const rows = pknRows(knn(X, m.pkn.k + 1), m.pkn.k);
    for (let i = 0; i < m.n; i++) {
      let s = 0;
      for (let p = rows.indptr[i]!; p < rows.indptr[i + 1]!; p++) s += rows.data[p]!;
      expect(Math.abs(s - 1)).toBeLessThan(1e-14);
      expect(Math.abs(s - m.pkn.rowSums[i]!)).toBeLessThan(1e-14); // summation order
      expect(rows.indptr[i + 1]! - rows.indptr[i]!).toBe(m.pkn.k);
    }
    expect(sortedRows(rows)).toBe(true);
  });

  it('a row whose k + 1 neighbours all tie is empty, not NaN (BDGP mean-filled duplicates)', () => {
    // Ten copies of this distance sum to 10·d + eps in floating point, so k·d_{k+1} − Σd_j + eps
    // is exactly 0: the distances of BDGP Per0.5's third view, mean-filled, at sample 588.
    const d = 0.16619829760649496;
    let sum = 0;
    for (let j = 0; j < 10; j++) sum += d;
    expect(10 * d - sum + MATLAB_EPS).toBe(0);
    const nn = {
      n: 2,
      k: 11,
      indices: Int32Array.from({ length: 22 }, (_, j) => (j < 11 ? 1 : 0)),
      distances: new Float64Array(22).fill(d).map((x, j) => (j < 11 ? x : j === 21 ? 2 * x : x)),
    };
    const rows = pknRows(nn, 10);
    expect(rows.indptr[1]).toBe(0); // row 0: all tied, empty
    expect(rows.indptr[2]).toBeGreaterThan(0); // row 1: d_{k+1} larger, ordinary weights
    expect(rows.data.every(Number.isFinite)).toBe(true);
  });

  it('the symmetrised W matches numpy: same pattern, values to 1e-12 (weights ≤ 1)', () => {
    const W = pknGraph(X, m.pkn.k);
    const ref = csr(m.pkn.W, m.n);
    expect(Array.from(W.indptr)).toEqual(Array.from(ref.indptr));
    expect(Array.from(W.indices)).toEqual(Array.from(ref.indices));
    // d_{k+1} − d_j cancels: distances equal to ~1e-15·‖x‖² differ by up to ~1e-11 in weight.
    expect(maxRelDiff(W.data, ref.data, 1)).toBeLessThan(1e-12);
    expect(sortedRows(W)).toBe(true);
    const D = dense(W);
    let asymmetric = 0;
    for (let i = 0; i < m.n; i++)
      for (let j = 0; j < i; j++) if (D[i * m.n + j] !== D[j * m.n + i]) asymmetric++;
    expect(asymmetric).toBe(0);
  });

  it('hand-checkable: points on a line', () => {
    // x = 0, 1, 3, 6, k = 2. Point 0: d = 1, 9, 36 → w = (36 − 1, 36 − 9)/(2·36 − 10) = (35, 27)/62.
    const W = pknRows(knn(mat(4, 1, [0, 1, 3, 6]), 3), 2);
    expect(Array.from(W.indices.subarray(0, W.indptr[1]))).toEqual([1, 2]);
    expect(W.data[0]).toBeCloseTo(35 / 62, 15);
    expect(W.data[1]).toBeCloseTo(27 / 62, 15);
    // Point 1: d = 1 (to 0), 4 (to 2), 25 (to 3) → (24, 21)/45.
    expect(Array.from(W.indices.subarray(W.indptr[1], W.indptr[2]))).toEqual([0, 2]);
    expect(W.data[2]).toBeCloseTo(24 / 45, 15);
    // (W + Wᵀ)/2 at (0, 1): (35/62 + 24/45)/2.
    expect(dense(symmetrise(W))[1]).toBeCloseTo((35 / 62 + 24 / 45) / 2, 15);
    // x = 0, 1, −1, k = 1: for point 0 the neighbour ties with the (k+1)-th: weight 0, not stored.
    const T = pknRows(knn(mat(3, 1, [0, 1, -1]), 2), 1);
    expect(T.indptr[1]).toBe(0);
  });

  it('rejects k without k + 1 other samples', () => {
    expect(() => pknGraph(mat(3, 1, [0, 1, 2]), 2)).toThrow(/k = 2 must be an integer in 1\.\.1/);
    expect(() => pknRows(knn(X, 3), 3)).toThrow(/need 4 neighbours/);
  });
});

describe('normalised affinity (spec step 2)', () => {
  it('l_ij = w_ij / √(d_i d_j) with d = rowsum + eps, symmetric', () => {
    const W = csr(m.pkn.W, m.n);
    const L = normalisedAffinity(W);
    const d = degrees(W);
    const Dw = dense(W);
    const Dl = dense(L);
    for (let i = 0; i < m.n; i++) {
      let s = 0;
      for (let j = 0; j < m.n; j++) s += Dw[i * m.n + j]!;
      expect(d[i]).toBe(s + MATLAB_EPS);
    }
    let worst = 0;
    for (let i = 0; i < m.n; i++)
      for (let j = 0; j < m.n; j++) {
        const want = Dw[i * m.n + j]! / Math.sqrt(d[i]! * d[j]!);
        worst = Math.max(worst, Math.abs(Dl[i * m.n + j]! - want) / Math.max(want, 1e-300));
        if (Dl[i * m.n + j] !== Dl[j * m.n + i]) worst = Infinity;
      }
    expect(worst).toBeLessThan(1e-15);
  });
});

describe('reverse Cuthill–McKee reordering', () => {
  it('is a permutation and P·S·Pᵀ keeps the entries', () => {
    const W = csr(fx.components.W, fx.components.n);
    const perm = rcmOrder(W);
    expect(Array.from(perm).sort((a, b) => a - b)).toEqual(
      Array.from({ length: W.rows }, (_, i) => i),
    );
    const P = permuteCsr(W, perm);
    const D = dense(W);
    const Dp = dense(P);
    const n = W.rows;
    let moved = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) if (Dp[i * n + j] !== D[perm[i]! * n + perm[j]!]) moved++;
    expect(moved).toBe(0);
    expect(sortedRows(P)).toBe(true);
  });
});

describe('spectral embedding (spec step 6)', () => {
  it('rows have unit length and span the same embedding as numpy (F·Fᵀ equal)', () => {
    const W = csr(m.pkn.W, m.n);
    const s = spectralEmbedding(W, 4, { tol: 1e-12 });
    expect(s.converged).toBe(true);
    expect(maxRelDiff(s.values, m.eigenvalues.slice(-4).reverse(), 1)).toBeLessThan(1e-12);
    const F = s.embedding;
    for (let i = 0; i < m.n; i++) {
      let r = 0;
      for (let j = 0; j < 4; j++) r += F.data[i * 4 + j]! ** 2;
      expect(Math.abs(r - 1)).toBeLessThan(1e-14);
    }
    // Row normalisation commutes with an orthogonal rotation of the eigenbasis: F·Fᵀ is unique.
    const ref = normaliseRows(mat(m.n, 4, m.top4));
    const G = matmulTB(F, F);
    const Gref = matmulTB(ref, ref);
    expect(maxRelDiff(G.data, Gref.data, 1)).toBeLessThan(1e-8);
  });

  it('zero rows stay zero (an isolated sample)', () => {
    // Two triangles and an isolated vertex 6.
    const edges = [
      [0, 1],
      [0, 2],
      [1, 2],
      [3, 4],
      [3, 5],
      [4, 5],
    ];
    const n = 7;
    const D = new Float64Array(n * n);
    for (const [a, b] of edges) D[a! * n + b!] = D[b! * n + a!] = 1;
    const indptr = [0];
    const indices: number[] = [];
    const data: number[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (!D[i * n + j]) continue;
        indices.push(j);
        data.push(1);
      }
      indptr.push(indices.length);
    }
    const s = spectralEmbedding(csr({ indptr, indices, data }, n), 2);
    expect(Array.from(s.values).map((v) => +v.toFixed(12))).toEqual([1, 1]);
    expect(Array.from(s.embedding.data.subarray(12, 14))).toEqual([0, 0]);
    for (let i = 0; i < 6; i++)
      expect(Math.hypot(s.embedding.data[2 * i]!, s.embedding.data[2 * i + 1]!)).toBeCloseTo(1, 14);
    const N = normaliseRows(mat(2, 2, [0, 0, 3, 4])).data;
    expect([N[0], N[1]]).toEqual([0, 0]);
    expect(N[2]).toBeCloseTo(0.6, 15);
    expect(N[3]).toBeCloseTo(0.8, 15);
  });

  it('rejects c outside 1..n', () => {
    expect(() => spectralEmbedding(csr(m.pkn.W, m.n), 0)).toThrow(
      /c = 0 must be an integer in 1\.\.300/,
    );
  });
});
