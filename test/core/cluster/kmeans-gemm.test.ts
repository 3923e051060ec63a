/**
 * The GEMM scan (kmeans-gemm.ts) decides exactly as the exact-difference scan: a plain Lloyd
 * loop written out here (every distance by exact differences, the first minimum, a move only
 * when strictly closer) gives the same SSE at every step and the same labels, on data made to
 * defeat the expansion ‖x‖² − 2x·c + ‖c‖²: small integers (exact ties everywhere), a large
 * common offset (cancellation), wide rows. The same replicates with the GEMM scan on and off,
 * and with its rows split over (in-thread) helpers, give identical results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  kmeans,
  kmeansSteps,
  setGemmScan,
  type KmeansResult,
  type KmeansStep,
} from '../../../src/core/cluster/kmeans';
import type { Mat } from '../../../src/core/linalg/types';
import { gemmScan } from '../../../src/core/cluster/kmeans-gemm';
import { scanRows, startScan, updateDistances } from '../../../src/core/cluster/kmeans-passes';
import { newWork, type Work } from '../../../src/core/cluster/kmeans-work';
import { setThreadPool, type ThreadPool } from '../../../src/core/parallel';
import { createRng } from '../../../src/core/random';
import { TASKS } from '../../../src/core/tasks';

afterEach(() => {
  setGemmScan('auto');
  setThreadPool(null);
});

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

function matrix(
  n: number,
  d: number,
  seed: number,
  value: (r: ReturnType<typeof createRng>) => number,
): Mat {
  const r = createRng(seed);
  return { rows: n, cols: d, data: Float64Array.from({ length: n * d }, () => value(r)) };
}

/** The first k pairwise distinct rows of X, as start centres. */
function distinctRows(X: Mat, k: number): Mat {
  const d = X.cols;
  const seen = new Set<string>();
  const data = new Float64Array(k * d);
  let j = 0;
  for (let i = 0; i < X.rows && j < k; i++) {
    const row = X.data.subarray(i * d, (i + 1) * d);
    const key = row.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    data.set(row, j++ * d);
  }
  return { rows: k, cols: d, data };
}

/** Plain Lloyd from `start`: the SSE of every iteration and the final labels. */
function plainLloyd(
  X: Mat,
  k: number,
  start: Float64Array,
): { sses: number[]; labels: Int32Array } {
  const { rows: n, cols: d } = X;
  const dist = (i: number, C: Float64Array, j: number): number => {
    let s = 0;
    for (let p = 0; p < d; p++) {
      const t = X.data[i * d + p]! - C[j * d + p]!;
      s += t * t;
    }
    return s;
  };
  const first = (C: Float64Array, i: number): number => {
    let best = 0;
    for (let j = 1; j < k; j++) if (dist(i, C, j) < dist(i, C, best)) best = j;
    return best;
  };
  let labels = Int32Array.from({ length: n }, (_, i) => first(start, i));
  const sses: number[] = [];
  for (let it = 0; it < 200; it++) {
    const C = new Float64Array(k * d);
    const count = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      count[labels[i]!]!++;
      for (let p = 0; p < d; p++) C[labels[i]! * d + p]! += X.data[i * d + p]!;
    }
    expect(count.every((c) => c > 0)).toBe(true);
    for (let j = 0; j < k; j++) for (let p = 0; p < d; p++) C[j * d + p]! /= count[j]!;
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
  return { sses, labels };
}

/** A pool whose helpers run the task here, on a structured clone of the input (as a thread). */
const inThreadPool: ThreadPool = (() => {
  const out: unknown[] = [];
  return {
    helpers: 2,
    start(h, task, input) {
      const f = TASKS[task] as (x: unknown) => unknown;
      out[h] = structuredClone(f(structuredClone(input)));
    },
    finish: (h) => out[h],
  };
})();

describe('k-means with GEMM distances', () => {
  it("makes the exact scan's decisions on exact ties (one scan, integer rows and centres)", () => {
    // Integer rows and centres: every squared distance is an exact small integer, so ties
    // between centres, and between a row's own centre and a lower one, are everywhere; the
    // centred expansion rounds them apart, and only the exact re-check restores the rule
    // (first minimum; a move only when strictly closer).
    const n = 3000;
    const k = 7;
    const X = matrix(n, 20, 7, (r) => r.int(5));
    const r = createRng(8);
    const centres = Float64Array.from({ length: k * 20 }, () => r.int(5));
    const scan = (how: 'gemm' | 'exact'): Work => {
      const w = newWork(X, k);
      w.C.set(centres);
      for (let i = 0; i < n; i++) w.labels[i] = i % k;
      startScan(w);
      if (how === 'gemm') gemmScan(w, false);
      else {
        for (let j = 0; j < k; j++) w.changed[j] = j;
        updateDistances(w, k, false);
        scanRows(w, 0, n);
      }
      return w;
    };
    const a = scan('exact');
    const b = scan('gemm');
    let ties = 0;
    for (let i = 0; i < n; i++) {
      const row = a.D.subarray(i * k, (i + 1) * k);
      const min = Math.min(...row);
      if (row.filter((v) => v === min).length > 1) ties++;
    }
    expect(ties).toBeGreaterThan(50);
    expect(b.sse).toBe(a.sse);
    expect(b.moves).toBe(a.moves);
    expect(Array.from(b.moveRow.subarray(0, b.moves))).toEqual(
      Array.from(a.moveRow.subarray(0, a.moves)),
    );
    expect(Array.from(b.moveTo.subarray(0, b.moves))).toEqual(
      Array.from(a.moveTo.subarray(0, a.moves)),
    );
    expect(Array.from(b.nextSums)).toEqual(Array.from(a.nextSums));
  });

  const cases: [string, Mat, number][] = [
    ['integers 0..3, d = 20 (exact ties)', matrix(3000, 20, 1, (r) => r.int(4)), 6],
    ['integers 0..2, d = 3', matrix(2000, 3, 2, (r) => r.int(3)), 5],
    ['offset 1e6 + U(0,1), d = 24', matrix(2500, 24, 3, (r) => 1e6 + r.next()), 7],
    ['normal, d = 300', matrix(600, 300, 4, (r) => r.normal()), 9],
  ];
  it.each(cases)('equals the exact plain Lloyd loop step by step: %s', (_, X, k) => {
    const start = distinctRows(X, k);
    const ref = plainLloyd(X, k, start.data);
    for (const policy of ['always', 'never'] as const) {
      setGemmScan(policy);
      const { steps, result } = drain(
        kmeansSteps(X, k, { start, maxIterations: 200 }, createRng(1)),
      );
      expect(steps.map((s) => s.sse)).toEqual(ref.sses);
      expect(Array.from(result.labels)).toEqual(Array.from(ref.labels));
    }
    expect(ref.sses.length).toBeGreaterThan(2);
  });

  it('gives the same replicates with the GEMM scan on or off, with or without helpers', () => {
    for (const [X, k] of [
      [matrix(5000, 20, 5, (r) => r.next()), 10],
      [matrix(3000, 40, 6, (r) => r.int(3)), 8],
    ] as const) {
      const runs = (['never', 'always', 'pool'] as const).map((how) => {
        setGemmScan(how === 'never' ? 'never' : 'always', 0);
        setThreadPool(how === 'pool' ? inThreadPool : null);
        // One replicate per call, so the helpers split rows rather than take replicates.
        return [1, 2, 3].map((seed) => kmeans(X, k, {}, createRng(seed)));
      });
      for (const run of runs.slice(1)) {
        run.forEach((r, i) => {
          expect(r.sse).toBe(runs[0]![i]!.sse);
          expect(r.iterations).toBe(runs[0]![i]!.iterations);
          expect(Array.from(r.labels)).toEqual(Array.from(runs[0]![i]!.labels));
          expect(Array.from(r.centers.data)).toEqual(Array.from(runs[0]![i]!.centers.data));
        });
      }
    }
  });
});
