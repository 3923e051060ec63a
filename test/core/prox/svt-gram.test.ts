/**
 * The Gram route of singular-value thresholding (prox/svt-gram.ts) against matrices built with
 * known singular values, B = U·diag(σ)·Vᵀ (U, V the Q factors of random matrices), whose prox is
 * U·diag(max(σ − τ, 0))·Vᵀ by construction: whenever the route answers, its result is within
 * the bound it promises (100 times the SVD's n·ε·σ_max) of the exact prox, whether the a-priori
 * test or the full-rank form's check accepted it, and it declines
 * (−1) where the Gram matrix cannot carry the spectrum: the kept set in doubt, or the full-rank
 * form's after-the-fact check failing.
 */
import { describe, expect, it } from 'vitest';
import { matmulTB, qr } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { gramVerdict, svtGramInto, svtGramWork } from '../../../src/core/prox/svt-gram';
import { createRng } from '../../../src/core/random';

function orthogonal(n: number, seed: number): Mat {
  const rng = createRng(seed);
  return qr({
    rows: n,
    cols: n,
    data: Float64Array.from({ length: n * n }, () => rng.next() - 0.5),
  }).Q;
}

/** U·diag(d)·Vᵀ. */
function compose(U: Mat, d: readonly number[], V: Mat): Mat {
  const n = U.rows;
  const Ud: Mat = { rows: n, cols: n, data: U.data.slice() };
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Ud.data[i * n + j]! *= d[j]!;
  return matmulTB(Ud, V);
}

/** σ_j = σ_max·κ^(−j/(n−1)), j = 0 … n−1. */
const graded = (n: number, smax: number, kappa: number): number[] =>
  Array.from({ length: n }, (_, j) => smax * kappa ** (-j / (n - 1)));

function run(n: number, s: number[], tau: number, seed: number) {
  const U = orthogonal(n, seed);
  const V = orthogonal(n, seed + 1);
  const B = compose(U, s, V);
  const exact = compose(
    U,
    s.map((x) => Math.max(x - tau, 0)),
    V,
  );
  const out: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  const rank = svtGramInto(B, tau, out, svtGramWork(n));
  let err = 0;
  for (let i = 0; i < n * n; i++) err = Math.max(err, Math.abs(out.data[i]! - exact.data[i]!));
  return { rank, err, bound: 100 * n * Number.EPSILON * s[0]! };
}

describe('prox/svt-gram', () => {
  it('full rank, κ = 1e4, τ far below σ_min (MLRSSC once μ is final): B − τ·polar(B)', () => {
    const n = 120;
    const s = graded(n, 5, 1e4);
    const r = run(n, s, 3e-7, 1);
    expect(r.rank).toBe(n);
    expect(r.err).toBeLessThanOrEqual(r.bound);
  });

  it('full rank, κ = 1e2, τ = σ_min / 2: the same form, near the SVD accuracy', () => {
    const n = 80;
    const s = graded(n, 2, 1e2);
    const r = run(n, s, s[n - 1]! / 2, 2);
    expect(r.rank).toBe(n);
    expect(r.err).toBeLessThanOrEqual(r.bound);
  });

  it('full rank where the a-priori test declines (σ_min² < τ·σ_max/200): the check accepts', () => {
    const n = 120;
    const s = graded(n, 5, 1e4);
    const tau = 1e-4; // σ_min = 5e-4 > τ, σ_min² = 2.5e-7 < τ·σ_max/200 = 2.5e-6
    expect(s[n - 1]! ** 2).toBeLessThan((tau * s[0]!) / 200);
    const r = run(n, s, tau, 6);
    expect(r.rank).toBe(n);
    expect(r.err).toBeLessThanOrEqual(r.bound);
  });

  it('rank-deficient: half the spectrum below τ, shrunk and the rest dropped', () => {
    const n = 90;
    const s = graded(n, 1, 1e2);
    const tau = s[45]! * 0.999 + s[44]! * 0.001; // between σ_45 and σ_44: 45 kept
    const r = run(n, s, tau, 3);
    expect(r.rank).toBe(45);
    expect(r.err).toBeLessThanOrEqual(r.bound);
  });

  it('declines where BᵀB cannot carry the spectrum', () => {
    const n = 100;
    // κ = 1e9: σ_min² is below the Gram matrix's rounding, the kept set is in doubt.
    expect(run(n, graded(n, 1, 1e9), 1e-12, 4).rank).toBe(-1);
    // κ = 2e5 and τ = σ_min / 2: the kept set is clear, but the polar factor's error times τ
    // exceeds the bound, so the after-the-fact check sends it to the SVD.
    const s = graded(n, 1, 2e5);
    const r = run(n, s, s[n - 1]! / 2, 5);
    expect(r.rank).toBe(-1);
  });

  it('gramVerdict: the rank to expect, −1 where the route would decline a priori', () => {
    const sq = (s: number[]) => s.map((x) => x * x);
    expect(gramVerdict(sq([3, 2, 1]), 0.5, 3)).toBe(3);
    expect(gramVerdict(sq([3, 2, 1]), 1.5, 3)).toBe(2);
    expect(gramVerdict(sq([0, 0, 0]), 1, 3)).toBe(0);
    // The smallest kept σ too small for the rank-deficient form's a-priori test.
    expect(gramVerdict(sq([1, 1e-4, 1e-9]), 5e-5, 3)).toBe(-1);
    expect(gramVerdict(sq([1, 1e-4, 1e-9]), 1e-6, 3)).toBe(2);
    // σ² on τ² to rounding: in doubt.
    expect(gramVerdict(sq([1, 0.5, 0.25]), 0.25, 3)).toBe(-1);
  });
});
