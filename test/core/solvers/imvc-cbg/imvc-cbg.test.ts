/**
 * IMVC-CBG: parameters and registration, error messages, a hand-checkable toy case, the
 * constraints at every step (Z columns on the simplex, W_vᵀW_v = I, CCᵀ = I), the objective
 * not increasing (reference files and synthetic data), sparse = dense, d_v < k and d_v > n,
 * the embedding from the m × m Gram against a dense SVD, the Gram polar factor against the SVD
 * one, restarts keeping the lowest objective, and determinism in the seed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset, View } from '../../../../src/core/dataset';
import { polar, procrustes, thinSvd } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { clusteringMetrics } from '../../../../src/core/metrics';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { imvcCbg } from '../../../../src/core/solvers/imvc-cbg';
import {
  CbgModel,
  embedding,
  prepareViews,
  referenceStart,
  seededStart,
} from '../../../../src/core/solvers/imvc-cbg/imvc-cbg';
import { validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { Params, SolverOutput, SolverStep } from '../../../../src/core/solvers/types';
import { synthesize } from '../../../../src/core/synth';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { dataset, denseView } from '../../../helpers/toy';

/** The solver's defaults, as a run without parameters gets them. */
const defaults = (): Params => validateParams(imvcCbg.schema, {});
/** Parameters over the seeded start (one solve per run) unless `start` is given. */
const params = (raw: Record<string, number | string | boolean> = {}): Params =>
  validateParams(imvcCbg.schema, { start: 'seeded', ...raw });

function drive(
  ds: MultiViewDataset,
  p: Params,
  k: number,
  seed = 1,
): { steps: SolverStep[]; out: SolverOutput } {
  const gen = imvcCbg.run(ds, p, k, createRng(seed));
  const steps: SolverStep[] = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return { steps, out: r.value };
    steps.push(r.value);
  }
}

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
};

/** max |AᵀA − I| for A (p×q) with orthonormal columns (or AAᵀ when wide). */
function orthError(A: Mat, rowsOrthonormal: boolean): number {
  const { rows: p, cols: q } = A;
  const r = rowsOrthonormal ? p : q;
  let err = 0;
  for (let a = 0; a < r; a++) {
    for (let b = 0; b < r; b++) {
      let s = 0;
      if (rowsOrthonormal) for (let j = 0; j < q; j++) s += A.data[a * q + j]! * A.data[b * q + j]!;
      else for (let i = 0; i < p; i++) s += A.data[i * q + a]! * A.data[i * q + b]!;
      err = Math.max(err, Math.abs(s - (a === b ? 1 : 0)));
    }
  }
  return err;
}

/** Z rows (samples) on the simplex: max deviation of the sum from 1, min entry. */
function simplexError(Zt: Mat): { sum: number; min: number } {
  let sum = 0;
  let min = Infinity;
  for (let j = 0; j < Zt.rows; j++) {
    let s = 0;
    for (let b = 0; b < Zt.cols; b++) {
      s += Zt.data[j * Zt.cols + b]!;
      min = Math.min(min, Zt.data[j * Zt.cols + b]!);
    }
    sum = Math.max(sum, Math.abs(s - 1));
  }
  return { sum, min };
}

/** Two views of four 2-D blobs; view 2 misses every third sample, view 1 every fifth. */
function toyDataset(): { ds: MultiViewDataset; truth: number[] } {
  const rng = createRng(3);
  const centres = [
    [8, 0],
    [0, 8],
    [-8, 0],
    [0, -8],
  ];
  const n = 80;
  const truth = Array.from({ length: n }, (_, i) => i % 4);
  const pts = (shift: number): number[][] =>
    truth.map((c) => [
      centres[c]![0]! + shift + rng.normal() * 0.3,
      centres[c]![1]! - shift + rng.normal() * 0.3,
      1,
    ]);
  const a = pts(0);
  const b = pts(1);
  const p1 = truth.map((_, i) => i).filter((i) => i % 5 !== 4);
  const p2 = truth.map((_, i) => i).filter((i) => i % 3 !== 2 || i % 5 === 4);
  return {
    ds: dataset(
      n,
      [
        denseView(
          'a',
          p1,
          p1.map((i) => a[i]!),
        ),
        denseView(
          'b',
          p2,
          p2.map((i) => b[i]!),
        ),
      ],
      truth,
    ),
    truth,
  };
}

describe('imvc-cbg parameters and registration', () => {
  it('has the Improved version’s defaults and is registered', () => {
    expect(getSolver('imvc-cbg')).toBe(imvcCbg);
    expect(defaults()).toEqual({
      anchors: 0,
      lambda: 0,
      dimension: 0,
      iterations: 50,
      tol: 1e-3,
      alphaRule: 'norm',
      normalize: true,
      start: 'best',
      restarts: 0,
    });
    expect(imvcCbg.deterministic).toBe(false);
  });

  it('refuses out-of-range values naming the parameter', () => {
    expect(() => params({ lambda: -1 })).toThrow(
      "parameter 'lambda' must be a number from 0 to 1000000; got -1",
    );
    expect(() => params({ tol: 0 })).toThrow("parameter 'tol' must be a number above 0");
    expect(() => params({ start: 'zero' })).toThrow(
      "parameter 'start' must be one of 'seeded', 'reference', 'best'",
    );
    expect(() => params({ restarts: -1 })).toThrow("parameter 'restarts' must be an integer");
  });
});

describe('imvc-cbg input errors', () => {
  const { ds } = toyDataset();
  it('names the problem: m < k, m < dimension, k > n, m > n', () => {
    expect(() => drive(ds, params({ anchors: 3 }), 4)).toThrow(
      'imvc-cbg: the number of anchors m = 3 is below the latent dimension 4',
    );
    expect(() => drive(ds, params({ anchors: 3, dimension: 2 }), 4)).toThrow(
      'imvc-cbg: the number of anchors m = 3 is below k = 4',
    );
    expect(() => drive(ds, params(), 81)).toThrow(
      'imvc-cbg: k = 81 clusters exceeds the 80 samples',
    );
    expect(() => drive(ds, params({ anchors: 90 }), 4)).toThrow(
      'imvc-cbg: m = 90 anchors exceeds the 80 samples',
    );
  });

  it('refuses a sample present in no view, and a view without samples', () => {
    const a = denseView('a', [0, 1, 2, 3], [[1], [2], [3], [4]]);
    const b = denseView('b', [0, 1, 3, 4], [[1], [2], [3], [4]]);
    expect(() => drive(dataset(6, [a, b]), params(), 2)).toThrow(
      'imvc-cbg: 1 sample(s) are present in no view (e.g. sample 6); every sample must be ' +
        'observed in at least one view',
    );
    const empty: View = {
      name: 'empty',
      d: 2,
      present: new Int32Array(0),
      values: { kind: 'dense', rows: 0, cols: 2, data: new Float64Array(0) },
    };
    expect(() => drive(dataset(5, [a, b, empty]), params(), 2)).toThrow(
      "imvc-cbg: view 'empty' (view 3) has no present sample",
    );
  });
});

describe('imvc-cbg toy case', () => {
  it('separates four blobs seen through two incomplete views', () => {
    const { ds, truth } = toyDataset();
    const gen = evaluate(ds, imvcCbg, params(), 4, { protocol: 'single', seed: 2, replicates: 10 });
    let r = gen.next();
    while (!r.done) r = gen.next();
    expect(clusteringMetrics(Int32Array.from(truth), r.value.labels).ACC).toBe(1);
  });
});

describe('imvc-cbg constraints and descent at every step', () => {
  /** Iterates a model to the cap, checking constraints after each step; returns the trace. */
  function checkedTrace(model: CbgModel, iterations: number): number[] {
    const trace: number[] = [];
    for (let t = 0; t < iterations; t++) {
      trace.push(model.iterate());
      const z = simplexError(model.Zt);
      expect(z.sum).toBeLessThan(1e-12);
      expect(z.min).toBeGreaterThanOrEqual(0);
      expect(orthError(model.C, true)).toBeLessThan(1e-12);
      for (const W of model.W) expect(orthError(W, W.rows < W.cols)).toBeLessThan(1e-12);
      let a = 0;
      for (const x of model.alpha) a += x;
      expect(Math.abs(a - 1)).toBeLessThan(1e-14);
    }
    return trace;
  }
  const nonIncreasing = (trace: number[]): number => {
    let worst = 0;
    for (let t = 1; t < trace.length; t++) worst = Math.max(worst, trace[t]! - trace[t - 1]!);
    return worst;
  };

  for (const file of ['NGs/NGs_Per0.1.mat', 'BDGP/BDGP_fea_Per0.5.mat']) {
    it(`${file}: seeded starts 1..3, 15 iterations`, { timeout: 60_000 }, async () => {
      const ds = await loadDataset(join(DATASETS, file));
      const views = prepareViews(ds);
      for (let s = 1; s <= 3; s++) {
        const opts = { dimension: 5, anchors: 5, lambda: 0, alphaRule: 'norm' as const };
        const model = new CbgModel(views, ds.n, opts, seededStart(ds.n, 5, 5, createRng(s)));
        const trace = checkedTrace(model, 15);
        expect(nonIncreasing(trace)).toBeLessThanOrEqual(0);
      }
    });
  }

  it('synthetic data (5 views, p = 0.3), several settings', () => {
    const ds = synthesize({
      n: 600,
      k: 6,
      dims: [20, 3, 40, 8, 700],
      completeFraction: 0.3,
      seed: 5,
    });
    const views = prepareViews(ds);
    for (const opts of [
      { dimension: 6, anchors: 6, lambda: 0, alphaRule: 'norm' as const },
      { dimension: 6, anchors: 12, lambda: 0, alphaRule: 'norm' as const },
      { dimension: 4, anchors: 9, lambda: 0.5, alphaRule: 'norm' as const },
      { dimension: 6, anchors: 6, lambda: 0, alphaRule: 'squared' as const },
    ]) {
      const start = seededStart(ds.n, opts.dimension, opts.anchors, createRng(9));
      const trace = checkedTrace(new CbgModel(views, ds.n, opts, start), 20);
      expect(nonIncreasing(trace), JSON.stringify(opts)).toBeLessThanOrEqual(0);
    }
  });
});

describe('imvc-cbg numerics', () => {
  it('the Gram polar factor equals the SVD one; rank-deficient and zero inputs use the SVD', () => {
    const rng = createRng(4);
    for (const [p, q] of [
      [50, 5],
      [5, 5],
      [3, 8],
      [1, 4],
    ] as const) {
      const B: Mat = {
        rows: p,
        cols: q,
        data: Float64Array.from({ length: p * q }, () => rng.normal()),
      };
      expect(maxAbs(polar(B).data, procrustes(B).data)).toBeLessThan(1e-12);
    }
    const zero: Mat = { rows: 6, cols: 3, data: new Float64Array(18) };
    const I = polar(zero);
    expect(Array.from(I.data)).toEqual(Array.from(procrustes(zero).data));
    expect(I.data[0]).toBe(1);
    expect(I.data[4]).toBe(1);
    expect(I.data[8]).toBe(1);
    const rank1: Mat = { rows: 4, cols: 2, data: Float64Array.from([1, 2, 2, 4, 3, 6, 4, 8]) };
    expect(maxAbs(polar(rank1).data, procrustes(rank1).data)).toBe(0);
  });

  it('the embedding equals the left singular vectors of Zᵀ (dense SVD), up to sign', () => {
    const { Zt } = seededStart(200, 4, 7, createRng(12));
    const { F, singularValues } = embedding(Zt, 4, false);
    const svd = thinSvd(Zt);
    for (let t = 0; t < 4; t++) {
      expect(Math.abs(singularValues[t]! - svd.s[t]!)).toBeLessThan(1e-10 * svd.s[0]!);
      let dot = 0;
      for (let j = 0; j < 200; j++) dot += F.data[j * 4 + t]! * svd.U.data[j * 7 + t]!;
      expect(Math.abs(Math.abs(dot) - 1)).toBeLessThan(1e-9);
    }
    const normed = embedding(Zt, 4, true).F;
    for (let j = 0; j < 200; j++) {
      let s = 0;
      for (let t = 0; t < 4; t++) s += normed.data[j * 4 + t]! ** 2;
      expect(Math.abs(s - 1)).toBeLessThan(1e-12);
    }
  });

  it('a sparse view gives the same trace as its dense copy', () => {
    const ds = synthesize({ n: 300, k: 3, dims: [30, 50], completeFraction: 0.5, seed: 8 });
    // Zero out 90% of view 2 so prepareViews multiplies it as CSR.
    const v2 = ds.views[1]!;
    const data = Float64Array.from(v2.values.data, (x, i) => (i % 10 === 0 ? x : 0));
    const sparseDs: MultiViewDataset = {
      ...ds,
      views: [
        ds.views[0]!,
        { ...v2, values: { kind: 'dense', rows: v2.present.length, cols: 50, data } },
      ],
    };
    const views = prepareViews(sparseDs);
    expect(views[1]!.madeSparse).toBe(true);
    const denseViews = views.map((v, i) =>
      i === 1 ? { ...v, X: sparseDs.views[1]!.values, madeSparse: false } : v,
    );
    const opts = { dimension: 3, anchors: 4, lambda: 0, alphaRule: 'norm' as const };
    const a = new CbgModel(views, ds.n, opts, seededStart(ds.n, 3, 4, createRng(1)));
    const b = new CbgModel(denseViews, ds.n, opts, seededStart(ds.n, 3, 4, createRng(1)));
    for (let t = 0; t < 10; t++) {
      const oa = a.iterate();
      const ob = b.iterate();
      expect(Math.abs(oa - ob) / ob).toBeLessThan(1e-12);
    }
    expect(maxAbs(a.Zt.data, b.Zt.data)).toBeLessThan(1e-10);
  });

  it('non-finite entries count as 0 and rows are scaled to unit norm (reference preprocessing)', () => {
    const v = denseView(
      'a',
      [0, 1, 2],
      [
        [3, 4, NaN],
        [0, 0, 0],
        [1, 0, 0],
      ],
    );
    const [p] = prepareViews(dataset(3, [v]));
    expect(p!.nonFinite).toBe(1);
    expect(Array.from(p!.scale)).toEqual([1 / 5, 1e12, 1]);
    expect(p!.sqNorm).toBeCloseTo(2, 14);
  });
});

describe('imvc-cbg solver', () => {
  const ds = synthesize({ n: 400, k: 4, dims: [2, 30, 500], completeFraction: 0.5, seed: 2 });

  it('runs views with d_v < k and d_v > n; steps carry α and work; same seed, same output', () => {
    const a = drive(ds, params(), 4, 7);
    const b = drive(ds, params(), 4, 7);
    expect(Array.from(a.out.embedding.data)).toEqual(Array.from(b.out.embedding.data));
    expect(a.out.embedding.rows).toBe(400);
    expect(a.out.embedding.cols).toBe(4);
    const solve = a.steps.filter((s) => s.stage === 'solve');
    expect(solve.length).toBe(a.out.iterations);
    expect(solve.map((s) => s.objective)).toEqual(a.out.objective);
    expect(solve.every((s) => s.values!['alpha1']! > 0 && s.values!['work']! > 0)).toBe(true);
    expect(a.steps.map((s) => s.stage)).toContain('embed');
    const c = drive(ds, params(), 4, 8);
    expect(Array.from(c.out.embedding.data)).not.toEqual(Array.from(a.out.embedding.data));
    expect(clusteringMetrics(ds.labels!.codes, new Int32Array(400)).ACC).toBeLessThan(0.3);
  });

  it('restarts keep the start with the lowest final objective', () => {
    const one = drive(ds, params({ restarts: 1 }), 4, 3);
    const five = drive(ds, params({ restarts: 5 }), 4, 3);
    const finals = five.out.diagnostics!['restartObjectives'] as number[];
    expect(finals).toHaveLength(5);
    expect(finals[0]).toBe(one.out.objective[one.out.objective.length - 1]);
    const kept = five.out.diagnostics!['keptRestart'] as number;
    expect(finals[kept - 1]).toBe(Math.min(...finals));
    expect(five.out.objective[five.out.objective.length - 1]).toBe(Math.min(...finals));
  });

  it('the reference start: W_v after iteration 1 is the identity’s first k columns', () => {
    const views = prepareViews(ds);
    const model = new CbgModel(
      views,
      ds.n,
      { dimension: 4, anchors: 4, lambda: 0, alphaRule: 'norm' },
      referenceStart(ds.n, 4, 4),
    );
    model.iterate();
    const W = model.W[1]!; // d = 30 ≥ k
    for (let i = 0; i < 30; i++)
      for (let a = 0; a < 4; a++) {
        expect(W.data[i * 4 + a]).toBe(i === a ? 1 : 0);
      }
    const out = drive(ds, params({ start: 'reference' }), 4).out;
    expect(out.notes[0]).toContain('start=reference');
  });

  it("start 'best': the reference start among the candidates, the lowest objective kept", () => {
    const final = (o: SolverOutput): number => o.objective[o.objective.length - 1]!;
    const ref = drive(ds, params({ start: 'reference' }), 4, 3).out;
    const seeded = drive(ds, params({ restarts: 4 }), 4, 3).out;
    const best = drive(ds, params({ start: 'best' }), 4, 3).out;
    const finals = best.diagnostics!['restartObjectives'] as number[];
    // Default r = 5: candidate 1 is the reference start, 2 … 5 the seeded starts 1 … 4.
    expect(finals).toHaveLength(5);
    expect(finals[0]).toBe(final(ref));
    expect(finals.slice(1)).toEqual(seeded.diagnostics!['restartObjectives']);
    const kept = best.diagnostics!['keptRestart'] as number;
    expect(finals[kept - 1]).toBe(Math.min(...finals));
    expect(finals.indexOf(Math.min(...finals))).toBe(kept - 1);
    expect(final(best)).toBe(Math.min(...finals));
    expect(best.notes[0]).toContain('start=best');
    const winner = kept === 1 ? 'the reference start' : `seeded start ${kept - 1}`;
    expect(best.notes[1]).toContain(`kept ${winner} with the lowest final objective`);
  });

  it("start 'best' with r = 1 is the reference start bit for bit", () => {
    for (const seed of [1, 5]) {
      const ref = drive(ds, params({ start: 'reference' }), 4, seed).out;
      const one = drive(ds, params({ start: 'best', restarts: 1 }), 4, seed).out;
      expect(one.objective).toEqual(ref.objective);
      expect(Array.from(one.embedding.data)).toEqual(Array.from(ref.embedding.data));
      expect(one.diagnostics!['alpha']).toEqual(ref.diagnostics!['alpha']);
      expect(one.diagnostics!['keptRestart']).toBe(1);
    }
  });

  it('every result names its start, the default too', () => {
    const byDefault = drive(ds, defaults(), 4).out;
    expect(byDefault.notes[0]).toMatch(/^start=best: the reference start and 4 seeded start/);
    expect(byDefault.diagnostics!['start']).toBe('best');
    expect(byDefault.diagnostics!['restartObjectives']).toHaveLength(5);
    expect(drive(ds, params(), 4).out.notes[0]).toMatch(/^start=seeded/);
    expect(drive(ds, params({ start: 'reference' }), 4).out.notes[0]).toMatch(/^start=reference/);
    expect(drive(ds, params({ start: 'best', restarts: 2 }), 4).out.notes[0]).toMatch(
      /^start=best/,
    );
  });
});

describe('imvc-cbg on every missingness encoding the loaders produce', () => {
  const at = (f: string): string => join(DATASETS, f);
  const cases: [string, () => Promise<MultiViewDataset>][] = [
    ['all-NaN columns + index (NGs Per0.5)', () => loadDataset(at('NGs/NGs_Per0.5.mat'))],
    ['zero rows + ind (Data_3Sources)', () => loadDataset(at('3Sources/Data_3Sources.mat'))],
    [
      'folds file (3sources3vbigRnSp, fold 4)',
      () =>
        loadDataset(at('3Sources/3sources3vbigRnSp.mat'), {
          mask: at('3Sources/3sources3vbigRnSp_percentDel_0.3.mat'),
          fold: 4,
        }),
    ],
    ['complete, sparse (CSR) views (3-sources)', () => loadDataset(at('3Sources/3-sources.mat'))],
    [
      'mask variable (Mfeat per30, fold 7)',
      () => loadDataset(at('MNIST-USPS_incomplete/Mfeat.mat'), { mask: 'per30', fold: 7 }),
    ],
    [
      'naturally incomplete (bbcsportIncomplete)',
      () => loadDataset(at('BBCSport/bbcsportIncomplete.mat')),
    ],
  ];
  for (const [name, load] of cases) {
    it(name, { timeout: 60_000 }, async () => {
      const ds = await load();
      const k = ds.labels!.classes.length;
      const { steps, out } = drive(ds, params({ iterations: 8 }), k, 1);
      const trace = steps.filter((s) => s.stage === 'solve').map((s) => s.objective!);
      expect(trace.length).toBeGreaterThan(1);
      for (let t = 1; t < trace.length; t++) expect(trace[t]!).toBeLessThanOrEqual(trace[t - 1]!);
      expect(out.embedding.rows).toBe(ds.n);
      expect(out.embedding.data.every((x) => Number.isFinite(x))).toBe(true);
      const sparse = ds.views.some((v) => v.values.kind === 'csr');
      console.log(
        `${name}: n = ${ds.n}, V = ${ds.views.length}, ${sparse ? 'sparse' : 'dense'} views, ` +
          `${out.iterations} iterations, objective ${trace[0]!.toPrecision(6)} → ` +
          `${trace.at(-1)!.toPrecision(6)}`,
      );
    });
  }
});
