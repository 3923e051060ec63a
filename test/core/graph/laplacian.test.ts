/**
 * laplacian and laplacianBottom against scipy (test/fixtures/graph/laplacian.py):
 * scipy.sparse.csgraph.laplacian's dense L = D − W, scipy.linalg.eigh's smallest eigenpairs of a
 * connected graph (distinct eigenvalues: vectors compared up to sign), and of a graph with five
 * components (eigenvalue 0 five times: the eigenspace compared through its projector with that of
 * the components' indicators). Identities: L·V = V·Λ, VᵀV = I.
 */
import { describe, expect, it } from 'vitest';
import { laplacian, laplacianBottom } from '../../../src/core/graph/laplacian';
import { matmul, matmulTA, matmulTB } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { csrOf, denseOf, laplacianFixture } from '../../helpers/laplacian-fixture';

const fx = laplacianFixture();

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe('laplacian', () => {
  it.each(['blocks', 'connected'] as const)('%s: D − W as scipy (self loop, stored zero)', (k) => {
    const g = fx[k];
    const L = laplacian(csrOf(g.n, g.W));
    const dense = denseOf(L);
    const scale = Math.max(...g.laplacian.map(Math.abs));
    expect(maxAbs(dense.data, g.laplacian)).toBeLessThanOrEqual(1e-14 * scale);
    // Sorted rows with the whole diagonal stored.
    for (let i = 0; i < L.rows; i++) {
      let diag = 0;
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
        if (p > L.indptr[i]!) expect(L.indices[p]!).toBeGreaterThan(L.indices[p - 1]!);
        if (L.indices[p] === i) diag++;
      }
      expect(diag).toBe(1);
    }
  });

  it('refuses a non-square graph', () => {
    const S = { rows: 2, cols: 3, indptr: new Int32Array(3), indices: new Int32Array(0) };
    expect(() => laplacian({ ...S, data: new Float64Array(0) })).toThrow(/not square/);
    expect(() => laplacianBottom({ ...S, data: new Float64Array(0) }, 1)).toThrow(/not square/);
  });
});

describe('laplacianBottom', () => {
  it('connected graph: the 4 smallest eigenpairs of scipy.linalg.eigh', () => {
    const g = fx.connected;
    const S = csrOf(g.n, g.W);
    const r = laplacianBottom(S, 4);
    const top = g.eigenvalues[g.n - 1]!;
    expect(r.converged).toBe(true);
    expect(maxAbs(r.values, g.eigenvalues.slice(0, 4))).toBeLessThanOrEqual(1e-9 * top);
    for (let j = 0; j < 4; j++) {
      let dot = 0;
      for (let i = 0; i < g.n; i++) dot += r.vectors.data[i * 4 + j]! * g.bottom4[i * 4 + j]!;
      const s = Math.sign(dot);
      let e = 0;
      for (let i = 0; i < g.n; i++)
        e = Math.max(e, Math.abs(s * r.vectors.data[i * 4 + j]! - g.bottom4[i * 4 + j]!));
      expect(e).toBeLessThan(1e-7);
    }
    // L·V = V·Λ and VᵀV = I.
    const LV = matmul(denseOf(laplacian(S)), r.vectors);
    for (let i = 0; i < g.n; i++)
      for (let j = 0; j < 4; j++)
        expect(
          Math.abs(LV.data[i * 4 + j]! - r.values[j]! * r.vectors.data[i * 4 + j]!),
        ).toBeLessThan(1e-9 * top);
    const VtV = matmulTA(r.vectors, r.vectors);
    for (let a = 0; a < 4; a++)
      for (let b = 0; b < 4; b++)
        expect(Math.abs(VtV.data[a * 4 + b]! - (a === b ? 1 : 0))).toBeLessThan(1e-12);
  });

  it('five components: eigenvalue 0 five times, the eigenspace of the indicators', () => {
    const b = fx.blocks;
    const c = b.count;
    const r = laplacianBottom(csrOf(b.n, b.W), c);
    const top = b.eigenvalues[b.n - 1]!;
    expect(r.converged).toBe(true);
    for (const v of r.values) expect(Math.abs(v)).toBeLessThanOrEqual(1e-9 * top);
    // Normalised indicators of scipy's components.
    const sizes = new Array<number>(c).fill(0);
    for (const l of b.labels) sizes[l]!++;
    const Z: Mat = { rows: b.n, cols: c, data: new Float64Array(b.n * c) };
    b.labels.forEach((l, i) => (Z.data[i * c + l] = 1 / Math.sqrt(sizes[l]!)));
    const P = matmulTB(r.vectors, r.vectors);
    const Q = matmulTB(Z, Z);
    expect(maxAbs(P.data, Q.data)).toBeLessThan(1e-8);
  });

  it('refuses c outside 1..n', () => {
    const g = fx.connected;
    expect(() => laplacianBottom(csrOf(g.n, g.W), 0)).toThrow(/c = 0/);
    expect(() => laplacianBottom(csrOf(g.n, g.W), g.n + 1)).toThrow(/1\.\.60/);
  });
});
