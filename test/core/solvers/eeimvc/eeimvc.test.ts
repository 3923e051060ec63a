/**
 * eeimvc on hand-checkable toys and identities: the start's eigenvectors (block eigensolver on
 * the kernel operators) against the dense route it replaces (explicit kernels, full `symEig`,
 * the same sign rule of linalg/signs.ts); one complete view worked by hand; the iteration's
 * invariants (H* orthonormal, the weights of unit q-norm, the objective non-decreasing); the
 * stopping rule (at least 3 iterations, at most the cap); parameter and input errors.
 */
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../../../src/core/dataset';
import { normaliseRows } from '../../../../src/core/graph/spectral';
import { factorMatrix } from '../../../../src/core/kernels/factor';
import { linearKernel } from '../../../../src/core/kernels/gram';
import { expandKernel } from '../../../../src/core/kernels/incomplete';
import { matmulTA, symEig } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { createRng } from '../../../../src/core/random';
import {
  eeimvc,
  eeimvcFactors,
  eeimvcIterate,
  eeimvcStart,
  fixColumnSigns,
} from '../../../../src/core/solvers/eeimvc';
import { ParamError, SolverInputError, validateParams } from '../../../../src/core/solvers/params';
import { synthesize } from '../../../../src/core/synth';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { blobs, dataset, denseView, drain, pick, without } from '../../../helpers/toy';

const DEFAULTS = { lambda: 1, qnorm: 2, iterations: 101, tol: 1e-4 };

/** The top-k eigenvectors of a dense symmetric K by the full `symEig`, descending, signed. */
function denseTop(K: Mat, k: number): Mat {
  const n = K.rows;
  const { vectors } = symEig(K);
  const out = new Float64Array(n * k);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < k; j++) out[i * k + j] = vectors.data[i * n + n - 1 - j]!;
  const M = { rows: n, cols: k, data: out };
  fixColumnSigns(M);
  return M;
}

const maxAbsDiff = (a: Mat, b: Mat): number =>
  a.data.reduce((m, x, i) => Math.max(m, Math.abs(x - b.data[i]!)), 0);

/** Three blobs seen by two noisy views with a third of each view missing (disjoint). */
function blobViews(): { ds: MultiViewDataset } {
  const { points, truth } = blobs(30, 3);
  const rng = createRng(4);
  const noisy = (w: number): number[][] =>
    points.map(([x, y]) => [x!, y!, ...Array.from({ length: w }, () => rng.next() - 0.5)]);
  const n = points.length;
  const miss1 = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 0);
  const miss2 = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 1);
  const p1 = without(n, miss1);
  const p2 = without(n, miss2);
  const ds = dataset(
    n,
    [denseView('a', p1, pick(noisy(2), p1)), denseView('b', p2, pick(noisy(4), p2))],
    truth,
  );
  return { ds };
}

describe('eeimvc', () => {
  it('starts from the eigenvectors the dense route gives (explicit kernels, full symEig)', () => {
    const ds = synthesize({ n: 420, k: 4, dims: [12, 30, 8], completeFraction: 0.5, seed: 3 });
    const k = 4;
    const input = incompleteInput(ds);
    const factors = eeimvcFactors(input.views);
    const start = eeimvcStart(ds.n, input.views, factors, k, 2);
    const KC: Mat = { rows: ds.n, cols: ds.n, data: new Float64Array(ds.n * ds.n) };
    factors.forEach((f, p) => {
      expect(f.rows).toBeGreaterThan(200); // the iterative path of the block eigensolver
      const Y = factorMatrix(f);
      const K = linearKernel(Y);
      expect(maxAbsDiff(start.base[p]!, denseTop(K, k))).toBeLessThan(1e-9);
      const E = expandKernel(K, input.views[p]!.present, ds.n);
      for (let i = 0; i < E.data.length; i++) KC.data[i]! += start.beta[p]! * E.data[i]!;
    });
    expect(maxAbsDiff(start.H0, denseTop(KC, k))).toBeLessThan(1e-9);
    expect(Array.from(start.beta)).toEqual([3 ** -0.5, 3 ** -0.5, 3 ** -0.5]);
  });

  it('keeps H* orthonormal and β of unit q-norm; the objective never decreases', () => {
    const { ds } = blobViews();
    for (const qnorm of [2, 3]) {
      const input = incompleteInput(ds);
      const start = eeimvcStart(ds.n, input.views, eeimvcFactors(input.views), 3, qnorm);
      const { output } = drain(eeimvcIterate(start, ds.n, 3, { ...DEFAULTS, qnorm }));
      const G = matmulTA(output.Hstar, output.Hstar);
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          expect(Math.abs(G.data[a * 3 + b]! - (a === b ? 1 : 0))).toBeLessThan(1e-12);
        }
      }
      const norm = output.beta.reduce((s, b) => s + b ** qnorm, 0) ** (1 / qnorm);
      expect(norm).toBeCloseTo(1, 12);
      const obj = output.objective;
      for (let t = 1; t < obj.length; t++)
        expect(obj[t]).toBeGreaterThanOrEqual(obj[t - 1]! - 1e-12);
    }
  });

  it('stops at the cap of iterations at most, and never before 3', () => {
    const { ds } = blobViews();
    const capped = drain(eeimvc.run(ds, { ...DEFAULTS, iterations: 5, tol: 0 }, 3, createRng(0)));
    expect(capped.output.iterations).toBe(5);
    expect(capped.output.converged).toBe(false);
    const loose = drain(eeimvc.run(ds, { ...DEFAULTS, tol: 1 }, 3, createRng(0)));
    expect(loose.output.iterations).toBe(3);
    expect(loose.output.converged).toBe(true);
    expect(eeimvc.iterationCap(validateParams(eeimvc.schema, { iterations: 5 }) as never)).toBe(5);
  });

  it('one complete view, by hand: H* = H0 = H_1, W = I, β = 1, obj = k·(1 + λ) three times', () => {
    // With one complete view H0 (top-k of β·K_1) is H_1 with the same signs, so
    // R = (β + λ)·H_1, H* = polar(R) = H_1, W = polar(H_1ᵀ·H_1) = I, t = tr(H_1ᵀ·H_1) = k,
    // β = t / |t| = 1 and obj = tr(H_1ᵀ·(H_1 + λ·H_1)) = k·(1 + λ): constant, so the rule
    // stops at the third iteration.
    const { points } = blobs(10, 5);
    const rng = createRng(6);
    const rows = points.map(([x, y]) => [x!, y!, rng.next(), rng.next()]);
    const n = rows.length;
    const ds = dataset(n, [denseView('only', without(n, []), rows)]);
    const lambda = 0.5;
    const { output } = drain(eeimvc.run(ds, { ...DEFAULTS, lambda }, 3, createRng(0)));
    expect(output.iterations).toBe(3);
    for (const o of output.objective) expect(o).toBeCloseTo(3 * (1 + lambda), 12);
    expect(output.diagnostics!['beta']).toEqual([1]);
    const input = incompleteInput(ds);
    const start = eeimvcStart(n, input.views, eeimvcFactors(input.views), 3, 2);
    expect(maxAbsDiff(start.H0, start.base[0]!)).toBeLessThan(1e-10);
    const H1 = normaliseRows(start.base[0]!);
    expect(maxAbsDiff(output.embedding, H1)).toBeLessThan(1e-10);
    expect(output.notes[0]).toContain('missing per view: 0 of 30');
  });

  it('refuses bad parameters and inputs, naming them', () => {
    expect(() => validateParams(eeimvc.schema, { qnorm: 1 })).toThrow(ParamError);
    expect(() => validateParams(eeimvc.schema, { lambda: -1 })).toThrow(/lambda/);
    const { ds } = blobViews();
    expect(() => drain(eeimvc.run(ds, DEFAULTS, 90, createRng(0)))).toThrow(
      /k = 90 clusters need more than k samples/,
    );
    const thin = dataset(90, [
      ds.views[0]!,
      denseView(
        'c',
        [0, 1, 2],
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
      ),
    ]);
    expect(() => drain(eeimvc.run(thin, DEFAULTS, 3, createRng(0)))).toThrow(SolverInputError);
    expect(() => drain(eeimvc.run(thin, DEFAULTS, 3, createRng(0)))).toThrow(
      /view 'c' \(view 2\) has 3 present samples; .* at least 4 present samples/,
    );
  });
});
