/**
 * The first iteration's threshold from the kernel's eigenpairs (`kernelInverse().firstThreshold`)
 * against the SVD of the A the solver forms, (K + 3μI)⁻¹·K by `apply`: the same kept rank, the
 * same squared singular values and the same SVT(A, τ) to rounding, on the full and the thin
 * (Woodbury) route; and the cases it must leave to the SVD (a badly conditioned K + 3μI, a
 * singular value at τ, the cached route).
 */
import { describe, expect, it } from 'vitest';
import { linearKernel } from '../../../../src/core/kernels/gram';
import {
  gaussianFromDistances,
  optSigma,
  referenceSquaredDistances,
} from '../../../../src/core/kernels/reference';
import type { Mat } from '../../../../src/core/linalg/types';
import { svtInto } from '../../../../src/core/solvers/mlrssc/dense';
import { kernelInverse } from '../../../../src/core/solvers/mlrssc/inverse';
import { createRng } from '../../../../src/core/random';

const square = (n: number): Mat => ({ rows: n, cols: n, data: new Float64Array(n * n) });

function features(n: number, d: number, seed: number, scale = 1): Mat {
  const rng = createRng(seed);
  return { rows: n, cols: d, data: Float64Array.from({ length: n * d }, () => scale * rng.next()) };
}

function gaussian(X: Mat): Mat {
  const D = referenceSquaredDistances(X);
  return gaussianFromDistances(D, optSigma(D));
}

const maxAbsDiff = (a: Float64Array, b: Float64Array): number =>
  a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

/** The closed form and the SVD of the formed A, side by side. */
function both(K: Mat, factor: Mat | null, mu: number, tau: number) {
  const n = K.rows;
  const inv = kernelInverse([K], [factor], () => false);
  const plan = inv.firstThreshold(0, mu, tau);
  const A = square(n);
  inv.apply(0, mu, K, A);
  const svd = square(n);
  const s = new Float64Array(n);
  const rank = svtInto(A, tau, svd, s);
  return { plan, svd, s, rank };
}

describe('MLRSSC first threshold from the kernel eigenpairs', () => {
  it.each([
    ['full route, Gaussian kernel', 60, 5, false],
    ['thin route, linear kernel of 8 features', 60, 8, true],
  ] as const)('%s: the SVD of the formed A to rounding', (_, n, d, thin) => {
    const X = features(n, d, 3);
    const K = thin ? linearKernel(X) : gaussian(X);
    const mu = thin ? 20 : 2;
    // τ between two singular values, so that some are kept and some not.
    const probe = both(K, thin ? X : null, mu, 0);
    const mid = Math.floor(thin ? d / 2 : n / 4);
    const tau = (probe.s[mid - 1]! + probe.s[mid]!) / 2;
    const { plan, svd, s, rank } = both(K, thin ? X : null, mu, tau);
    expect(plan).not.toBeNull();
    const out = square(n);
    const sq = new Float64Array(n);
    expect(plan!(out, sq)).toBe(rank);
    expect(rank).toBe(mid);
    const sv = Array.from(sq, Math.sqrt).sort((a, b) => b - a);
    sv.forEach((x, i) => expect(Math.abs(x - s[i]!)).toBeLessThan(1e-13));
    expect(maxAbsDiff(out.data, svd.data)).toBeLessThan(1e-13);
    // Not a trivial result: C1 is not zero and not A.
    expect(maxAbsDiff(out.data, new Float64Array(n * n))).toBeGreaterThan(1e-3);
  });

  it('leaves a badly conditioned K + 3μI to the SVD (features nine orders of magnitude apart)', () => {
    const X = features(40, 6, 5, 1e5);
    const K = linearKernel(X); // λ_max ≈ 1e11, 3μ = 3: κ ≈ 1e11
    expect(kernelInverse([K], [null], () => false).firstThreshold(0, 1, 1e-3)).toBeNull();
    const Xs = features(40, 6, 5, 1);
    const Ks = linearKernel(Xs); // κ ≈ 40
    expect(kernelInverse([Ks], [null], () => false).firstThreshold(0, 1, 1e-3)).not.toBeNull();
  });

  it('leaves a singular value at τ to the SVD, and the cached route (μ final) too', () => {
    const K = gaussian(features(30, 4, 7));
    const mu = 2;
    const probe = both(K, null, mu, 0);
    const inv = kernelInverse([K], [null], () => false);
    expect(inv.firstThreshold(0, mu, probe.s[5]!)).toBeNull();
    expect(inv.firstThreshold(0, mu, probe.s[5]! * (1 + 1e-6))).not.toBeNull();
    const cached = kernelInverse([K], [null], () => true);
    expect(cached.firstThreshold(0, mu, probe.s[5]! * (1 + 1e-6))).toBeNull();
  });
});
