/**
 * The kernels of the MLRSSC reference code (`construct_kernel.m`, `opt_sigma.m`), by the same
 * arithmetic: squared distances by the expansion ‖x‖² + ‖y‖² − 2x·y, symmetrised by an
 * elementwise max with the transpose, diagonal zeroed, absolute value (the Gram matrix x·y by
 * the sparse product when the view is mostly zeros: the same sums in another order); the Gaussian
 * exp(−D / (2σ²)) symmetrised by max again. opt_sigma is the median of all n² Euclidean
 * distances (the zero diagonal included; a negative rounding gives 0).
 */
import { linearKernel, sparseGram } from './gram';
import { medianInPlace } from '../linalg/median';
import type { Mat } from '../linalg/types';

/** (n, n) squared distances of the rows of X, as construct_kernel.m forms them. */
export function referenceSquaredDistances(X: Mat): Mat {
  const n = X.rows;
  const G = sparseGram(X) ?? linearKernel(X);
  const D = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      D[i * n + j] = G.data[i * n + i]! + G.data[j * n + j]! - 2 * G.data[i * n + j]!;
    }
  for (let i = 0; i < n; i++) {
    D[i * n + i] = 0;
    for (let j = 0; j < i; j++) {
      const m = Math.abs(Math.max(D[i * n + j]!, D[j * n + i]!));
      D[i * n + j] = m;
      D[j * n + i] = m;
    }
  }
  return { rows: n, cols: n, data: D };
}

/** opt_sigma.m: the median of the n² Euclidean distances (√ of max(D, 0)). */
export function optSigma(D: Mat): number {
  const d = D.data;
  const r = new Float64Array(d.length);
  for (let i = 0; i < d.length; i++) r[i] = Math.sqrt(Math.max(d[i]!, 0));
  return medianInPlace(r);
}

/** exp(−D / (2σ²)) (n, n), symmetric. */
export function gaussianFromDistances(D: Mat, sigma: number): Mat {
  const h = 2 * sigma * sigma;
  const d = D.data;
  const k = new Float64Array(d.length);
  for (let i = 0; i < d.length; i++) k[i] = Math.exp(-d[i]! / h);
  return { rows: D.rows, cols: D.cols, data: k };
}
