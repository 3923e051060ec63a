/**
 * The Laplacian's c + 1 smallest eigenpairs by components (laplacian-blocks.ts, reached through
 * laplacianBottomPairs 'sparse') against the full dense decomposition ('dense', the reference's
 * eig1) on seeded graphs whose components are interleaved in sample order: many small components
 * (each decomposed densely), a component larger than DENSE_MAX beside small ones (its own block
 * eigensolve), signed weights (every component asks for c + 1 pairs) and one connected graph (the
 * single warm-started solve). Checked: the values to 1e-10·‖L‖, FᵀF = I, L·F = F·Λ and F·Fᵀ equal
 * to the dense one (the c smallest eigenvalues are separated from the (c+1)-th in every case, so
 * the projector is unique even where the zeros tie).
 */
import { describe, expect, it } from 'vitest';
import { blockedBottomPairs, DENSE_MAX } from '../../../src/core/graph/laplacian-blocks';
import {
  CsrBuilder,
  laplacianBottomPairs,
  laplacianOf,
} from '../../../src/core/graph/laplacian-pairs';
import { matmulTA, matmulTB } from '../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

/**
 * A symmetric graph on the given component sizes: each component a ring plus `extra` random
 * chords per sample, weights uniform in (0.1, 1.1) (a share `negative` of the chords negated);
 * samples are shuffled so the components interleave.
 */
function graph(sizes: number[], extra: number, negative: number, seed: number): Csr {
  const rng = createRng(seed);
  const n = sizes.reduce((a, s) => a + s, 0);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const W = new Float64Array(n * n);
  const set = (a: number, b: number, w: number): void => {
    W[a * n + b] = w;
    W[b * n + a] = w;
  };
  let o = 0;
  for (const s of sizes) {
    const id = (t: number): number => perm[o + (t % s)]!;
    if (s > 1) for (let t = 0; t < s; t++) set(id(t), id(t + 1), 0.1 + rng.next());
    for (let t = 0; s > 2 && t < s * extra; t++) {
      const a = Math.floor(rng.next() * s);
      const b = Math.floor(rng.next() * s);
      if (a === b) continue;
      const w = 0.1 + rng.next();
      set(id(a), id(b), rng.next() < negative ? -0.2 * w : w);
    }
    o += s;
  }
  const b = new CsrBuilder(n, n * (2 + 2 * extra));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) b.push(j, W[i * n + j]!);
    b.endRow();
  }
  return b.build();
}

/** max |A − B| over all entries of two equal-shaped matrices. */
function gap(A: Mat, B: Mat): number {
  let m = 0;
  for (let p = 0; p < A.data.length; p++) m = Math.max(m, Math.abs(A.data[p]! - B.data[p]!));
  return m;
}

function projector(F: Mat): Mat {
  const P: Mat = { rows: F.rows, cols: F.rows, data: new Float64Array(F.rows * F.rows) };
  matmulTB(F, F, P);
  return P;
}

function check(S: Csr, c: number, warm: Mat | null = null): void {
  const n = S.rows;
  const L = laplacianOf(S);
  let norm = 0;
  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) row += Math.abs(L.data[p]!);
    norm = Math.max(norm, row);
  }
  const dense = laplacianBottomPairs(S, c, 'dense', null);
  const ours = laplacianBottomPairs(S, c, 'sparse', warm);
  // The setting the projector check needs: λ_c and λ_{c+1} apart.
  expect(dense.values[c]! - dense.values[c - 1]!).toBeGreaterThan(1e-6 * norm);
  for (let j = 0; j <= c; j++) {
    expect(Math.abs(ours.values[j]! - dense.values[j]!), `λ_${j + 1}`).toBeLessThan(1e-10 * norm);
  }
  const F = ours.F;
  const G: Mat = { rows: c, cols: c, data: new Float64Array(c * c) };
  matmulTA(F, F, G);
  for (let a = 0; a < c; a++) G.data[a * c + a]! -= 1;
  expect(Math.max(...G.data.map(Math.abs)), 'FᵀF − I').toBeLessThan(1e-10);
  // L·F − F·Λ, row by row from the CSR.
  let res = 0;
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < c; a++) {
      let s = -ours.values[a]! * F.data[i * c + a]!;
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
        s += L.data[p]! * F.data[L.indices[p]! * c + a]!;
      }
      res = Math.max(res, Math.abs(s));
    }
  }
  expect(res, 'L·F − F·Λ').toBeLessThan(1e-9 * norm);
  expect(gap(projector(F), projector(dense.F)), 'F·Fᵀ').toBeLessThan(1e-8);
}

describe('laplacian bottom pairs by components', () => {
  it('many small components (each dense), fewer than c + 1', () => {
    const sizes = [30, 25, 9, 1, 40, 12, 33, 17, 2, 21];
    check(graph(sizes, 2, 0, 1), 14);
  });

  it(`a component larger than DENSE_MAX (${DENSE_MAX}) beside small ones`, () => {
    const sizes = [DENSE_MAX + 40, 20, 11, 30, 1];
    check(graph(sizes, 2, 0, 2), 9);
  });

  it('two large components and c small: each gives c + 2 − m pairs', () => {
    const sizes = [DENSE_MAX + 10, DENSE_MAX + 25];
    check(graph(sizes, 3, 0, 3), 4);
  });

  it('signed weights: the nonzero pattern splits L, every component gives c + 1 pairs', () => {
    const sizes = [DENSE_MAX + 20, 40, 15];
    check(graph(sizes, 3, 0.15, 4), 6);
  });

  it("components started from the rows of a nearby graph's stacked blocks", () => {
    // Two components past the eigensolver's dense size (200); the nearby graph has the same pattern with weights scaled per entry.
    const sizes = [DENSE_MAX + 70, DENSE_MAX + 95, 7];
    const S = graph(sizes, 3, 0, 6);
    const near: Csr = { ...S, data: S.data.map((x, p) => x * (1 + 0.05 * Math.sin(p))) };
    const c = 4;
    const prev = laplacianBottomPairs(near, c, 'sparse', null);
    // The previous solve went by components: its warm start is their blocks side by side.
    expect(prev.components).toBe(3);
    expect(prev.warm.cols).toBeGreaterThan(c);
    check(S, c, prev.warm);
    // And a stacked block as the start of a solve on a connected graph.
    const joined = graph([S.rows], 3, 0, 7);
    check(joined, c, laplacianBottomPairs(graph(sizes, 3, 0, 8), c, 'sparse', null).warm);
  });

  it('one connected graph, from a warm start and from none', () => {
    const S = graph([DENSE_MAX + 60], 3, 0, 5);
    const c = 5;
    check(S, c);
    check(S, c, laplacianBottomPairs(S, c, 'dense', null).F);
  });

  it('counts the eigensolver products: none where every component is dense, fewer from a converged start', () => {
    const small = laplacianOf(graph([30, 25, 9, 1, 40], 2, 0, 9));
    expect(blockedBottomPairs(small, 6, true, null).matvecs).toBe(0);
    const L = laplacianOf(graph([DENSE_MAX + 60], 3, 0, 5));
    const cold = blockedBottomPairs(L, 5, true, null);
    expect(cold.matvecs).toBeGreaterThan(0);
    const again = blockedBottomPairs(L, 5, true, cold.block);
    expect(again.matvecs).toBeGreaterThan(0);
    expect(again.matvecs).toBeLessThan(cold.matvecs);
  });
});
