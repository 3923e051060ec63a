/**
 * Kernel matrices of the rows of dense views. X: (n, d) and, for a cross kernel, Y: (m, d);
 * K: (n, m), or (n, n) exactly symmetric when Y is omitted.
 *
 *   linear       K = X·Yᵀ
 *   polynomial   K_ij = (γ·x_i·y_j + c)^p                    (γ = scale, c = offset, p = degree)
 *   Gaussian     K_ij = exp(−D_ij / h),  D = squared distances (distances.ts), h = 2σ² or a
 *                divisor chosen by one of the bandwidth rules (bandwidth.ts)
 *
 * Views are dense here: a CSR view is densified by the caller (views/present.ts `denseRows`),
 * since every kernel of n samples is itself a dense n × n matrix. Each costs O(n·m·d) through
 * GEMM and holds the (n, m) result; `sparseGram` forms X·Xᵀ of a mostly zero X (text views) in
 * far fewer operations, for the callers that ask for it.
 */
import { matmulTB, syrk, transposeInto } from '../linalg/kernels';
import { csrFromDense, transposeCsr } from '../linalg/sparse';
import type { Mat } from '../linalg/types';
import { resolveBandwidth, type Bandwidth } from './bandwidth';
import { squaredDistances } from './distances';

export type KernelSpec =
  | { readonly type: 'linear' }
  | {
      readonly type: 'polynomial';
      readonly degree: number;
      readonly scale?: number;
      readonly offset?: number;
    }
  | { readonly type: 'gaussian'; readonly bandwidth: Bandwidth };

/** A kernel matrix and, for the Gaussian kernel, the bandwidth it used. */
export interface KernelResult {
  readonly K: Mat;
  readonly sigma?: number;
  readonly h?: number;
}

/** The Gaussian kernel and its resolved bandwidth (K = exp(−D / h), h = 2σ²). */
export interface GaussianResult extends KernelResult {
  readonly sigma: number;
  readonly h: number;
}

/**
 * Fraction of non-zero entries at or below which X·Xᵀ is formed by the sparse product
 * (`sparseGram`): its ≈ d·(ρn)² multiply-adds in plain loops then cost less than the n²·d of
 * the SYRK (text views are a few per cent non-zero).
 */
const SPARSE_GRAM_DENSITY = 0.1;

/**
 * X·Xᵀ (n, n) for a mostly zero X, or null when more than SPARSE_GRAM_DENSITY of X is non-zero:
 * X's non-zeros gathered by column, then for every column k each pair i ≤ j of its rows adds
 * x_ik·x_jk to entry (i, j), k ascending; the upper triangle mirrored. The same sums as the dense
 * product up to their order (the SYRK blocks its inner dimension), so the two agree to rounding.
 */
export function sparseGram(X: Mat): Mat | null {
  const { rows: n, cols: d, data: x } = X;
  let nnz = 0;
  for (let i = 0; i < n * d; i++) if (x[i] !== 0) nnz++;
  if (nnz > SPARSE_GRAM_DENSITY * n * d) return null;
  // Xᵀ as CSR: the column lists of X, rows ascending within each.
  const { indptr: start, indices: row, data: val } = transposeCsr(csrFromDense(X));
  const g = new Float64Array(n * n);
  for (let k = 0; k < d; k++) {
    const end = start[k + 1]!;
    for (let a = start[k]!; a < end; a++) {
      const o = row[a]! * n;
      const xa = val[a]!;
      for (let b = a; b < end; b++) g[o + row[b]!]! += xa * val[b]!;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) g[i * n + j] = g[j * n + i]!;
  return { rows: n, cols: n, data: g };
}

/** X·Yᵀ (n, m), or X·Xᵀ (n, n) exactly symmetric (one triangle computed, then mirrored). */
export function linearKernel(X: Mat, Y?: Mat): Mat {
  if (!Y) return syrk(transposeInto(X));
  if (Y.cols !== X.cols) {
    throw new RangeError(`linearKernel: X has ${X.cols} columns, Y has ${Y.cols}`);
  }
  return matmulTB(X, Y);
}

/** (γ·X·Yᵀ + c)^p elementwise; p a positive integer, γ defaults to 1 and c to 1. */
export function polynomialKernel(
  X: Mat,
  Y: Mat | undefined,
  degree: number,
  scale = 1,
  offset = 1,
): Mat {
  if (!Number.isInteger(degree) || degree < 1) {
    throw new RangeError(`polynomialKernel: degree = ${degree} must be a positive integer`);
  }
  const K = linearKernel(X, Y);
  const k = K.data;
  for (let i = 0; i < k.length; i++) k[i] = (scale * k[i]! + offset) ** degree;
  return K;
}

/**
 * exp(−D / h) with D the squared distances between the rows of X and Y (or among X's rows,
 * symmetric with a zero diagonal, so K_ii = 1) and h from `bandwidth`, resolved over that D.
 */
export function gaussianKernel(X: Mat, Y: Mat | undefined, bandwidth: Bandwidth): GaussianResult {
  const D = squaredDistances(X, Y);
  const { sigma, h } = resolveBandwidth(D, bandwidth);
  const k = D.data;
  for (let i = 0; i < k.length; i++) k[i] = Math.exp(-k[i]! / h);
  return { K: D, sigma, h };
}

/** The kernel `spec` names, of X's rows against Y's (or among X's rows). */
export function kernelMatrix(X: Mat, spec: KernelSpec, Y?: Mat): KernelResult {
  switch (spec.type) {
    case 'linear':
      return { K: linearKernel(X, Y) };
    case 'polynomial':
      return { K: polynomialKernel(X, Y, spec.degree, spec.scale, spec.offset) };
    case 'gaussian':
      return gaussianKernel(X, Y, spec.bandwidth);
  }
}
