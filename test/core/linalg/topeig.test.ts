/**
 * topEigenpairs (the warm-started top-c eigensolver) against numpy.linalg.eigh
 * (test/fixtures/linalg/topeig.py): a matrix whose top eigenvalues dominate (the fast path, from a
 * warm start that is not orthonormal, with and without the early acceptance `predict`), and one
 * with a spread spectrum (the fast path hands over to blockEig; also without a start). Values to
 * 1e-10 of ‖G‖, eigenvectors up to sign, subspaces through their projectors, VᵀV = I.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { matmulTA, matmulTB } from '../../../src/core/linalg/kernels';
import { denseOp } from '../../../src/core/linalg/linop';
import { fastWork, topEigenpairs, type TopEig } from '../../../src/core/linalg/topeig';
import type { Mat } from '../../../src/core/linalg/types';

interface Case {
  n: number;
  c: number;
  G: number[];
  values: number[];
  top: number[];
  X0: number[];
}
const fx = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../fixtures/linalg/topeig.json', import.meta.url)),
    'utf8',
  ),
) as { dominant: Case; spread: Case };

const mat = (rows: number, cols: number, a: number[]): Mat => ({
  rows,
  cols,
  data: Float64Array.from(a),
});

function expectPairs(r: TopEig, k: Case, vectors: boolean): void {
  const { n, c } = k;
  const norm = Math.max(...k.values.map(Math.abs));
  expect(r.converged).toBe(true);
  for (let j = 0; j < c; j++)
    expect(Math.abs(r.values[j]! - k.values[j]!)).toBeLessThanOrEqual(1e-10 * norm);
  const ref = mat(n, c, k.top);
  // The subspace: ‖VVᵀ − UUᵀ‖_max.
  const P = matmulTB(r.vectors, r.vectors).data;
  const Q = matmulTB(ref, ref).data;
  let e = 0;
  for (let p = 0; p < P.length; p++) e = Math.max(e, Math.abs(P[p]! - Q[p]!));
  expect(e).toBeLessThan(1e-8);
  const VtV = matmulTA(r.vectors, r.vectors).data;
  for (let a = 0; a < c; a++)
    for (let b = 0; b < c; b++)
      expect(Math.abs(VtV[a * c + b]! - (a === b ? 1 : 0))).toBeLessThan(1e-12);
  if (!vectors) return;
  for (let j = 0; j < c; j++) {
    let dot = 0;
    for (let i = 0; i < n; i++) dot += r.vectors.data[i * c + j]! * k.top[i * c + j]!;
    let d = 0;
    for (let i = 0; i < n; i++)
      d = Math.max(d, Math.abs(Math.sign(dot) * r.vectors.data[i * c + j]! - k.top[i * c + j]!));
    expect(d).toBeLessThan(1e-7);
  }
}

describe('topEigenpairs', () => {
  const k = fx.dominant;
  const G = mat(k.n, k.n, k.G);
  const X0 = mat(k.n, k.c, k.X0);
  // μ = 0.2 ≥ −λ_min and ≥ max_{j>c} |λ_j| (0.126 and 0.125 in the fixture).
  const shift = 0.2;
  const bounds = { lower: -shift, upper: 1000 };

  it('dominant top eigenvalues, warm start: the fast path, numpy’s pairs', () => {
    const r = topEigenpairs(denseOp(G), k.c, X0, shift, 1e-12, bounds, 2);
    expect(r.fallback).toBe(false);
    expect(r.predicted).toBe(false);
    expect(r.products).toBeLessThanOrEqual(10);
    expectPairs(r, k, true);
  });

  it('predict: the same subspace, in no more products; reused buffers give the same bits', () => {
    const plain = topEigenpairs(denseOp(G), k.c, X0, shift, 1e-12, bounds, 2);
    const fw = fastWork(k.n, k.c);
    const r = topEigenpairs(denseOp(G), k.c, X0, shift, 1e-12, bounds, 2, fw, true);
    expect(r.products).toBeLessThanOrEqual(plain.products);
    expectPairs(r, k, !r.predicted);
    const first = Float64Array.from(r.vectors.data);
    const again = topEigenpairs(denseOp(G), k.c, X0, shift, 1e-12, bounds, 2, fw, true);
    expect(again.vectors.data).toEqual(first);
  });

  it('spread spectrum: the fast path hands over to blockEig, numpy’s pairs', () => {
    const s = fx.spread;
    const Gs = mat(s.n, s.n, s.G);
    const b = { lower: -1, upper: 1 };
    const r = topEigenpairs(denseOp(Gs), s.c, mat(s.n, s.c, s.X0), 1, 1e-12, b, 2);
    expect(r.fallback).toBe(true);
    expectPairs(r, s, true);
    const cold = topEigenpairs(denseOp(Gs), s.c, null, 1, 1e-12, b);
    expect(cold.fallback).toBe(false);
    expectPairs(cold, s, true);
  });
});
