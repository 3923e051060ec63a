/**
 * The k sweep: four well separated blobs seen in two incomplete views, without labels, give
 * k = 4 by the silhouette and by the eigengap (the views' kNN graph for a method without a
 * graph, the method's graph for one with); every solver declaring a graph hands one out; the
 * steps count the solves; the range's checks name the problem.
 */
import { describe, expect, it } from 'vitest';
import { chooseK, parseKRange, type ChooseKStep } from '../../../src/core/choose-k';
import type { MultiViewDataset } from '../../../src/core/dataset';
import { createRng } from '../../../src/core/random';
import { listSolvers } from '../../../src/core/solvers/registry';
import type { ParamValue, Solver } from '../../../src/core/solvers/types';
import { dataset, denseView } from '../../helpers/toy';

/**
 * 4 blobs of `per` samples; view a: (x, y), view b: (x + y, x − y, 1); with `missing`, each
 * view lacks a quarter of the samples (not the same ones).
 */
function fourBlobs(per: number, missing: boolean): MultiViewDataset {
  const rng = createRng(9);
  const centres = [
    [0, 0],
    [12, 0],
    [0, 12],
    [12, 12],
  ];
  const pts: number[][] = [];
  for (const [cx, cy] of centres) {
    for (let i = 0; i < per; i++) pts.push([cx! + rng.next() - 0.5, cy! + rng.next() - 0.5]);
  }
  const n = pts.length;
  const all = Array.from({ length: n }, (_, i) => i);
  const inA = missing ? all.filter((i) => i % 4 !== 3) : all;
  const inB = missing ? all.filter((i) => i % 4 !== 0) : all;
  return dataset(n, [
    denseView(
      'a',
      inA,
      inA.map((i) => pts[i]!),
    ),
    denseView(
      'b',
      inB,
      inB.map((i) => [pts[i]![0]! + pts[i]![1]!, pts[i]![0]! - pts[i]![1]!, 1]),
    ),
  ]);
}

const solverOf = (pred: (s: Solver) => boolean): Solver => listSolvers().find(pred)!;

function drain(gen: ReturnType<typeof chooseK>): {
  steps: ChooseKStep[];
  result: ReturnType<typeof chooseK> extends Generator<unknown, infer R> ? R : never;
} {
  const steps: ChooseKStep[] = [];
  let r = gen.next();
  for (; !r.done; r = gen.next()) steps.push(r.value);
  return { steps, result: r.value };
}

describe('chooseK', () => {
  const ds = fourBlobs(20, false);
  const incomplete = fourBlobs(20, true);

  it('a method without a graph: silhouette and the views’ kNN eigengap both give 4', () => {
    const solver = solverOf((s) => s.graph === undefined && s.input === 'complete');
    const { steps, result } = drain(chooseK(ds, solver, {}, { from: 2, to: 6, seed: 0 }));
    expect(result.points.map((p) => p.k)).toEqual([2, 3, 4, 5, 6]);
    expect(result.silhouetteK).toBe(4);
    expect(result.eigengap.suggested).toBe(4);
    expect(result.eigengap.source).toMatch(/neighbour graphs/);
    expect(result.eigengap.eigenvalues).toHaveLength(7);
    const s4 = result.points[2]!.silhouette!;
    expect(s4).toBeGreaterThan(0.8);
    for (const p of result.points) if (p.k !== 4) expect(p.silhouette!).toBeLessThan(s4);
    // One step per view's distances first, then one solve per k, counted 1..5, none for the graph.
    expect(steps.filter((s) => s.phase === 'views').map((s) => s.step.step.iteration)).toEqual([
      1, 2,
    ]);
    const solves = steps.filter((s) => s.phase !== 'views');
    expect(new Set(solves.map((s) => s.index))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(solves.every((s) => s.phase === 'sweep' && s.count === 5)).toBe(true);
  });

  it('a method with a graph on incomplete views: one extra solve at to + 1, its graph’s eigengap', () => {
    const solver = solverOf((s) => s.graph !== undefined && s.input === 'incomplete');
    const { steps, result } = drain(chooseK(incomplete, solver, {}, { from: 2, to: 6, seed: 0 }));
    expect(steps[0]).toMatchObject({ index: 1, count: 6, k: 7, phase: 'graph' });
    expect(steps.at(-1)).toMatchObject({ index: 6, count: 6, k: 6, phase: 'sweep' });
    expect(result.eigengap.source).toContain(`${solver.graph}, learnt at k = 7`);
    expect(result.eigengap.eigenvalues[0]).toBeCloseTo(1, 10);
    expect(result.eigengap.suggested).toBe(4);
    expect(result.silhouetteK).not.toBeNull();
    expect(result.points.every((p) => p.objective !== null)).toBe(true);
  });

  it('is reproducible from the seed', () => {
    const solver = solverOf((s) => s.graph === undefined && s.input === 'complete');
    const a = drain(chooseK(ds, solver, {}, { from: 2, to: 4, seed: 3 })).result;
    const b = drain(chooseK(ds, solver, {}, { from: 2, to: 4, seed: 3 })).result;
    expect(a).toEqual(b);
  });

  it('refuses a bad range naming it', () => {
    const solver = listSolvers()[0]!;
    const run = (from: number, to: number): unknown =>
      chooseK(ds, solver, {}, { from, to, seed: 0 }).next();
    expect(() => run(1, 5)).toThrow(/k range 1\.\.5: expected whole numbers with 2 ≤ from ≤ to/);
    expect(() => run(5, 3)).toThrow(/k range 5\.\.3/);
    expect(() => run(2, 80)).toThrow(/at most n − 1 = 79/);
  });
});

describe('every solver declaring a graph hands one out', () => {
  const ds = fourBlobs(10, false);
  for (const solver of listSolvers().filter((s) => s.graph !== undefined)) {
    it(`${solver.name}: ${solver.graph}`, () => {
      const gen = solver.run(
        { n: ds.n, views: ds.views, sampleIds: null },
        defaults(solver),
        3,
        createRng(1),
      );
      let r = gen.next();
      while (!r.done) r = gen.next();
      const g = r.value.graph;
      expect(g).toBeDefined();
      if (g!.kind === 'anchor') expect(g!.Z.rows).toBe(ds.n);
      else expect([g!.W.rows, g!.W.cols]).toEqual([ds.n, ds.n]);
    });
  }
});

function defaults(s: Solver): Record<string, ParamValue> {
  return Object.fromEntries(Object.entries(s.schema).map(([k, spec]) => [k, spec.default]));
}

describe('parseKRange', () => {
  it('reads FROM..TO, FROM-TO and one number; refuses anything else', () => {
    expect(parseKRange('2..15')).toEqual({ from: 2, to: 15 });
    expect(parseKRange(' 3-8 ')).toEqual({ from: 3, to: 8 });
    expect(parseKRange('5')).toEqual({ from: 5, to: 5 });
    expect(() => parseKRange('2..x')).toThrow("k range '2..x': expected FROM..TO, e.g. 2..15");
  });
});
