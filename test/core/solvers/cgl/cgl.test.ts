/**
 * CGL / CGMVC-NC: parameters and errors; the small pieces (Hermitian Jacobi, both shrinkages by
 * hand); the factorised T-step against the dense t-SVD on random F̄; whole solves factorised vs
 * dense (3Sources and synthetic data, both shrinkages, to 1e-9 relative); the sample-order
 * identity; the diagnostics; the connectivity constraint. The reference runs are in
 * `reference.test.ts` (3Sources) and `test/bench/cgl.bench.ts` (all seven runs).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kmeans } from '../../../../src/core/cluster';
import type { MultiViewDataset } from '../../../../src/core/dataset';
import { procrustes, matmul, matmulTA } from '../../../../src/core/linalg/kernels';
import type { Mat } from '../../../../src/core/linalg/types';
import { clusteringMetrics } from '../../../../src/core/metrics';
import { createRng } from '../../../../src/core/random';
import {
  buildGraphs,
  cglIterate,
  consensusEmbedding,
  type CglOptions,
  type CglState,
} from '../../../../src/core/solvers/cgl/cgl';
import { hermEig, hermWork } from '../../../../src/core/linalg/herm';
import { cgl, cgmvcNc } from '../../../../src/core/solvers/cgl';
import { shrinkSlice, type Shrinkage } from '../../../../src/core/solvers/cgl/shrink';
import { denseTensorStep, FactorisedTensor } from '../../../../src/core/solvers/cgl/tensor';
import { validateParams } from '../../../../src/core/solvers/params';
import { meanImputed } from '../../../../src/core/solvers/impute';
import { getSolver } from '../../../../src/core/solvers/registry';
import { synthesize } from '../../../../src/core/synth';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { drain } from '../../../helpers/toy';

function options(over: Partial<CglOptions> & Pick<CglOptions, 'lambda' | 'shrinkage'>): CglOptions {
  return {
    neighbors: 15,
    iterations: 100,
    minIterations: 41,
    tolerance: 1e-6,
    path: 'factorised',
    ...over,
  };
}

/** Dense views (n, d_v) in sample order. */
function impute(ds: MultiViewDataset): Mat[] {
  return ds.views.map((v) => meanImputed(v, ds.n));
}

function relErr(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

function randomUnitRows(n: number, c: number, seed: number, bias: number): Mat {
  const rng = createRng(seed);
  const data = new Float64Array(n * c);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < c; j++) {
      const x = rng.normal() + (j === bias ? 2 : 0);
      data[i * c + j] = x;
      s += x * x;
    }
    for (let j = 0; j < c; j++) data[i * c + j]! /= Math.sqrt(s);
  }
  return { rows: n, cols: c, data };
}

function concatRows(F: Mat[]): Mat {
  const n = F[0]!.rows;
  const c = F[0]!.cols;
  const w = F.length * c;
  const data = new Float64Array(n * w);
  for (let i = 0; i < n; i++)
    F.forEach((M, v) => data.set(M.data.subarray(i * c, (i + 1) * c), i * w + v * c));
  return { rows: n, cols: w, data };
}

/** Runs the iteration to the end. */
function solve(views: Mat[], c: number, o: CglOptions): { state: CglState; objective: number[] } {
  const g = buildGraphs(views, o.neighbors);
  const { output } = drain(cglIterate(g, c, o));
  return { state: output, objective: output.objective };
}

describe('cgl parameters and errors', () => {
  it('registers both methods with the reference defaults', () => {
    expect(getSolver('cgl')).toBe(cgl);
    expect(getSolver('cgmvc-nc')).toBe(cgmvcNc);
    const p = validateParams(cgl.schema, {});
    expect(p).toMatchObject({
      lambda: 0,
      rho: 10,
      neighbors: 15,
      iterations: 100,
      minIterations: 41,
      tolerance: 1e-6,
      connectivity: false,
      sampleOrder: 'file',
      path: 'factorised',
    });
    expect(validateParams(cgmvcNc.schema, {})).toMatchObject({ rho: 1, gamma: 0.1 });
    expect('gamma' in cgl.schema).toBe(false);
    expect(() => validateParams(cgmvcNc.schema, { gamma: 0 })).toThrow(
      "parameter 'gamma' must be a number above 0, at most 1000000; got 0",
    );
    expect(() => validateParams(cgl.schema, { sampleOrder: 'sorted' })).toThrow(
      "parameter 'sampleOrder' must be one of 'file', 'shuffled'",
    );
  });

  it('refuses what it cannot run, naming the parameter', () => {
    const ds = synthesize({ n: 30, k: 3, dims: [4, 5], completeFraction: 1, seed: 1 });
    const run = (raw: Record<string, number | string>): unknown =>
      drain(cgl.run(ds, validateParams(cgl.schema, raw), 3, createRng(0)));
    expect(() => run({ neighbors: 29 })).toThrow(
      "cgl: parameter 'neighbors' is 29, but n = 30 samples allow at most 28",
    );
    const big = synthesize({ n: 1001, k: 2, dims: [2], completeFraction: 1, seed: 1 });
    expect(() =>
      drain(cgl.run(big, validateParams(cgl.schema, { path: 'dense' }), 2, createRng(0))),
    ).toThrow("cgl: path 'dense' holds n × n arrays and is limited to n ≤ 1000; n = 1001");
  });
});

describe('cgl pieces', () => {
  it('hermEig: A·W = W·Λ and WᴴW = I for a random Hermitian matrix', () => {
    const m = 6;
    const rng = createRng(3);
    const re = new Float64Array(m * m);
    const im = new Float64Array(m * m);
    for (let i = 0; i < m; i++)
      for (let j = i; j < m; j++) {
        const a = rng.normal();
        const b = i === j ? 0 : rng.normal();
        re[i * m + j] = re[j * m + i] = a;
        im[i * m + j] = b;
        im[j * m + i] = -b;
      }
    const e = hermEig(re, im, hermWork(m));
    for (let i = 1; i < m; i++) expect(e.values[i]!).toBeLessThanOrEqual(e.values[i - 1]!);
    let res = 0;
    let orth = 0;
    for (let k = 0; k < m; k++)
      for (let i = 0; i < m; i++) {
        // (A·w_k)_i − λ_k·w_ik
        let sr = 0;
        let si = 0;
        for (let j = 0; j < m; j++) {
          const ar = re[i * m + j]!;
          const ai = im[i * m + j]!;
          const wr = e.re[j * m + k]!;
          const wi = e.im[j * m + k]!;
          sr += ar * wr - ai * wi;
          si += ar * wi + ai * wr;
        }
        res = Math.max(
          res,
          Math.hypot(sr - e.values[k]! * e.re[i * m + k]!, si - e.values[k]! * e.im[i * m + k]!),
        );
        // (WᴴW)_ik
        let gr = 0;
        let gi = 0;
        for (let j = 0; j < m; j++) {
          gr += e.re[j * m + i]! * e.re[j * m + k]! + e.im[j * m + i]! * e.im[j * m + k]!;
          gi += e.re[j * m + i]! * e.im[j * m + k]! - e.im[j * m + i]! * e.re[j * m + k]!;
        }
        orth = Math.max(orth, Math.hypot(gr - (i === k ? 1 : 0), gi));
      }
    expect(res).toBeLessThan(1e-13);
    expect(orth).toBeLessThan(1e-14);
  });

  it('shrinkages by hand: weighted TNN closed form and the t-Gamma fixed point', () => {
    const sigma = Float64Array.of(10, 1);
    const kept = new Float64Array(2);
    const diff = new Float64Array(2);
    const out = { rank: 0, penalty: 0, passes: 0 };
    shrinkSlice({ kind: 'wtnn', rho: 4 }, sigma, 2, kept, diff, out);
    // t = 10² − 16 = 84 > 0: σ' = (10 + √84)/2; t = 1 − 16 < 0: 0.
    expect(kept[0]).toBeCloseTo((10 + Math.sqrt(84)) / 2, 13);
    expect(kept[1]).toBe(0);
    expect(diff[0]).toBeCloseTo(10 - (10 + Math.sqrt(84)) / 2, 13);
    expect(out).toMatchObject({ rank: 1 });
    expect(out.penalty).toBeCloseTo(4, 12);
    shrinkSlice({ kind: 'tgamma', rho: 2, gamma: 0.5 }, sigma, 2, kept, diff, out);
    // A fixed point of ω = max(σ − ργ(1+γ)/(γ+ω)², 0), ργ(1+γ) = 1.5.
    expect(kept[0]).toBeCloseTo(10 - 1.5 / (0.5 + kept[0]!) ** 2, 10);
    expect(kept[1]).toBeCloseTo(Math.max(1 - 1.5 / (0.5 + kept[1]!) ** 2, 0), 10);
    expect(out.penalty).toBeCloseTo(
      2 * ((1.5 * kept[0]!) / (0.5 + kept[0]!) + (1.5 * kept[1]!) / (0.5 + kept[1]!)),
      12,
    );
  });

  for (const n of [60, 61]) {
    for (const sh of [
      { kind: 'wtnn', rho: 3 },
      { kind: 'tgamma', rho: 3, gamma: 0.1 },
    ] as Shrinkage[]) {
      it(`factorised T-step = dense t-SVD (n = ${n}, ${sh.kind}): terms and T_v·x to 1e-12`, () => {
        const V = 3;
        const c = 4;
        const F = Array.from({ length: V }, (_, v) => randomUnitRows(n, c, 10 + v, v));
        const Fcat = concatRows(F);
        const ft = new FactorisedTensor(n, V, c);
        const t = ft.step(F, Fcat, sh);
        const d = denseTensorStep(F, sh);
        expect(t.tubalRank).toBe(d.terms.tubalRank);
        expect(relErr(t.penalty, d.terms.penalty)).toBeLessThan(1e-12);
        for (let v = 0; v < V; v++)
          expect(relErr(t.tensor[v]!, d.terms.tensor[v]!)).toBeLessThan(1e-9);
        for (let p = 0; p < t.sigma.length; p++)
          expect(Math.abs(t.sigma[p]! - d.terms.sigma[p]!)).toBeLessThan(1e-12 * d.terms.sigma[0]!);
        const X = randomUnitRows(n, 3, 99, 0);
        for (let v = 0; v < V; v++) {
          const Y = ft.applyT(v, F, Fcat, X);
          const Z = matmul(d.T[v]!, X);
          let err = 0;
          let nrm = 0;
          for (let p = 0; p < Y.data.length; p++) {
            err = Math.max(err, Math.abs(Y.data[p]! - Z.data[p]!));
            nrm = Math.max(nrm, Math.abs(Z.data[p]!));
          }
          expect(err / nrm).toBeLessThan(1e-12);
        }
      });
    }
  }
});

/** max_i relative difference of two traces of equal length. */
function traceErr(a: readonly number[], b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  return Math.max(...a.map((x, i) => relErr(x, b[i]!)));
}

/** ‖A·R − B‖_F / ‖B‖_F with R the Procrustes rotation: equal up to sign/rotation. */
function rotationErr(A: Mat, B: Mat): number {
  const R = procrustes(matmulTA(A, B));
  const AR = matmul(A, R);
  let e = 0;
  let s = 0;
  for (let p = 0; p < B.data.length; p++) {
    e += (AR.data[p]! - B.data[p]!) ** 2;
    s += B.data[p]! ** 2;
  }
  return Math.sqrt(e / s);
}

function compareSolves(
  views: Mat[],
  c: number,
  o: Omit<CglOptions, 'path'>,
  truth: Int32Array | null,
): void {
  const f = solve(views, c, { ...o, path: 'factorised' });
  const d = solve(views, c, { ...o, path: 'dense' });
  expect(traceErr(f.objective, d.objective)).toBeLessThan(1e-9);
  // T_v applied to random vectors (the last T-step).
  const n = views[0]!.rows;
  const X = randomUnitRows(n, 2, 5, 0);
  f.state.Fbar.forEach((_, v) => {
    const Y = f.state.factor!.tensor.applyT(v, f.state.Fbar, f.state.factor!.Fcat, X);
    const Z = matmul(d.state.T![v]!, X);
    let e = 0;
    let s = 0;
    for (let p = 0; p < Y.data.length; p++) {
      e += (Y.data[p]! - Z.data[p]!) ** 2;
      s += Z.data[p]! ** 2;
    }
    expect(Math.sqrt(e / s)).toBeLessThan(1e-9);
  });
  // Final embeddings: F̄_v up to rotation, consensus embedding up to rotation, same labels.
  f.state.Fbar.forEach((F, v) => expect(rotationErr(F, d.state.Fbar[v]!)).toBeLessThan(1e-9));
  const ef = consensusEmbedding(f.state.Fbar, o.neighbors, c, 'factorised');
  const ed = consensusEmbedding(d.state.Fbar, o.neighbors, c, 'dense');
  expect(ef.W.indices).toEqual(ed.W.indices);
  expect(rotationErr(ef.embedding, ed.embedding)).toBeLessThan(1e-9);
  const lf = kmeans(ef.embedding, c, { replicates: 5 }, createRng(1)).labels;
  const ld = kmeans(ed.embedding, c, { replicates: 5 }, createRng(1)).labels;
  expect(clusteringMetrics(lf, ld).ACC).toBe(1);
  if (truth) expect(clusteringMetrics(truth, lf).ACC).toBeGreaterThan(0.3);
}

describe('cgl factorised = dense', () => {
  it('3Sources (n = 169), both shrinkages, 6 passes', async () => {
    const ds = await loadDataset(join(DATASETS, 'CGL-benchmark/3Sources.mat'));
    const views = impute(ds);
    for (const sh of [
      { kind: 'wtnn', rho: 10 },
      { kind: 'tgamma', rho: 1, gamma: 0.1 },
    ] as Shrinkage[]) {
      compareSolves(views, 6, { ...options({ lambda: 50, shrinkage: sh }), iterations: 6 }, null);
    }
  });

  for (const n of [120, 151]) {
    it(`synthetic n = ${n}, V = 3, c = 4, both shrinkages, 8 passes`, () => {
      const ds = synthesize({
        n,
        k: 4,
        dims: [12, 9, 6],
        completeFraction: 1,
        seed: n,
        separation: 2,
      });
      const views = impute(ds);
      for (const sh of [
        { kind: 'wtnn', rho: 2 },
        { kind: 'tgamma', rho: 50, gamma: 0.1 },
      ] as Shrinkage[]) {
        compareSolves(
          views,
          4,
          { ...options({ lambda: 1, shrinkage: sh, neighbors: 10 }), iterations: 8 },
          ds.labels!.codes,
        );
      }
    });
  }
});

describe('cgl sample order and connectivity', () => {
  const ds = synthesize({
    n: 200,
    k: 4,
    dims: [10, 8],
    completeFraction: 1,
    seed: 5,
    separation: 4,
  });

  it("'shuffled' equals running the permuted file, mapped back to file order", () => {
    const params = validateParams(cgl.schema, {
      lambda: 1,
      rho: 2,
      iterations: 8,
      sampleOrder: 'shuffled',
      orderSeed: 11,
    });
    const shuffled = drain(cgl.run(ds, params, 4, createRng(0))).output;
    const perm = createRng(11).shuffle(Int32Array.from({ length: ds.n }, (_, i) => i));
    const permuted: MultiViewDataset = {
      ...ds,
      views: ds.views.map((v) => {
        const X = v.values as Mat;
        const data = new Float64Array(X.data.length);
        for (let i = 0; i < ds.n; i++)
          data.set(X.data.subarray(perm[i]! * v.d, (perm[i]! + 1) * v.d), i * v.d);
        return { ...v, values: { kind: 'dense' as const, rows: ds.n, cols: v.d, data } };
      }),
    };
    const direct = drain(
      cgl.run(permuted, { ...params, sampleOrder: 'file' }, 4, createRng(0)),
    ).output;
    expect(shuffled.objective).toEqual(direct.objective);
    for (let i = 0; i < ds.n; i++)
      for (let j = 0; j < 4; j++)
        expect(shuffled.embedding.data[perm[i]! * 4 + j]).toBe(direct.embedding.data[i * 4 + j]);
    expect(shuffled.notes.join('\n')).toContain(
      'sample order: shuffled (seeded permutation, orderSeed 11)',
    );
    expect(shuffled.diagnostics).toMatchObject({ sampleOrder: 'shuffled', orderSeed: 11 });
  });

  it('records the objective terms, the slice spectrum and what the shrinkage kept', () => {
    const out = drain(
      cgmvcNc.run(ds, validateParams(cgmvcNc.schema, { iterations: 6 }), 4, createRng(0)),
    ).output;
    const d = out.diagnostics as {
      terms: { graph: number[]; tensor: number[]; penalty: number[] };
      spectrum: { keptSum: number; keptEnergy: number; sigma: number[][]; slices: number[] };
    };
    for (let t = 1; t < out.objective.length; t++) {
      const sum = d.terms.graph[t - 1]! + d.terms.tensor[t - 1]! + d.terms.penalty[t - 1]!;
      expect(relErr(sum, out.objective[t]!)).toBeLessThan(1e-12);
    }
    expect(d.spectrum.slices.length).toBe(101);
    expect(d.spectrum.sigma[0]!.length).toBe(2);
    expect(d.spectrum.keptSum).toBeGreaterThan(0.99);
    expect(d.spectrum.keptSum).toBeLessThanOrEqual(1);
    expect(out.notes.some((s) => s.startsWith('shrinkage kept'))).toBe(true);
  });

  it('connectivity constraint: exactly c components, labels = components', () => {
    const clean = synthesize({
      n: 200,
      k: 4,
      dims: [30, 20],
      completeFraction: 1,
      seed: 5,
      separation: 8,
    });
    const out = drain(
      cgl.run(
        clean,
        validateParams(cgl.schema, { iterations: 6, connectivity: true }),
        4,
        createRng(0),
      ),
    ).output;
    expect(out.labels).toBeDefined();
    expect(new Set(out.labels).size).toBe(4);
    expect(clusteringMetrics(clean.labels!.codes, out.labels!).ACC).toBe(1);
    expect(out.notes.join('\n')).toContain('connectivity constraint: 4 connected components');
    expect(out.diagnostics).toMatchObject({ connectivity: { components: 4 } });
  });
});
