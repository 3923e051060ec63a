/**
 * Simplex projection: the exact sort method and the reference's Newton scheme agree, and both
 * satisfy the optimality conditions of argmin_{x ∈ Δ} ‖x − v‖².
 */
import { describe, expect, it } from 'vitest';
import {
  projectColumnsToSimplex,
  projectSimplex,
  projectSimplexNewton,
} from '../../../src/core/linalg/simplex';
import { createRng } from '../../../src/core/random';

/** Seeded vectors of many kinds, edge cases first. */
function cases(): Float64Array[] {
  const out: Float64Array[] = [
    Float64Array.of(0.5),
    Float64Array.of(-3),
    Float64Array.of(0.25, 0.25, 0.25, 0.25),
    Float64Array.of(7, 7, 7),
    Float64Array.of(-2, -2, -2, -2, -2),
    Float64Array.of(1e12, 0, 0, 0),
    Float64Array.of(1e12, 1e12 - 0.5, -1e12),
    Float64Array.of(-5, -5.1, -4.9, -6),
    Float64Array.of(0, 0),
    Float64Array.of(1, 0, 0),
    Float64Array.of(0.3, 0.1, -0.5),
  ];
  const r = createRng(123);
  for (let t = 0; t < 400; t++) {
    const m = 1 + r.int(t < 300 ? 12 : 300);
    const scale = 10 ** (r.int(9) - 4);
    const shift = (r.next() - 0.5) * 4 * scale;
    const v = new Float64Array(m);
    for (let i = 0; i < m; i++) v[i] = shift + scale * r.normal();
    if (t % 7 === 0) v[r.int(m)] = v[0]!; // ties
    out.push(v);
  }
  return out;
}

const sum = (x: Float64Array): number => x.reduce((s, a) => s + a, 0);

describe('projection onto the probability simplex', () => {
  it('hand-checked cases', () => {
    expect(Array.from(projectSimplex([0.3, 0.1, -0.5]))).toEqual([
      expect.closeTo(0.6, 15),
      expect.closeTo(0.4, 15),
      0,
    ]);
    expect(Array.from(projectSimplexNewton([2, 0]))).toEqual([1, 0]);
    expect(Array.from(projectSimplex([7, 7, 7, 7]))).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(Array.from(projectSimplexNewton([-4]))).toEqual([1]);
    expect(Array.from(projectSimplex([1e12, 0, 0]))).toEqual([1, 0, 0]);
  });

  it('sort and Newton agree to 1e-12 (times the scale of v) on 411 seeded vectors', () => {
    let worst = 0;
    for (const v of cases()) {
      const a = projectSimplex(v);
      const b = projectSimplexNewton(v);
      const scale = Math.max(1, ...Array.from(v, Math.abs));
      for (let i = 0; i < v.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / scale);
    }
    expect(worst).toBeLessThan(1e-12);
  });

  it('is feasible and optimal: x ≥ 0, Σx = 1, ⟨v − x, e_k − x⟩ ≤ 0 for every vertex e_k', () => {
    let negative = 0;
    let sumError = 0;
    let kkt = -Infinity; // max over cases and k of ⟨v − x, e_k − x⟩ / (scale · m)
    for (const v of cases()) {
      const scale = Math.max(1, ...Array.from(v, Math.abs)) * v.length;
      for (const x of [projectSimplex(v), projectSimplexNewton(v)]) {
        negative += x.filter((xi) => xi < 0).length;
        sumError = Math.max(sumError, Math.abs(sum(x) - 1) / scale);
        // ⟨v − x, e_k − x⟩ = (v − x)_k − ⟨v − x, x⟩
        let inner = 0;
        for (let i = 0; i < v.length; i++) inner += (v[i]! - x[i]!) * x[i]!;
        for (let k = 0; k < v.length; k++) kkt = Math.max(kkt, (v[k]! - x[k]! - inner) / scale);
      }
    }
    expect(negative).toBe(0);
    expect(sumError).toBeLessThan(1e-12);
    expect(kkt).toBeLessThan(1e-12);
  });

  it('projects a point of the simplex onto itself and is idempotent', () => {
    const p = Float64Array.of(0.1, 0.2, 0.3, 0.4);
    projectSimplex(p).forEach((xi, i) => expect(xi).toBeCloseTo(p[i]!, 15));
    const x = projectSimplexNewton(Float64Array.of(3, -1, 0.5, 2));
    const xx = projectSimplex(x);
    for (let i = 0; i < 4; i++) expect(xx[i]).toBeCloseTo(x[i]!, 15);
  });

  it('projects every column of an m × n matrix, in place or not, by either method', () => {
    const r = createRng(8);
    const m = 6;
    const n = 50;
    const data = Float64Array.from({ length: m * n }, () => r.normal() * 3);
    const M = { rows: m, cols: n, data };
    const byNewton = projectColumnsToSimplex(M);
    const bySort = projectColumnsToSimplex(M, undefined, 'sort');
    const inPlace = { rows: m, cols: n, data: data.slice() };
    projectColumnsToSimplex(inPlace, inPlace);
    for (let j = 0; j < n; j++) {
      const col = Float64Array.from({ length: m }, (_, i) => data[i * n + j]!);
      const x = projectSimplexNewton(col);
      for (let i = 0; i < m; i++) {
        expect(byNewton.data[i * n + j]).toBe(x[i]);
        expect(inPlace.data[i * n + j]).toBe(x[i]);
        expect(Math.abs(bySort.data[i * n + j]! - x[i]!)).toBeLessThan(1e-12);
      }
    }
  });

  it('rejects empty input and mismatched shapes with clear messages', () => {
    expect(() => projectSimplex([])).toThrow(/projectSimplex: the vector is empty/);
    expect(() => projectSimplexNewton([1, 2], new Float64Array(3))).toThrow(/out has length 3/);
    const M = { rows: 2, cols: 3, data: new Float64Array(6) };
    expect(() =>
      projectColumnsToSimplex(M, { rows: 3, cols: 2, data: new Float64Array(6) }),
    ).toThrow(/out is 3x2, expected 2x3/);
  });
});
