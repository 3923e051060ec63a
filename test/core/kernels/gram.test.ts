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
} from '../../../src/core/kernels/gram';
import type { Mat } from '../../../src/core/linalg/types';
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
});
