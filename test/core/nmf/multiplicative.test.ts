/**
 * Weighted multiplicative NMF updates. Against numpy (test/fixtures/nmf/make.py): one sweep
 * from a stored start, for no weights, a 0/1 entry mask, row and column weights, to 1e-12
 * relative (the Gram-matrix denominators sum in another order than numpy's full products);
 * the objective before and after to 1e-12. Property: on random data the objective
 * Σ Ω (X − U·Vᵀ)² never increases over 200 sweeps, for every kind of weight.
 */
import { describe, expect, it } from 'vitest';
import type { Mat } from '../../../src/core/linalg/types';
import {
  createNmfWork,
  nmfObjective,
  nmfStep,
  nmfUpdateU,
  nmfUpdateV,
  type NmfWeights,
} from '../../../src/core/nmf/multiplicative';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';
import { prng } from '../../helpers/prng';

type JsonWeights =
  { kind: 'entries'; omega: JsonMat } | { kind: 'rows' | 'cols'; omega: number[] } | null;
interface Case {
  name: string;
  weights: JsonWeights;
  U1: JsonMat;
  V1: JsonMat;
  f0: number;
  f1: number;
}
const ref = readFixture<{ X: JsonMat; U0: JsonMat; V0: JsonMat; k: number; cases: Case[] }>(
  'nmf',
  'nmf.json',
);

function weightsOf(w: JsonWeights): NmfWeights | undefined {
  if (!w) return undefined;
  if (w.kind === 'entries') return { kind: 'entries', omega: jsonMat(w.omega) };
  return { kind: w.kind, omega: Float64Array.from(w.omega) };
}

function uniform(rows: number, cols: number, r: () => number): Mat {
  return { rows, cols, data: Float64Array.from({ length: rows * cols }, () => r()) };
}

describe('nmf/multiplicative', () => {
  it.each(ref.cases.map((c) => [c.name, c] as const))('one sweep as numpy: %s', (_, c) => {
    const X = jsonMat(ref.X);
    const U = jsonMat(ref.U0);
    const V = jsonMat(ref.V0);
    const weights = weightsOf(c.weights);
    const w = createNmfWork(X, ref.k, weights ? { weights } : {});
    expect(Math.abs(nmfObjective(w, U, V) - c.f0)).toBeLessThanOrEqual(1e-12 * c.f0);
    nmfStep(w, U, V);
    expect(relDiff(U, jsonMat(c.U1))).toBeLessThanOrEqual(1e-12);
    expect(relDiff(V, jsonMat(c.V1))).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(nmfObjective(w, U, V) - c.f1)).toBeLessThanOrEqual(1e-12 * c.f1);
    expect(c.f1).toBeLessThan(c.f0);
  });

  it('never increases the weighted objective on random data', () => {
    const r = prng(99);
    const [m, n, k] = [30, 20, 4];
    const X = uniform(m, n, r);
    const mask = uniform(m, n, r);
    for (let p = 0; p < m * n; p++) mask.data[p] = mask.data[p]! < 0.25 ? 0 : 1;
    const all: (NmfWeights | undefined)[] = [
      undefined,
      { kind: 'entries', omega: mask },
      { kind: 'rows', omega: Float64Array.from({ length: m }, () => 0.1 + r()) },
      { kind: 'cols', omega: Float64Array.from({ length: n }, () => 0.1 + r()) },
    ];
    for (const weights of all) {
      const w = createNmfWork(X, k, weights ? { weights } : {});
      const U = uniform(m, k, r);
      const V = uniform(n, k, r);
      let f = nmfObjective(w, U, V);
      const first = f;
      for (let t = 0; t < 200; t++) {
        nmfUpdateU(w, U, V);
        const fu = nmfObjective(w, U, V);
        nmfUpdateV(w, U, V);
        const fv = nmfObjective(w, U, V);
        expect(fu).toBeLessThanOrEqual(f * (1 + 1e-14));
        expect(fv).toBeLessThanOrEqual(fu * (1 + 1e-14));
        f = fv;
      }
      expect(f).toBeLessThan(0.5 * first);
      expect(U.data.every((x) => x >= 0) && V.data.every((x) => x >= 0)).toBe(true);
    }
  });

  it('a zero row stays zero without a NaN, thanks to the floor', () => {
    const X = { rows: 2, cols: 2, data: Float64Array.from([1, 2, 0, 0]) };
    const U = { rows: 2, cols: 1, data: Float64Array.from([1, 0]) };
    const V = { rows: 2, cols: 1, data: Float64Array.from([1, 1]) };
    const w = createNmfWork(X, 1, { weights: { kind: 'rows', omega: Float64Array.from([1, 0]) } });
    nmfStep(w, U, V);
    expect(U.data[1]).toBe(0);
    expect([...U.data, ...V.data].every(Number.isFinite)).toBe(true);
  });

  it('refuses negative data or weights and a wrong mask shape', () => {
    const X = { rows: 2, cols: 2, data: Float64Array.from([1, -2, 0, 0]) };
    expect(() => createNmfWork(X, 1)).toThrow(/X has entry 1 = -2/);
    const Y = { rows: 2, cols: 2, data: Float64Array.from([1, 2, 0, 0]) };
    const bad = { kind: 'cols', omega: Float64Array.from([1, -1]) } as const;
    expect(() => createNmfWork(Y, 1, { weights: bad })).toThrow(/Ω has entry 1 = -1/);
    const omega = { rows: 1, cols: 2, data: new Float64Array(2) };
    expect(() => createNmfWork(Y, 1, { weights: { kind: 'entries', omega } })).toThrow(
      /Ω is 1x2, X is 2x2/,
    );
    expect(() => createNmfWork(Y, 0)).toThrow(/k = 0/);
  });
});
