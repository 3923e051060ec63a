/**
 * The factorised T-step (`FactorisedTensor`) beyond the shapes of `cgl.test.ts`: one view, one
 * cluster, odd and even n, views more than clusters; against the dense t-SVD (terms and T_v·X
 * to 1e-12) and against itself: a step on an instance that has run before gives the same bits
 * as a fresh instance (nothing of an earlier step leaks into the next).
 */
import { describe, expect, it } from 'vitest';
import { matmul } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { createRng } from '../../../../src/core/random';
import type { Shrinkage } from '../../../../src/core/solvers/cgl/shrink';
import { denseTensorStep, FactorisedTensor } from '../../../../src/core/solvers/cgl/tensor';

/** n × c with unit rows (as F̄_v), column `bias` favoured so the views differ. */
function unitRows(n: number, c: number, seed: number, bias: number): Mat {
  const rng = createRng(seed);
  const data = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < c; j++) {
      const x = rng.normal() + (j === bias % c ? 2 : 0);
      data[i * c + j] = x;
      s += x * x;
    }
    for (let j = 0; j < c; j++) data[i * c + j]! /= Math.sqrt(s);
  }
  return { rows: n, cols: c, data };
}

function concat(F: Mat[]): Mat {
  const n = F[0]!.rows;
  const c = F[0]!.cols;
  const w = F.length * c;
  const data = new Float64Array(n * w);
  for (let i = 0; i < n; i++)
    F.forEach((M, v) => data.set(M.data.subarray(i * c, (i + 1) * c), i * w + v * c));
  return { rows: n, cols: w, data };
}

const relErr = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const SHRINK: Shrinkage[] = [
  { kind: 'wtnn', rho: 2 },
  { kind: 'tgamma', rho: 2, gamma: 0.1 },
];

describe('FactorisedTensor', () => {
  for (const [n, V, c] of [
    [40, 1, 3],
    [33, 2, 1],
    [50, 5, 2],
    [64, 4, 3],
  ] as const)
    for (const sh of SHRINK)
      it(`equals the dense t-SVD (n = ${n}, V = ${V}, c = ${c}, ${sh.kind})`, () => {
        const F = Array.from({ length: V }, (_, v) => unitRows(n, c, 100 * n + v, v));
        const Fcat = concat(F);
        const ft = new FactorisedTensor(n, V, c);
        const t = ft.step(F, Fcat, sh);
        const d = denseTensorStep(F, sh);
        expect(t.tubalRank).toBe(d.terms.tubalRank);
        expect(relErr(t.penalty, d.terms.penalty)).toBeLessThan(1e-12);
        for (let v = 0; v < V; v++)
          expect(relErr(t.tensor[v]!, d.terms.tensor[v]!)).toBeLessThan(1e-9);
        for (let p = 0; p < t.sigma.length; p++)
          expect(Math.abs(t.sigma[p]! - d.terms.sigma[p]!)).toBeLessThan(1e-12 * d.terms.sigma[0]!);
        const X = unitRows(n, 2, 7, 0);
        for (let v = 0; v < V; v++) {
          const Y = ft.applyT(v, F, Fcat, X);
          const Z = matmul(d.T[v]!, X);
          let err = 0;
          let nrm = 0;
          for (let p = 0; p < Y.data.length; p++) {
            err = Math.max(err, Math.abs(Y.data[p]! - Z.data[p]!));
            nrm = Math.max(nrm, Math.abs(Z.data[p]!));
          }
          expect(err / nrm).toBeLessThan(1e-12);
        }
      });

  it('a reused instance gives the bits of a fresh one', () => {
    const [n, V, c] = [90, 3, 4];
    const F1 = Array.from({ length: V }, (_, v) => unitRows(n, c, 1 + v, v));
    const F2 = Array.from({ length: V }, (_, v) => unitRows(n, c, 11 + v, v + 1));
    for (const sh of SHRINK) {
      const used = new FactorisedTensor(n, V, c);
      used.step(F1, concat(F1), sh);
      const a = used.step(F2, concat(F2), sh);
      const fresh = new FactorisedTensor(n, V, c);
      const b = fresh.step(F2, concat(F2), sh);
      expect(Array.from(a.tensor)).toEqual(Array.from(b.tensor));
      expect(Array.from(a.sigma)).toEqual(Array.from(b.sigma));
      expect(Array.from(a.kept)).toEqual(Array.from(b.kept));
      expect([a.penalty, a.tubalRank, a.maxPasses]).toEqual([b.penalty, b.tubalRank, b.maxPasses]);
      for (let v = 0; v < V; v++)
        expect(Array.from(used.dP[v]!.data)).toEqual(Array.from(fresh.dP[v]!.data));
    }
  });
});
