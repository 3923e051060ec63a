/**
 * mkkm-ik on hand-checkable and synthetic cases: the imputation of one kernel worked by hand,
 * the operator path against the reference's dense arithmetic (same trace, weights and HHᵀ), a
 * toy recovered, the MKC option's kernel step at its first-order condition and its objective
 * never increasing, and the errors a user can meet.
 */
import { describe, expect, it } from 'vitest';
import { matmulTB, qr, symEigValues } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { MAX_DENSE_N, MAX_N, mkkmIk } from '../../../../src/core/solvers/mkkm-ik';
import { denseStore, imputeDense } from '../../../../src/core/solvers/mkkm-ik/dense';
import {
  kernelWeights,
  observedKernel,
  woodburyCore,
  type ObservedKernel,
} from '../../../../src/core/solvers/mkkm-ik/mkkm-ik';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { validateParams } from '../../../../src/core/solvers/params';
import type { SolverInput } from '../../../../src/core/solvers/types';
import { synthesize } from '../../../../src/core/synth';
import { dataset, denseView, drain } from '../../../helpers/toy';

const params = (p: Record<string, unknown> = {}) =>
  validateParams(mkkmIk.schema, p as Record<string, never>);
const inputOf = (ds: { n: number; views: SolverInput['views'] }): SolverInput => ({
  n: ds.n,
  views: ds.views,
  sampleIds: null,
});

/** D⁻¹·H·Hᵀ·D⁻¹ of a row-normalised H: the same for any basis of the subspace. */
const projector = (Hn: Mat): Float64Array => matmulTB(Hn, Hn).data;
/** An (n, k) matrix with orthonormal columns from a seeded Gaussian one. */
function orthonormalColumns(n: number, k: number, rng: ReturnType<typeof createRng>): Mat {
  const G: Mat = {
    rows: n,
    cols: k,
    data: Float64Array.from({ length: n * k }, () => rng.normal()),
  };
  return qr(G).Q;
}
const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

describe('mkkm-ik', () => {
  it('imputes one kernel as worked by hand (n = 3, k = 1, sample 2 missing)', () => {
    // K_cc = [[1, ρ], [ρ, 1]], H = (1, 1, 1)/√3: H_m·H_mᵀ = 1/3, so
    // (U_mm + α)⁻¹ = 1/(1 + α − 1/3) = μ, T = H_c·μ·H_m = (μ/3)·(1, 1)ᵀ,
    // K_cm = K_cc·T = (μ/3)(1 + ρ)·(1, 1)ᵀ and K_mm = Tᵀ·K_cc·T = (μ/3)²·2(1 + ρ).
    const rho = 0.25;
    const alpha = 1e-3;
    const view: ObservedKernel = {
      present: Int32Array.from([0, 1]),
      missing: Int32Array.from([2]),
      K: { rows: 2, cols: 2, data: Float64Array.from([1, rho, rho, 1]) },
    };
    const store = denseStore([view], 3);
    const H: Mat = { rows: 3, cols: 1, data: new Float64Array(3).fill(1 / Math.sqrt(3)) };
    imputeDense(store, 0, H, alpha);
    const mu = 1 / (1 + alpha - 1 / 3);
    const kcm = (mu / 3) * (1 + rho);
    const kmm = (mu / 3) ** 2 * 2 * (1 + rho);
    const e = 1e-12;
    const want = [1 + e, rho, kcm, rho, 1 + e, kcm, kcm, kcm, kmm + e];
    expect(maxAbs(store.K[0]!.data, want)).toBeLessThan(1e-15);
    // The k × k Woodbury core is that same μ.
    expect(woodburyCore(Float64Array.from([1 / 3]), 1, alpha)[0]).toBeCloseTo(mu, 14);
  });

  it('weights: γ_p ∝ 1/a_p for q = 2, a^(−1/(q−1)) in general, a_p ≤ 0 guarded', () => {
    const g = kernelWeights(Float64Array.from([1, 2, 4]), 2);
    expect(maxAbs(g, [4 / 7, 2 / 7, 1 / 7])).toBeLessThan(1e-15);
    const g3 = kernelWeights(Float64Array.from([1, 4]), 3);
    expect(maxAbs(g3, [2 / 3, 1 / 3])).toBeLessThan(1e-15);
    // a_p ≤ 0 (the reference's Inf/NaN): those views share the weight, the limit a_p → 0⁺.
    expect([...kernelWeights(Float64Array.from([0, 2, -1e-17]), 2)]).toEqual([0.5, 0, 0.5]);
  });

  it('the operator path gives the dense path’s trace, weights and HHᵀ (synthetic, 3 views)', () => {
    const ds = synthesize({ n: 150, k: 4, dims: [12, 9, 7], completeFraction: 0.4, seed: 5 });
    const op = drain(mkkmIk.run(inputOf(ds), params({ iterations: 8 }), 4, createRng(0))).output;
    const dn = drain(
      mkkmIk.run(inputOf(ds), params({ iterations: 8, path: 'dense' }), 4, createRng(0)),
    ).output;
    expect(op.iterations).toBe(dn.iterations);
    for (let t = 0; t < op.objective.length; t++) {
      expect(Math.abs(op.objective[t]! - dn.objective[t]!) / dn.objective[t]!).toBeLessThan(1e-11);
    }
    const g = op.diagnostics!['gamma'] as number[];
    expect(maxAbs(g, dn.diagnostics!['gamma'] as number[])).toBeLessThan(1e-11);
    expect(maxAbs(projector(op.embedding), projector(dn.embedding))).toBeLessThan(1e-9);
    // H has unit rows and the weights sum to 1.
    for (let i = 0; i < ds.n; i++) {
      let s = 0;
      for (let j = 0; j < 4; j++) s += op.embedding.data[i * 4 + j]! ** 2;
      expect(Math.abs(s - 1)).toBeLessThan(1e-12);
    }
    expect(Math.abs(g.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-15);
  });

  it('recovers well separated clusters seen through incomplete views', () => {
    const ds = synthesize({
      n: 120,
      k: 3,
      dims: [10, 8, 6],
      completeFraction: 0.5,
      separation: 6,
      seed: 9,
    });
    const r = drain(evaluate(ds, mkkmIk, {}, 3, { protocol: 'single', seed: 1 })).output;
    expect(r.metrics['ACC']!.mean).toBeGreaterThanOrEqual(0.95);
    expect(r.notes.join(' ')).toMatch(/kernel weights γ = /);
  });

  it('mkc: as λ → 0 it is MKKM-IK (the same trace and weights as the dense path)', () => {
    const ds = synthesize({ n: 80, k: 3, dims: [8, 6, 5], completeFraction: 0.5, seed: 3 });
    const run = (p: Record<string, unknown>) =>
      drain(mkkmIk.run(inputOf(ds), params({ iterations: 6, ...p }), 3, createRng(0))).output;
    const mkc = run({ mkc: true, lambda: 1e-14 });
    const dense = run({ path: 'dense' });
    expect(mkc.iterations).toBe(dense.iterations);
    for (let t = 0; t < mkc.objective.length; t++) {
      expect(Math.abs(mkc.objective[t]! - dense.objective[t]!) / dense.objective[t]!).toBeLessThan(
        1e-10,
      );
    }
    expect(
      maxAbs(mkc.diagnostics!['gamma'] as number[], dense.diagnostics!['gamma'] as number[]),
    ).toBeLessThan(1e-10);
  });

  it('mkc: the imputed kernels keep their observed block and stay positive semidefinite', () => {
    const ds = synthesize({ n: 60, k: 3, dims: [5, 4, 6], completeFraction: 0.5, seed: 2 });
    const input = incompleteInput(inputOf(ds));
    const views = input.views.map((v) => observedKernel(v, ds.n));
    const store = denseStore(views, ds.n);
    const rng = createRng(4);
    const H = orthonormalColumns(ds.n, 3, rng);
    const previous = store.K.map((K) => ({ ...K, data: K.data.slice() }));
    views.forEach((_, p) => {
      const weights = [0.5, 0.3, 0.2].map((g, q) => (q === p ? 0 : -0.01 * g));
      imputeDense(store, p, H, 1e-3, { weights, matrices: previous });
    });
    store.K.forEach((K, p) => {
      const v = views[p]!;
      const m = v.present.length;
      for (let r = 0; r < m; r++) {
        for (let s2 = 0; s2 < m; s2++) {
          const got = K.data[v.present[r]! * ds.n + v.present[s2]!]! - (r === s2 ? 1e-12 : 0);
          expect(Math.abs(got - v.K.data[r * m + s2]!)).toBeLessThan(1e-15);
        }
      }
      expect(symEigValues(K)[0]!).toBeGreaterThan(-1e-10);
    });
  });

  it('mkc: the weights stay on the simplex and the note says there is no reference', () => {
    const ds = synthesize({ n: 80, k: 3, dims: [8, 6, 5], completeFraction: 0.5, seed: 3 });
    const out = drain(
      mkkmIk.run(inputOf(ds), params({ mkc: true, iterations: 10 }), 3, createRng(0)),
    ).output;
    const g = out.diagnostics!['gamma'] as number[];
    expect(Math.min(...g)).toBeGreaterThanOrEqual(0);
    expect(Math.abs(g.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
    expect(out.notes.join(' ')).toMatch(/mkc: .*no public reference code/);
  });

  describe('errors', () => {
    const run = (input: SolverInput, p: Record<string, unknown> = {}, k = 2) =>
      drain(mkkmIk.run(input, params(p), k, createRng(0)));
    /** Three samples in two dimensions, all present. */
    const viewA = () =>
      denseView(
        'a',
        [0, 1, 2],
        [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
      );

    it('names a view with fewer than 2 present samples', () => {
      const ds = dataset(3, [viewA(), denseView('b', [1], [[2, 3]])]);
      expect(() => run(inputOf(ds))).toThrow(/view 'b' \(view 2\) has 1 present sample/);
    });

    it('names a view whose sample equals its mean after centring', () => {
      const ds = dataset(3, [
        viewA(),
        denseView(
          'b',
          [0, 2],
          [
            [1, 2],
            [2, 4],
          ],
        ),
      ]);
      expect(() => run(inputOf(ds))).toThrow(/view 'b' \(view 2\).*cannot be normalised/);
    });

    it('refuses n beyond the limits, naming the limit and the memory', () => {
      const big = (n: number): SolverInput => ({
        n,
        views: [viewA()],
        sampleIds: null,
      });
      expect(() => run(big(MAX_N + 1))).toThrow(
        new RegExp(`n = ${MAX_N + 1} samples is above the limit of ${MAX_N} .* GiB`),
      );
      expect(() => run(big(MAX_DENSE_N + 1), { path: 'dense' })).toThrow(
        new RegExp(`above the limit of ${MAX_DENSE_N} for path 'dense'`),
      );
    });

    it('refuses mkc with qnorm ≠ 2 and k above n', () => {
      const ds = dataset(3, [viewA()]);
      expect(() => run(inputOf(ds), { mkc: true, qnorm: 3 })).toThrow(/mkc needs qnorm = 2/);
      expect(() => run(inputOf(ds), {}, 4)).toThrow(/k = 4 clusters exceeds n = 3/);
    });
  });
});
