/**
 * Singular-value thresholding against numpy.linalg.svd (test/fixtures/prox/make.py): the kept
 * rank exactly, the shrunk singular values and the matrix to 1e-12 relative (two different
 * SVDs agree to a few ε·σ_max). Plus the prox's defining property: for a random Z, the value
 * ½‖X − A‖² + τ‖X‖_* at the returned X is not above its value at Z.
 */
import { describe, expect, it } from 'vitest';
import { thinSvd } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { singularValueThreshold } from '../../../src/core/prox/svt';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';
import { randMat } from '../../helpers/mat';

interface Case {
  name: string;
  A: JsonMat;
  tau: number;
  X: JsonMat;
  rank: number;
  s: number[];
}
const ref = readFixture<{ svt: Case[] }>('prox', 'prox.json').svt;

function proxValue(X: Mat, A: Mat, tau: number): number {
  let f = 0;
  for (let i = 0; i < X.data.length; i++) f += 0.5 * (X.data[i]! - A.data[i]!) ** 2;
  return f + tau * thinSvd(X).s.reduce((a, b) => a + b, 0);
}

describe('prox/svt', () => {
  it.each(ref.map((c) => [c.name, c] as const))('%s as numpy', (_, c) => {
    const A = jsonMat(c.A);
    const { X, rank, s } = singularValueThreshold(A, c.tau);
    expect(rank).toBe(c.rank);
    const smax = Math.max(...c.s, 1);
    c.s.forEach((v, i) => expect(Math.abs(s[i]! - v)).toBeLessThanOrEqual(1e-12 * smax));
    expect(relDiff(X, jsonMat(c.X))).toBeLessThanOrEqual(1e-12);
  });

  it('minimises ½‖X − A‖² + τ‖X‖_* against random competitors', () => {
    const A = randMat(6, 4, 11);
    const tau = 0.7;
    const { X } = singularValueThreshold(A, tau);
    const best = proxValue(X, A, tau);
    for (let seed = 0; seed < 20; seed++) {
      const Z = randMat(6, 4, 100 + seed);
      for (let i = 0; i < Z.data.length; i++) Z.data[i] = X.data[i]! + 0.05 * Z.data[i]!;
      expect(best).toBeLessThanOrEqual(proxValue(Z, A, tau) + 1e-12);
    }
  });

  it('gives 0 of rank 0 above the largest singular value, into out', () => {
    const A = randMat(3, 5, 2);
    const out: Mat = { rows: 3, cols: 5, data: new Float64Array(15).fill(7) };
    const r = singularValueThreshold(A, 1e3, out);
    expect(r.rank).toBe(0);
    expect(r.X).toBe(out);
    expect(Array.from(out.data)).toEqual(new Array(15).fill(0));
    expect(() => singularValueThreshold(A, -1)).toThrow(/τ = -1/);
  });
});
