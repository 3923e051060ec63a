/**
 * The run driver (src/backend/drive.ts) on a hand-checkable fake solver: which stages it
 * times, the first seed's traces it keeps, the first output it catches, that an async host's
 * `beforeStep` runs before every `next()` and stops the run by throwing. No timed assertions.
 */
import { describe, expect, it } from 'vitest';
import { drive } from '../../src/backend/drive';
import type { MultiViewDataset } from '../../src/core/dataset';
import { defineSolver } from '../../src/core/solvers/types';

/** 4 samples in two well-separated pairs, one complete view of d = 1. */
const ds: MultiViewDataset = {
  n: 4,
  views: [
    {
      name: 'x',
      d: 1,
      values: { kind: 'dense', rows: 4, cols: 1, data: Float64Array.from([0, 0.1, 10, 10.1]) },
      present: Int32Array.from([0, 1, 2, 3]),
    },
  ],
  labels: null,
  sampleIds: null,
  provenance: {
    file: 'toy',
    format: 'fake',
    variables: [],
    orientation: [],
    missingness: 'natural',
    decisions: [],
    warnings: [],
  },
};

let solves = 0;
/** Three 'solve' iterations with objectives 3, 2, 1, returning the view itself as embedding. */
const toy = defineSolver({
  name: 'toy',
  title: 'Toy',
  description: 'three iterations, then the data as its embedding',
  schema: {} as const,
  deterministic: false,
  input: 'incomplete',
  monotone: true,
  iterationCap: () => 3,
  cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
  footprint: () => ({ bytes: 0, quadratic: false, note: 'nothing' }),
  run: function* (input) {
    solves++;
    for (let i = 1; i <= 3; i++) yield { stage: 'solve', iteration: i, objective: 4 - i };
    const v = input.views[0]!.values;
    if (v.kind !== 'dense') throw new Error('dense only');
    return {
      embedding: { rows: 4, cols: 1, data: v.data },
      objective: [3, 2, 1],
      converged: true,
      iterations: 3,
      notes: [],
      charts: { weights: { title: 'w', labels: ['x'], values: [1] } },
    };
  },
});

describe('drive', () => {
  it('times every stage, keeps the first seed’s traces and the first output', async () => {
    solves = 0;
    let before = 0;
    const steps: string[] = [];
    const d = await drive(
      ds,
      toy,
      {},
      2,
      { protocol: 'paper', seed: 5, seeds: 2, replicates: 1 },
      {
        beforeStep: async () => {
          before++;
        },
        onStep: (s) => steps.push(`${s.seedIndex}:${s.step.stage}`),
      },
    );
    expect(solves).toBe(2);
    // One beforeStep per next(): every step, and the one that returned the result.
    expect(before).toBe(steps.length + 1);
    expect(Object.keys(d.stageSeconds)).toEqual(['solve', 'kmeans', 'metrics']);
    expect(Object.values(d.stageSeconds).every((s) => s >= 0)).toBe(true);
    expect(d.solve_s).toBe(d.stageSeconds['solve']);
    expect(d.kmeans_s).toBe(d.stageSeconds['kmeans']);
    // The solver's objective per iteration, the closing step (values.end) left out; seed 2's
    // steps are not traced.
    expect(d.traces['solve']).toEqual([3, 2, 1]);
    expect(steps.filter((s) => s === '2:solve').length).toBeGreaterThan(0);
    expect(d.firstOutput?.charts).toEqual({ weights: { title: 'w', labels: ['x'], values: [1] } });
    expect(d.result.seeds).toEqual([5, 6]);
    expect(d.result.labels[0]).toBe(d.result.labels[1]);
    expect(d.result.labels[2]).toBe(d.result.labels[3]);
    expect(d.result.labels[0]).not.toBe(d.result.labels[2]);
  });

  it('keeps each seed’s traces and hands every solve’s output to onOutput, in order', async () => {
    const outputs: number[] = [];
    const d = await drive(
      ds,
      toy,
      {},
      2,
      { protocol: 'paper', seed: 5, seeds: 3, replicates: 1 },
      { onOutput: (o) => outputs.push(o.iterations) },
    );
    expect(outputs).toEqual([3, 3, 3]);
    expect(d.seedTraces).toHaveLength(3);
    expect(d.seedTraces[0]).toBe(d.traces);
    for (const t of d.seedTraces) {
      expect(t['solve']).toEqual([3, 2, 1]);
      expect(t['kmeans']?.length).toBeGreaterThan(0);
    }
  });

  it('without beforeStep it never awaits; a throwing beforeStep stops the run', async () => {
    const plain = await drive(ds, toy, {}, 2, { protocol: 'single', seed: 1 });
    expect(plain.traces['solve']).toEqual([3, 2, 1]);
    let calls = 0;
    const stopped = drive(
      ds,
      toy,
      {},
      2,
      { protocol: 'single', seed: 1 },
      {
        beforeStep: async () => {
          if (++calls === 3) throw new Error('cancelled');
        },
      },
    );
    await expect(stopped).rejects.toThrow('cancelled');
    expect(calls).toBe(3);
  });
});
