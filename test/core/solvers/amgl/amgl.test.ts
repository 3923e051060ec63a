/**
 * amgl: a hand-checked toy (two disconnected cliques beside a cycle and a clique), the sparse
 * and dense eigensolver paths against each other (α, objective and eigenvalue traces to 1e-9,
 * the same eigenspace: ‖F_denseᵀ·F_sparse‖²_F = c), properties (FᵀF = I, objective
 * non-increasing, L_v's spectrum in [0, 2]), the isolated samples of mean-filled views, and the
 * error messages.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../../../src/core/dataset';
import { normalisedLaplacian } from '../../../../src/core/graph/laplacian';
import { symmetrise } from '../../../../src/core/graph/pkn';
import { symEigValues } from '../../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../../src/core/linalg/types';
import { evaluate } from '../../../../src/core/protocol';
import { createRng } from '../../../../src/core/random';
import { amgl, MAX_DENSE_N } from '../../../../src/core/solvers/amgl';
import {
  amglGraphs,
  amglIterate,
  type AmglEigensolver,
  type AmglResult,
  type AmglViewGraph,
} from '../../../../src/core/solvers/amgl/amgl';
import { denseValues, fillMissing } from '../../../../src/core/solvers/complete';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { SolverOutput, SolverStep } from '../../../../src/core/solvers/types';
import { synthesize } from '../../../../src/core/synth';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { dataset, denseView, drain } from '../../../helpers/toy';

/** A symmetric 0/1 graph on n vertices from its edges (CSR, sorted rows). */
function graph(n: number, edges: [number, number][]): Csr {
  const rows: number[][] = Array.from({ length: n }, () => []);
  for (const [i, j] of edges) rows[i]!.push(j);
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    indices.push(...rows[i]!.sort((a, b) => a - b));
    indptr[i + 1] = indices.length;
  }
  const W: Csr = {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: new Float64Array(indices.length).fill(1),
  };
  return symmetrise(W);
}

const clique = (vs: number[]): [number, number][] =>
  vs.flatMap((i) => vs.filter((j) => j !== i).map((j): [number, number] => [i, j]));

function viewGraph(W: Csr): AmglViewGraph {
  return { W, ...normalisedLaplacian(W) };
}

function iterate(
  graphs: AmglViewGraph[],
  c: number,
  eigensolver: AmglEigensolver,
): { steps: SolverStep[]; output: AmglResult } {
  return drain(amglIterate(graphs, c, { iterations: 100, tolerance: 1e-8, eigensolver }));
}

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const maxRel = (a: readonly number[], b: readonly number[]): number => {
  expect(a.length).toBe(b.length);
  return Math.max(0, ...a.map((x, i) => rel(x, b[i]!)));
};

/** ‖AᵀB‖²_F for A, B: (n, c). */
function overlap(A: Mat, B: Mat): number {
  const { rows: n, cols: c } = A;
  let s = 0;
  for (let p = 0; p < c; p++)
    for (let q = 0; q < c; q++) {
      let x = 0;
      for (let i = 0; i < n; i++) x += A.data[i * c + p]! * B.data[i * c + q]!;
      s += x * x;
    }
  return s;
}

describe('amgl toy: two disconnected cliques (view 1) and a 4-cycle beside a triangle (view 2)', () => {
  // A = {0,1,2,3}, B = {4,5,6}. View 1: K4 ∪ K3. View 2: the 4-cycle 0-1-2-3 ∪ K3.
  // Both views have the components A and B, constant degrees within each, so 1_A and 1_B span
  // the null space of every L_v. On the zero-sum vectors of A: L_1 = 4/3·I (K4), L_2 has 1, 1, 2
  // (C4); of B: L_1 = L_2 = 3/2·I (K3). With α = (½, ½), M's spectrum is 0, 0, 7/6, 7/6, 3/2,
  // 3/2, 5/3; for c = 4, F = 1_A, 1_B and C4's eigenspace of 1, so tr(FᵀL_1F) = 8/3,
  // tr(FᵀL_2F) = 2: α = (1/(2√(8/3)), 1/(2√2)), Obj = √(8/3) + √2. The next M keeps the same
  // four vectors lowest (0, 0, 4/3·α_1 + α_2 twice, then 3/2·(α_1 + α_2)), so every iteration
  // gives the same objective and the loop stops at t = 3.
  const W1 = graph(7, [...clique([0, 1, 2, 3]), ...clique([4, 5, 6])]);
  const cycle: [number, number][] = [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
  ];
  const W2 = graph(7, [
    ...cycle,
    ...cycle.map(([i, j]): [number, number] => [j, i]),
    ...clique([4, 5, 6]),
  ]);
  const graphs = [viewGraph(W1), viewGraph(W2)];
  const a1 = 1 / (2 * Math.sqrt(8 / 3));
  const a2 = 1 / (2 * Math.sqrt(2));

  it.each(['sparse', 'dense'] as const)('%s path: α, objective and eigenvalues by hand', (path) => {
    const { output, steps } = iterate(graphs, 4, path);
    expect(output.objective.length).toBe(3);
    expect(output.converged).toBe(true);
    for (const obj of output.objective)
      expect(obj).toBeCloseTo(Math.sqrt(8 / 3) + Math.sqrt(2), 12);
    for (const a of output.alphaTrace) {
      expect(a[0]).toBeCloseTo(a1, 12);
      expect(a[1]).toBeCloseTo(a2, 12);
    }
    const first = [0, 0, 7 / 6, 7 / 6, 3 / 2];
    const last = [0, 0, (4 / 3) * a1 + a2, (4 / 3) * a1 + a2, 1.5 * (a1 + a2)];
    output.firstEigenvalues.forEach((x, i) => expect(x).toBeCloseTo(first[i]!, 12));
    output.finalEigenvalues.forEach((x, i) => expect(x).toBeCloseTo(last[i]!, 12));
    expect(output.traceHistory.at(-1)![0]).toBeCloseTo(8 / 3, 12);
    expect(output.traceHistory.at(-1)![1]).toBeCloseTo(2, 12);
    expect(steps.map((s) => s.iteration)).toEqual([1, 2, 3]);
    expect(steps[0]!.values!['alpha_v1']).toBeCloseTo(a1, 12);
  });

  it('the Laplacians: trace n minus the diagonal weights, spectrum in [0, 2]', () => {
    for (const g of graphs) {
      const n = g.L.rows;
      const dense = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let p = g.L.indptr[i]!; p < g.L.indptr[i + 1]!; p++)
          dense[i * n + g.L.indices[p]!] = g.L.data[p]!;
      const ev = symEigValues({ rows: n, cols: n, data: dense });
      expect(ev[0]).toBeCloseTo(0, 12);
      expect(ev[1]).toBeCloseTo(0, 12);
      expect(ev[n - 1]).toBeLessThanOrEqual(2 + 1e-12);
      expect(g.isolated).toBe(0);
    }
  });
});

describe('amgl: the sparse and dense paths agree', () => {
  const compare = (views: Mat[], c: number, label: string): void => {
    const graphs = amglGraphs(views, 5);
    const s = iterate(graphs, c, 'sparse').output;
    const d = iterate(graphs, c, 'dense').output;
    expect(s.objective.length, label).toBe(d.objective.length);
    expect(maxRel(s.objective, d.objective), `${label} objective`).toBeLessThan(1e-9);
    s.alphaTrace.forEach((a, t) =>
      expect(maxRel(a, d.alphaTrace[t]!), `${label} α ${t + 1}`).toBeLessThan(1e-9),
    );
    expect(maxRel(s.firstEigenvalues, d.firstEigenvalues), label).toBeLessThan(1e-9);
    expect(maxRel(s.finalEigenvalues, d.finalEigenvalues), label).toBeLessThan(1e-9);
    // The same c-dimensional eigenspace: ‖F_dᵀF_s‖²_F = c exactly when the spans agree.
    expect(rel(overlap(d.F, s.F), c), `${label} eigenspace`).toBeLessThan(1e-9);
    // F has orthonormal columns.
    expect(rel(overlap(s.F, s.F), c)).toBeLessThan(1e-12);
    expect(s.eigMisses).toBe(0);
  };

  it('ORL (n = 400, c = 40, four views)', { timeout: 60_000 }, async () => {
    const ds = await loadDataset(join(DATASETS, 'ORL/ORL.mat'));
    compare(
      ds.views.map((v) => denseValues(v, ds.n)),
      40,
      'ORL',
    );
  });

  it('synthetic n = 600, three views with missing samples mean-filled (isolated vertices)', () => {
    const ds = synthesize({ n: 600, k: 4, dims: [8, 12, 6], completeFraction: 0.6, seed: 3 });
    const { input } = fillMissing(ds);
    const views = input.views.map((v) => denseValues(v, ds.n));
    const graphs = amglGraphs(views, 5);
    expect(graphs.some((g) => g.isolated > 0)).toBe(true);
    compare(views, 4, 'synthetic');
  });
});

describe('amgl as a registered method', () => {
  const run = (ds: MultiViewDataset, raw: Record<string, number | string> = {}, k = 3) =>
    drain<SolverStep, SolverOutput>(
      amgl.run(fillMissing(ds).input, validateParams(amgl.schema, raw), k, createRng(0)),
    );

  it('has the code defaults and is registered', () => {
    expect(validateParams(amgl.schema, {})).toEqual({
      neighbors: 5,
      iterations: 100,
      tolerance: 1e-8,
      eigensolver: 'sparse',
    });
    expect(getSolver('amgl')).toBe(amgl);
    expect(amgl.input).toBe('complete');
    expect(amgl.deterministic).toBe(true);
  });

  it('recovers well separated classes, F not row-normalised, α charted per iteration', () => {
    const ds = synthesize({
      n: 300,
      k: 3,
      dims: [5, 7],
      completeFraction: 1,
      separation: 8,
      seed: 4,
    });
    const { output, steps } = run(ds);
    expect(steps[0]!.stage).toBe('prepare');
    const { rows, cols, data } = output.embedding;
    expect([rows, cols]).toEqual([300, 3]);
    expect(rel(overlap(output.embedding, output.embedding), 3)).toBeLessThan(1e-12);
    // Column sums of squares are 1, so the rows are not unit length.
    let r0 = 0;
    for (let j = 0; j < cols; j++) r0 += data[j]! ** 2;
    expect(r0).toBeLessThan(0.5);
    for (let t = 1; t < output.objective.length; t++) {
      expect(output.objective[t]!).toBeLessThanOrEqual(output.objective[t - 1]! * (1 + 1e-12));
    }
    const w = output.charts!.weights!;
    expect(w.labels).toEqual(ds.views.map((v) => v.name));
    expect(w.trace).toHaveLength(output.iterations);
    expect(w.values).toEqual(w.trace!.at(-1));
    expect(output.charts!.spectrum).toEqual({
      kind: 'bars',
      title: expect.any(String),
      values: output.diagnostics!['finalEigenvalues'],
    });
    const result = drain(evaluate(ds, amgl, {}, 3, { protocol: 'single', seed: 0 })).output;
    expect(result.metrics['ACC']!.mean).toBe(1);
  });

  it('says when mean-filled samples are isolated in a view', () => {
    const ds = synthesize({ n: 200, k: 3, dims: [4, 6], completeFraction: 0.5, seed: 5 });
    const { output } = run(ds);
    expect(output.notes.join('\n')).toMatch(/sample\(s\) without a graph neighbour/);
    expect(output.notes.join('\n')).toMatch(/imputed with the mean/);
    expect(output.embedding.data.every(Number.isFinite)).toBe(true);
  });

  it('stops at the cap without claiming convergence', () => {
    const ds = synthesize({ n: 150, k: 3, dims: [4, 6], completeFraction: 1, seed: 6 });
    const { output } = run(ds, { iterations: 2 });
    expect(output.iterations).toBe(2);
    expect(output.converged).toBe(false);
    expect(output.notes.join('\n')).toMatch(/iteration cap \(2\)/);
  });

  describe('errors name the parameter or view and what was expected', () => {
    const tiny = dataset(6, [
      denseView('colour', [0, 1, 2, 3, 4, 5], [[0], [1], [2], [10], [11], [13]]),
    ]);
    it('too many neighbours for n', () => {
      expect(() => run(tiny, { neighbors: 5 }, 2)).toThrow(
        "amgl: parameter 'neighbors' is 5, but n = 6 samples allow at most 4",
      );
    });
    it('the dense path beyond its limit', () => {
      const big = synthesize({ n: MAX_DENSE_N + 1, k: 2, dims: [1], completeFraction: 1, seed: 1 });
      expect(() => run(big, { eigensolver: 'dense' }, 2)).toThrow(
        `eigensolver 'dense' holds a dense n × n matrix and is limited to n ≤ ${MAX_DENSE_N}; n = ${MAX_DENSE_N + 1}`,
      );
    });
    it('a view without features', () => {
      const empty = dataset(6, [
        tiny.views[0]!,
        {
          name: 'blank',
          d: 0,
          present: tiny.views[0]!.present,
          values: { kind: 'dense', rows: 6, cols: 0, data: new Float64Array(0) },
        },
      ]);
      expect(() => run(empty, { neighbors: 2 }, 2)).toThrow("amgl: view 'blank' has no features");
    });
    it('a parameter out of its bounds or of its values', () => {
      expect(() => validateParams(amgl.schema, { neighbors: 0 })).toThrow(ParamError);
      expect(() => validateParams(amgl.schema, { neighbors: 0 })).toThrow(/'neighbors'.*1 to 100/);
      expect(() => validateParams(amgl.schema, { eigensolver: 'lanczos' })).toThrow(
        /'eigensolver'.*'sparse', 'dense'/,
      );
    });
  });
});
