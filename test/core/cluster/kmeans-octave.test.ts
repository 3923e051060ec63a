/**
 * The Octave-rule k-means (cluster/kmeans-octave.ts) against GNU Octave 7.3 with statistics
 * 1.5.3 itself: test/fixtures/kmeans-octave/octave-kmeans.json, made by make.m beside it from
 * explicit starts (no random draws), so labels, centres and per-cluster sums must agree. The
 * 'carry' case is the replicate rule the records depend on: replicate 1 ends at a poor optimum
 * with a last decrease of 0, replicate 2 is never iterated, and its raw start wins.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KmeansResult, KmeansStep } from '../../../src/core/cluster/kmeans';
import { kmeansOctaveSteps } from '../../../src/core/cluster/kmeans-octave';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

interface OctaveCase {
  name: string;
  X: number[][];
  k: number;
  maxiter: number;
  starts: number[][][];
  labels: number[];
  centers: number[][];
  sumd: number[];
}
const here = dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(
  readFileSync(join(here, '../../fixtures/kmeans-octave/octave-kmeans.json'), 'utf8'),
) as { octave: string; statistics: string; cases: OctaveCase[] };

const toMat = (rows: number[][]): Mat => ({
  rows: rows.length,
  cols: rows[0]!.length,
  data: Float64Array.from(rows.flat()),
});

function run(c: OctaveCase): { steps: KmeansStep[]; result: KmeansResult } {
  const g = kmeansOctaveSteps(
    toMat(c.X),
    c.k,
    {
      replicates: c.starts.length,
      maxIterations: c.maxiter,
      starts: c.starts.map((s) => Float64Array.from(s.flat())),
    },
    createRng(0),
  );
  const steps: KmeansStep[] = [];
  for (;;) {
    const r = g.next();
    if (r.done) return { steps, result: r.value };
    steps.push(r.value);
  }
}

const byName = (name: string): OctaveCase => fixture.cases.find((c) => c.name === name)!;

describe('kmeansOctaveSteps against GNU Octave statistics 1.5.3', () => {
  it('the fixture was made by that version', () => {
    expect(fixture.statistics).toBe('1.5.3');
    expect(fixture.cases.map((c) => c.name)).toEqual(['carry', 'capped', 'singleton', 'random']);
  });

  for (const c of fixture.cases) {
    it(`${c.name}: the same labels, centres and sums as Octave`, () => {
      const { result } = run(c);
      expect(Array.from(result.labels)).toEqual(c.labels);
      const centers = c.centers.flat();
      result.centers.data.forEach((v, i) => expect(v).toBeCloseTo(centers[i]!, 12));
      const total = c.sumd.reduce((a, b) => a + b, 0);
      expect(Math.abs(result.sse - total)).toBeLessThan(1e-12 * total);
    });
  }

  it('carry: only the first replicate iterates; the second one’s raw start is returned', () => {
    const c = byName('carry');
    const { steps, result } = run(c);
    expect(new Set(steps.map((s) => s.replicate))).toEqual(new Set([0]));
    expect(result.replicate).toBe(1);
    expect(result.iterations).toBe(0);
    expect(Array.from(result.centers.data)).toEqual(c.starts[1]!.flat());
    // Replicate 1's poor optimum (one centre for two blobs) has the larger sum.
    expect(result.replicateSse[0]).toBeGreaterThan(5 * result.replicateSse[1]!);
  });

  it('capped: a replicate cut by maxiter leaves err high, so every replicate iterates', () => {
    const { steps, result } = run(byName('capped'));
    expect(new Set(steps.map((s) => s.replicate))).toEqual(new Set([0, 1, 2]));
    expect(steps.every((s) => s.iteration === 1)).toBe(true);
    expect(result.converged).toBe(false);
  });

  it('rejects starts of the wrong shape', () => {
    const c = byName('carry');
    const g = kmeansOctaveSteps(
      toMat(c.X),
      3,
      { replicates: 2, maxIterations: 10, starts: [new Float64Array(6)] },
      createRng(0),
    );
    expect(() => g.next()).toThrow(/'starts' must hold 2 arrays of k·d = 6 values/);
  });

  it('seeds from the stream when no starts are given, the same draws giving the same result', () => {
    const c = byName('random');
    const go = (seed: number) => {
      const g = kmeansOctaveSteps(
        toMat(c.X),
        c.k,
        { replicates: 5, maxIterations: 100 },
        createRng(seed),
      );
      let r = g.next();
      while (!r.done) r = g.next();
      return r.value;
    };
    const a = go(3);
    expect(Array.from(go(3).labels)).toEqual(Array.from(a.labels));
    expect(new Set(a.labels).size).toBe(c.k);
  });
});
