/**
 * A kept result's seeds (src/backend/seeds.ts): the first seed's result is returned as kept;
 * another seed's replaces the clusters, confusion, traces and iterations, and the solve's
 * objective, projection and charts only when that seed had its own solve; an unknown seed is
 * refused naming the run's seeds.
 */
import { describe, expect, it } from 'vitest';
import { seedResult, seedViewBytes, type StoredResult } from '../../src/backend/seeds';
import type { RunResult } from '../../src/shared/contract';
import type { SeedView } from '../../src/shared/worker-protocol';

const first: RunResult = {
  id: 'r1',
  method: 'toy',
  k: 2,
  params: {},
  protocol: 'paper',
  seeds: [4, 5, 6],
  preprocess: 'none',
  fill: null,
  metrics: { ACC: { mean: 0.8, std: 0.1 } },
  perSeed: [
    { seed: 4, metrics: { ACC: 0.9 } },
    { seed: 5, metrics: { ACC: 0.8 } },
    { seed: 6, metrics: { ACC: 0.7 } },
  ],
  seed: 4,
  sharedSolve: false,
  objective: [3, 2],
  traces: { kmeans: [9, 8] },
  iterations: 2,
  converged: true,
  notes: [],
  stages: [],
  totalSeconds: 1,
  projection: {
    x: Float32Array.of(0, 1, 2),
    y: Float32Array.of(0, 0, 0),
    explained: [1, 0],
    dims: 2,
  },
  clusters: Uint8Array.of(0, 0, 1),
  truth: Uint8Array.of(0, 0, 1),
  classes: ['a', 'b'],
  missingViews: new Uint8Array(3),
  sampleIds: null,
  confusion: {
    counts: [
      [2, 0],
      [0, 1],
    ],
    clusterOrder: [0, 1],
  },
  charts: { weights: { title: 'w', labels: ['v1'], values: [1] } },
  diagnostics: {},
  bundle: null,
};

/** Seed 5 with its own solve; seed 6 sharing the first solve. */
const own: SeedView = {
  clusters: Uint8Array.of(1, 0, 1),
  confusion: {
    counts: [
      [1, 1],
      [0, 1],
    ],
    clusterOrder: [1, 0],
  },
  traces: { kmeans: [7] },
  solve: {
    objective: [5, 4, 3],
    projection: {
      x: Float32Array.of(2, 1, 0),
      y: Float32Array.of(1, 1, 1),
      explained: [0.6, 0.4],
      exact: true,
      dims: 2,
    },
    charts: { weights: { title: 'w', labels: ['v1'], values: [0.5] } },
  },
};
const shared: SeedView = {
  clusters: Uint8Array.of(1, 1, 0),
  confusion: {
    counts: [
      [0, 2],
      [1, 0],
    ],
    clusterOrder: [1, 0],
  },
  traces: { kmeans: [6, 5] },
  solve: null,
};
const stored: StoredResult = { first, iterations: [2, 3, 2], others: [own, shared] };

describe('seedResult', () => {
  it('returns the first seed’s result as kept', () => {
    expect(seedResult(stored, 4)).toBe(first);
  });

  it('gives a seed with its own solve its clusters, confusion, traces, objective, projection and charts', () => {
    const r = seedResult(stored, 5);
    expect(r.seed).toBe(5);
    expect(Array.from(r.clusters)).toEqual([1, 0, 1]);
    expect(r.confusion).toEqual(own.confusion);
    expect(r.traces).toEqual({ kmeans: [7] });
    expect(r.iterations).toBe(3);
    expect(r.objective).toEqual([5, 4, 3]);
    expect(Array.from(r.projection.x)).toEqual([2, 1, 0]);
    expect(r.projection.explained).toEqual([0.6, 0.4]);
    expect(r.charts).toEqual({ weights: { title: 'w', labels: ['v1'], values: [0.5] } });
    // What does not depend on the seed stays the run's.
    expect(r.metrics).toBe(first.metrics);
    expect(r.truth).toBe(first.truth);
  });

  it('keeps the first solve’s objective, projection and charts for a seed that shared it', () => {
    const r = seedResult(stored, 6);
    expect(r.seed).toBe(6);
    expect(Array.from(r.clusters)).toEqual([1, 1, 0]);
    expect(r.confusion).toEqual(shared.confusion);
    expect(r.traces).toEqual({ kmeans: [6, 5] });
    expect(r.objective).toBe(first.objective);
    expect(r.projection).toBe(first.projection);
    expect(r.charts).toBe(first.charts);
  });

  it('refuses a seed the run did not use, naming its seeds', () => {
    expect(() => seedResult(stored, 7)).toThrow('run r1 has no seed 7; its seeds are 4 to 6');
    try {
      seedResult(stored, 7);
    } catch (e) {
      expect((e as Error).name).toBe('NotFound');
    }
  });

  it('counts a seed with its own solve as more bytes than one that shares it', () => {
    expect(seedViewBytes(own)).toBeGreaterThan(seedViewBytes(shared));
    expect(seedViewBytes(shared)).toBeGreaterThanOrEqual(3);
  });
});
