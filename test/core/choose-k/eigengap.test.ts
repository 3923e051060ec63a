/**
 * The eigengap: the anchor graph's spectrum through its m × m matrix against the n × n
 * normalised affinity formed densely (symEigValues), graphs with c components (eigenvalue 1
 * c times, the suggestion c), and the views' kNN graph over present samples.
 */
import { describe, expect, it } from 'vitest';
import {
  affinityEigenvalues,
  anchorEigenvalues,
  eigengap,
  viewsKnnGraph,
} from '../../../src/core/choose-k/eigengap';
import { symEigValues } from '../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';
import { blobs, denseView, pick } from '../../helpers/toy';

/** D^{-1/2}·Z·Λ⁻¹·Zᵀ·D^{-1/2} formed densely (n × n), the oracle. */
function denseAnchorAffinity(Z: Mat): Mat {
  const { rows: n, cols: m } = Z;
  const lam = new Float64Array(m);
  for (let i = 0; i < n; i++) for (let a = 0; a < m; a++) lam[a]! += Z.data[i * m + a]!;
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let a = 0; a < m; a++) s += (Z.data[i * m + a]! * Z.data[j * m + a]!) / lam[a]!;
      W[i * n + j] = s;
    }
  }
  const deg = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) deg[i]! += W[i * n + j]!;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) W[i * n + j]! /= Math.sqrt(deg[i]! * deg[j]!);
  }
  return { rows: n, cols: n, data: W };
}

/** D^{-1/2}·W·D^{-1/2} of a CSR graph, formed densely (the oracle). */
function denseOf(W: Csr): Mat {
  const n = W.rows;
  const deg = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) deg[i]! += W.data[p]!;
  const A: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++) {
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      const j = W.indices[p]!;
      A.data[i * n + j] = W.data[p]! / Math.sqrt(deg[i]! * deg[j]!);
    }
  }
  return A;
}

/** A block-diagonal CSR graph: `c` cliques of `size` samples (unit weights, no self loops). */
function cliques(c: number, size: number): Csr {
  const n = c * size;
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = Math.floor(i / size);
    for (let j = g * size; j < (g + 1) * size; j++) if (j !== i) indices.push(j);
    indptr[i + 1] = indices.length;
  }
  return {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: new Float64Array(indices.length).fill(1),
  };
}

describe('anchorEigenvalues', () => {
  it('equals the eigenvalues of the dense n × n normalised affinity (zeros past m)', () => {
    const rng = createRng(3);
    const n = 30;
    const m = 6;
    const Z: Mat = {
      rows: n,
      cols: m,
      data: Float64Array.from({ length: n * m }, () => rng.next()),
    };
    const got = anchorEigenvalues(Z, 9);
    const want = Array.from(symEigValues(denseAnchorAffinity(Z))).reverse();
    expect(got[0]).toBeCloseTo(1, 12);
    for (let i = 0; i < 9; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-12);
    expect(Array.from(got.subarray(m))).toEqual([0, 0, 0]);
  });

  it('gives 1 once per group of samples sharing no anchor, and suggests that many', () => {
    // 3 groups of 5 samples, each on its own 2 anchors (m = 6).
    const n = 15;
    const m = 6;
    const Z: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
    for (let i = 0; i < n; i++) {
      const g = Math.floor(i / 5);
      Z.data[i * m + 2 * g] = 0.3 + (i % 5) * 0.1;
      Z.data[i * m + 2 * g + 1] = 0.7 - (i % 5) * 0.1;
    }
    const mu = anchorEigenvalues(Z, 6);
    for (let i = 0; i < 3; i++) expect(mu[i]).toBeCloseTo(1, 12);
    expect(mu[3]!).toBeLessThan(0.9);
    const gap = eigengap({ kind: 'anchor', Z }, 'test', 2, 5);
    expect(gap.suggested).toBe(3);
    expect(gap.eigenvalues).toHaveLength(6);
    expect(gap.gaps[2]).toBeCloseTo(1 - mu[3]!, 12);
  });
});

describe('affinityEigenvalues and eigengap on a sparse graph', () => {
  it('4 cliques: eigenvalue 1 four times, then the cliques’ −1/(size − 1); suggests 4', () => {
    const W = cliques(4, 6);
    const mu = affinityEigenvalues(W, 6);
    for (let i = 0; i < 4; i++) expect(mu[i]).toBeCloseTo(1, 8);
    expect(mu[4]).toBeCloseTo(-1 / 5, 8);
    expect(eigengap({ kind: 'affinity', W }, 'cliques', 2, 5).suggested).toBe(4);
  });
});

describe('affinityEigenvalues: the dense path (n ≤ 400) and the block eigensolver agree', () => {
  it('on 3 blobs’ kNN graph, above and below the dense limit', () => {
    const small = blobs(20).points;
    const large = blobs(150).points;
    for (const points of [small, large]) {
      const all = Array.from({ length: points.length }, (_, i) => i);
      const W = viewsKnnGraph(points.length, [denseView('a', all, points)]);
      const mu = affinityEigenvalues(W, 6);
      const dense = Array.from(symEigValues(denseOf(W))).reverse();
      for (let i = 0; i < 6; i++) expect(Math.abs(mu[i]! - dense[i]!)).toBeLessThan(1e-8);
    }
  });
});

describe('viewsKnnGraph', () => {
  it('is symmetric, over global sample indices, and its eigengap finds 3 blobs', () => {
    const { points } = blobs(20);
    const n = points.length;
    const all = Array.from({ length: n }, (_, i) => i);
    const some = all.filter((i) => i % 4 !== 1);
    const views = [denseView('a', all, points), denseView('b', some, pick(points, some))];
    const W = viewsKnnGraph(n, views);
    expect(W.rows).toBe(n);
    const at = (i: number, j: number): number => {
      for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++)
        if (W.indices[p] === j) return W.data[p]!;
      return 0;
    };
    for (let i = 0; i < n; i++) {
      for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
        const j = W.indices[p]!;
        expect(at(j, i)).toBeCloseTo(W.data[p]!, 14);
        expect(Math.floor(i / 20)).toBe(Math.floor(j / 20)); // neighbours stay in the blob
      }
    }
    expect(eigengap({ kind: 'affinity', W }, 'knn', 2, 6).suggested).toBe(3);
  });
});
