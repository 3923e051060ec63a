/**
 * k-means: the same partition as scikit-learn's KMeans on clear Gaussian mixtures
 * (test/fixtures/metrics/make.py -> sklearn.json), determinism per seed, MATLAB's 'singleton'
 * empty-cluster action on hand-made cases, the generator's steps, and the model identities.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  kmeans,
  kmeansSteps,
  type KmeansResult,
  type KmeansStep,
} from '../../../src/core/cluster/kmeans';
import type { Mat } from '../../../src/core/linalg/types';
import { clusteringMetrics } from '../../../src/core/metrics';
import { createRng } from '../../../src/core/random';

interface Fixture {
  kmeans: { name: string; k: number; X: number[][]; labels: number[]; inertia: number }[];
}
const here = dirname(fileURLToPath(import.meta.url));
const sk = JSON.parse(
  readFileSync(join(here, '../../fixtures/metrics/sklearn.json'), 'utf8'),
) as Fixture;

const toMat = (rows: number[][]): Mat => ({
  rows: rows.length,
  cols: rows[0]!.length,
  data: Float64Array.from(rows.flat()),
});

function uniform(n: number, d: number, seed: number): Mat {
  const r = createRng(seed);
  return { rows: n, cols: d, data: Float64Array.from({ length: n * d }, () => r.next()) };
}

/** Drains the generator: its steps and its result. */
function drain(g: Generator<KmeansStep, KmeansResult, void>): {
  steps: KmeansStep[];
  result: KmeansResult;
} {
  const steps: KmeansStep[] = [];
  for (;;) {
    const s = g.next();
    if (s.done) return { steps, result: s.value };
    steps.push(s.value);
  }
}

/** Means of the rows of each cluster, and the SSE, computed independently of kmeans.ts. */
function model(X: Mat, labels: Int32Array, k: number): { means: Float64Array; sse: number } {
  const d = X.cols;
  const means = new Float64Array(k * d);
  const counts = new Float64Array(k);
  labels.forEach((l, i) => {
    counts[l]!++;
    for (let p = 0; p < d; p++) means[l * d + p]! += X.data[i * d + p]!;
  });
  for (let j = 0; j < k; j++) for (let p = 0; p < d; p++) means[j * d + p]! /= counts[j]!;
  let sse = 0;
  labels.forEach((l, i) => {
    for (let p = 0; p < d; p++) sse += (X.data[i * d + p]! - means[l * d + p]!) ** 2;
  });
  return { means, sse };
}

describe('k-means against scikit-learn on clear Gaussian mixtures', () => {
  it.each(sk.kmeans.map((c) => [c.name, c] as const))(
    '%s: the same partition and SSE = inertia to 1e-10',
    (_n, c) => {
      const X = toMat(c.X);
      const res = kmeans(X, c.k, { replicates: 5 }, createRng(1));
      const m = clusteringMetrics(c.labels, res.labels);
      expect([m.ACC, m.ARI]).toEqual([1, 1]);
      expect(Math.abs(res.sse - c.inertia) / c.inertia).toBeLessThan(1e-10);
      expect(res.converged).toBe(true);
    },
  );
});

describe('k-means behaviour', () => {
  it('gives identical results for the same seed, and uses the seed', () => {
    const X = uniform(500, 3, 2);
    const a = kmeans(X, 6, { replicates: 3 }, createRng(7));
    const b = kmeans(X, 6, { replicates: 3 }, createRng(7));
    expect(a).toEqual(b);
    const others = [8, 9, 10, 11].map((s) => kmeans(X, 6, {}, createRng(s)).sse);
    expect(new Set([a.sse, ...others]).size).toBeGreaterThan(1);
  });

  it('keeps the replicate with the lowest SSE', () => {
    const X = uniform(400, 2, 3);
    const res = kmeans(X, 8, { replicates: 6 }, createRng(1));
    expect(res.replicateSse).toHaveLength(6);
    expect(res.sse).toBe(Math.min(...res.replicateSse));
    expect(res.replicateSse[res.replicate]).toBe(res.sse);
  });

  it('yields one step per iteration with a non-increasing SSE; the final model is consistent', () => {
    const X = uniform(2000, 4, 4);
    const k = 7;
    const { steps, result } = drain(kmeansSteps(X, k, { replicates: 3 }, createRng(2)));
    for (let r = 0; r < 3; r++) {
      const mine = steps.filter((s) => s.replicate === r);
      expect(mine.map((s) => s.iteration)).toEqual(mine.map((_, i) => i + 1));
      for (let t = 1; t < mine.length; t++) expect(mine[t]!.sse).toBeLessThan(mine[t - 1]!.sse);
    }
    const winner = steps.filter((s) => s.replicate === result.replicate);
    expect(winner).toHaveLength(result.iterations);
    expect(result.stop).toBe('no-change');
    expect(winner.at(-1)!.changed).toBe(0);
    expect(winner.at(-1)!.sse).toBe(result.sse);
    // Centres are the means of the labels; every row sits at its nearest centre.
    const { means, sse } = model(X, result.labels, k);
    expect(Math.abs(sse - result.sse) / sse).toBeLessThan(1e-12);
    result.centers.data.forEach((c, i) => expect(c).toBeCloseTo(means[i]!, 12));
    let misplaced = 0;
    result.labels.forEach((l, i) => {
      const dist = (j: number): number => {
        let s = 0;
        for (let p = 0; p < 4; p++)
          s += (X.data[i * 4 + p]! - result.centers.data[j * 4 + p]!) ** 2;
        return s;
      };
      for (let j = 0; j < k; j++) if (dist(j) < dist(l)) misplaced++;
    });
    expect(misplaced).toBe(0);
  });

  it('equals a plain Lloyd loop written out here, step by step (the pruned scan changes nothing)', () => {
    // Overlapping blobs and uniform data: many iterations, so the bounds (Hamerly) do the work
    // from iteration 2 on. The plain loop computes every distance every time.
    const r = createRng(11);
    const blobs = (n: number, d: number, k: number, spread: number): Mat => {
      const centres = Array.from({ length: k * d }, () => r.normal() * spread);
      return {
        rows: n,
        cols: d,
        data: Float64Array.from({ length: n * d }, (_, t) => {
          const i = Math.floor(t / d);
          return centres[(i % k) * d + (t % d)]! + r.normal();
        }),
      };
    };
    for (const [X, k] of [
      [blobs(1500, 3, 6, 1.5), 6],
      [blobs(800, 7, 9, 0.8), 9],
      [uniform(1200, 2, 5), 5],
    ] as const) {
      const n = X.rows;
      const d = X.cols;
      const dist = (i: number, C: Float64Array, j: number): number => {
        let s = 0;
        for (let p = 0; p < d; p++) {
          const t = X.data[i * d + p]! - C[j * d + p]!;
          s += t * t;
        }
        return s;
      };
      const start = Float64Array.from(X.data.subarray(0, k * d)); // rows 0..k−1 as centres
      const { steps, result } = drain(
        kmeansSteps(
          X,
          k,
          { start: { rows: k, cols: d, data: start }, maxIterations: 500 },
          createRng(1),
        ),
      );
      // The plain loop: assign, then (centres = means, SSE, move when strictly closer).
      const first = (C: Float64Array, i: number): number => {
        let best = 0;
        for (let j = 1; j < k; j++) if (dist(i, C, j) < dist(i, C, best)) best = j;
        return best;
      };
      let labels = Int32Array.from({ length: n }, (_, i) => first(start, i));
      const sses: number[] = [];
      for (;;) {
        const C = new Float64Array(k * d);
        const count = new Float64Array(k);
        for (let i = 0; i < n; i++) {
          count[labels[i]!]!++;
          for (let p = 0; p < d; p++) C[labels[i]! * d + p]! += X.data[i * d + p]!;
        }
        for (let j = 0; j < k; j++) for (let p = 0; p < d; p++) C[j * d + p]! /= count[j]!;
        expect(count.every((c) => c > 0)).toBe(true);
        let sse = 0;
        for (let i = 0; i < n; i++) sse += dist(i, C, labels[i]!);
        if (sses.length && sses.at(-1)! <= sse) break;
        sses.push(sse);
        const next = labels.map((l, i) => {
          const b = first(C, i);
          return dist(i, C, b) < dist(i, C, l) ? b : l;
        });
        if (next.every((l, i) => l === labels[i])) break;
        labels = next;
      }
      expect(steps.map((s) => s.sse)).toEqual(sses);
      expect(Array.from(result.labels)).toEqual(Array.from(labels));
      expect(steps.length).toBeGreaterThan(8);
    }
  });

  it('stops at maxIterations, not converged, centres still the means of the labels', () => {
    const X = uniform(3000, 2, 5);
    const { steps, result } = drain(kmeansSteps(X, 12, { maxIterations: 3 }, createRng(3)));
    expect(steps).toHaveLength(3);
    expect(result).toMatchObject({ iterations: 3, converged: false, stop: 'max-iterations' });
    expect(steps[2]!.changed).toBeGreaterThan(0);
    const { means, sse } = model(X, result.labels, 12);
    result.centers.data.forEach((c, i) => expect(c).toBeCloseTo(means[i]!, 12));
    expect(result.sse).toBeCloseTo(sse, 9);
  });

  it("fills an empty cluster with the farthest row ('singleton'), by hand", () => {
    // Start centres 0, 0, 11: ties go to the lowest index, so cluster 1 starts empty. Iteration 1:
    // centres 1 (rows 0..2) and 23.67 (rows 3..5); the farthest row from its centre is 50
    // ((50 − 23.67)² = 693), which becomes cluster 1; cluster 2 is recomputed as 10.5.
    const X: Mat = { rows: 6, cols: 1, data: Float64Array.of(0, 1, 2, 10, 11, 50) };
    const start: Mat = { rows: 3, cols: 1, data: Float64Array.of(0, 0, 11) };
    const { steps, result } = drain(kmeansSteps(X, 3, { start }, createRng(1)));
    expect(Array.from(result.labels)).toEqual([0, 0, 0, 2, 2, 1]);
    expect(Array.from(result.centers.data)).toEqual([1, 50, 10.5]);
    expect(result.sse).toBe(2.5);
    expect(steps).toEqual([{ replicate: 0, iteration: 1, sse: 2.5, changed: 0 }]);
  });

  it("takes a row from a cluster with ≥ 2 members when the farthest row is alone ('singleton')", () => {
    // All distances are 0; the first farthest row (row 0) is alone in cluster 0, so the first
    // row of the first cluster with ≥ 2 members (row 1 of cluster 2) moves to cluster 1.
    const X: Mat = { rows: 3, cols: 1, data: Float64Array.of(5, 0, 0) };
    const start: Mat = { rows: 3, cols: 1, data: Float64Array.of(5, 5, 0) };
    const res = kmeans(X, 3, { start }, createRng(1));
    expect(Array.from(res.labels)).toEqual([0, 1, 2]);
    expect(res.sse).toBe(0);
  });

  it('copes with fewer distinct rows than k (k-means++ falls back to uniform picks)', () => {
    const X: Mat = { rows: 6, cols: 2, data: Float64Array.of(1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4) };
    const res = kmeans(X, 4, { replicates: 2 }, createRng(9));
    expect(res.sse).toBe(0);
    expect(new Set(res.labels).size).toBe(4);
    const m = clusteringMetrics([0, 0, 0, 1, 1, 1], res.labels);
    expect(m.Purity).toBe(1);
  });

  it('k = 1 and k = n', () => {
    const X = uniform(10, 2, 6);
    expect(kmeans(X, 1, {}, createRng(1)).labels).toEqual(new Int32Array(10));
    const all = kmeans(X, 10, {}, createRng(1));
    expect(all.sse).toBe(0);
    expect(new Set(all.labels).size).toBe(10);
  });

  it('rejects bad input before the first step, with clear messages', () => {
    const X = uniform(5, 2, 1);
    const rng = createRng(1);
    expect(() => kmeansSteps(X, 6, {}, rng)).toThrow(/k must be an integer in 1\.\.5/);
    expect(() => kmeansSteps(X, 0, {}, rng)).toThrow(/k must be an integer in 1\.\.5/);
    expect(() => kmeansSteps(X, 2, { replicates: 0 }, rng)).toThrow(/replicates must be/);
    expect(() => kmeansSteps(X, 2, { maxIterations: 1.5 }, rng)).toThrow(/maxIterations must/);
    const bad: Mat = { rows: 2, cols: 1, data: Float64Array.of(1, NaN) };
    expect(() => kmeansSteps(bad, 1, {}, rng)).toThrow(/X\(1, 0\) is NaN/);
    const start: Mat = { rows: 2, cols: 1, data: Float64Array.of(0, 1) };
    expect(() => kmeansSteps(X, 2, { start }, rng)).toThrow(/start centres are 2x1, expected 2x2/);
    const start2: Mat = { rows: 2, cols: 2, data: new Float64Array(4) };
    expect(() => kmeansSteps(X, 2, { start: start2, replicates: 2 }, rng)).toThrow(
      /only 1 replicate/,
    );
  });
});
