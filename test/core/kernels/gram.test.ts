/**
 * Linear, polynomial and Gaussian kernels against numpy (test/fixtures/kernels/make.py), to
 * 1e-13 relative to the largest entry (GEMM sums in another order than numpy's BLAS); the
 * self kernels are exactly symmetric and the Gaussian one has a unit diagonal.
 */
import { describe, expect, it } from 'vitest';
import type { Bandwidth } from '../../../src/core/kernels/bandwidth';
import {
  gaussianKernel,
  kernelMatrix,
  linearKernel,
  polynomialKernel,
  sparseGram,
} from '../../../src/core/kernels/gram';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';

interface Ref {
  X: JsonMat;
  Y: JsonMat;
  linear: { xx: JsonMat; xy: JsonMat };
  polynomial: { degree: number; scale: number; offset: number; xx: JsonMat; xy: JsonMat };
  gaussian: { name: string; bandwidth: Bandwidth; cross: boolean; sigma: number; K: JsonMat }[];
}
const ref = readFixture<Ref>('kernels', 'kernels.json');
const X = jsonMat(ref.X);
const Y = jsonMat(ref.Y);

function expectSymmetric(K: Mat): void {
  for (let i = 0; i < K.rows; i++)
    for (let j = 0; j < i; j++) expect(K.data[i * K.cols + j]).toBe(K.data[j * K.cols + i]);
}

describe('kernels/gram', () => {
  it('linear kernel as numpy, exactly symmetric among X', () => {
    const K = linearKernel(X);
    expect(relDiff(K, jsonMat(ref.linear.xx))).toBeLessThanOrEqual(1e-13);
    expectSymmetric(K);
    expect(relDiff(linearKernel(X, Y), jsonMat(ref.linear.xy))).toBeLessThanOrEqual(1e-13);
  });

  it('polynomial kernel as numpy', () => {
    const { degree, scale, offset } = ref.polynomial;
    const K = polynomialKernel(X, undefined, degree, scale, offset);
    expect(relDiff(K, jsonMat(ref.polynomial.xx))).toBeLessThanOrEqual(1e-13);
    expectSymmetric(K);
    const spec = { type: 'polynomial', degree, scale, offset } as const;
    expect(relDiff(kernelMatrix(X, spec, Y).K, jsonMat(ref.polynomial.xy))).toBeLessThanOrEqual(
      1e-13,
    );
    expect(() => polynomialKernel(X, undefined, 1.5)).toThrow(/degree = 1.5/);
  });

  it.each(ref.gaussian.map((c) => [c.name, c] as const))('Gaussian kernel, %s rule', (_, c) => {
    const { K, sigma } = gaussianKernel(X, c.cross ? Y : undefined, c.bandwidth);
    expect(relDiff(K, jsonMat(c.K))).toBeLessThanOrEqual(1e-13);
    expect(Math.abs(sigma - c.sigma)).toBeLessThanOrEqual(1e-14 * c.sigma);
    if (!c.cross) {
      expectSymmetric(K);
      for (let i = 0; i < K.rows; i++) expect(K.data[i * K.cols + i]).toBe(1);
    }
  });

  it('kernelMatrix dispatches on the spec', () => {
    expect(kernelMatrix(X, { type: 'linear' }).K.data).toEqual(linearKernel(X).data);
    const g = kernelMatrix(X, { type: 'gaussian', bandwidth: { rule: 'fixed', sigma: 1.3 } });
    expect(g.h).toBe(2 * 1.3 * 1.3);
  });

  it('sparseGram: a hand toy exactly, a 5 %-dense X as the dense product, null past 10 %', () => {
    // Four non-zeros of 4 × 12: x_0 = e_0 + 2e_5, x_1 = 3e_5, x_2 = 0, x_3 = 4e_0.
    const t = new Float64Array(48);
    t[0] = 1;
    t[5] = 2;
    t[12 + 5] = 3;
    t[36] = 4;
    const toy: Mat = { rows: 4, cols: 12, data: t };
    expect(Array.from(sparseGram(toy)!.data)).toEqual([
      5, 6, 0, 4, 6, 9, 0, 0, 0, 0, 0, 0, 4, 0, 0, 16,
    ]);
    const rng = createRng(4);
    const n = 60;
    const d = 400;
    const data = new Float64Array(n * d);
    for (let i = 0; i < n * d; i++) if (rng.next() < 0.05) data[i] = rng.next() * 3 - 1;
    const S: Mat = { rows: n, cols: d, data };
    const G = sparseGram(S)!;
    expect(G).not.toBeNull();
    expect(relDiff(G, linearKernel(S))).toBeLessThanOrEqual(1e-14);
    expectSymmetric(G);
    expect(sparseGram(X)).toBeNull(); // the dense fixture
    const dense = Float64Array.from(data, (x, i) => (x === 0 && i % 9 === 0 ? 1 : x));
    expect(sparseGram({ rows: n, cols: d, data: dense })).toBeNull(); // ≈ 16 % non-zero
  });
});
