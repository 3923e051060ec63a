/**
 * Hamerly's scan fused on WebAssembly SIMD (cluster/hamerly-kernel.ts, wasm/hamerly.wat): the
 * committed module is the build of its source; from the same state, one scan on the module and
 * one in the plain TypeScript loop (`boundedScan` with the module switched off) give the same
 * bits in every output (bounds, next sums and counts, SSE, moves, rows not skipped) on random
 * states (odd and even d and k, a mix of skipped and rescanned rows) and on tie toys (rows
 * equidistant from two centres, duplicated centres); a call never reads another call's X;
 * the scan split with a helper (its rows' sums added here in row order) gives the one-thread
 * scan's bits; and whole k-means runs give the same labels, SSEs and centres with either loop,
 * with or without a helper.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { builtWat } from '../../helpers/wasm-build';
import {
  hamerlyBackend,
  releaseHamerlyData,
  setHamerlyBackend,
} from '../../../src/core/cluster/hamerly-kernel';
import { kmeans, setGemmScan } from '../../../src/core/cluster/kmeans';
import { boundedScan } from '../../../src/core/cluster/kmeans-bounds';
import { startScan } from '../../../src/core/cluster/kmeans-passes';
import { newWork, type Work } from '../../../src/core/cluster/kmeans-work';
import type { Mat } from '../../../src/core/linalg/types';
import { setThreadPool, type ThreadPool } from '../../../src/core/parallel';
import { createRng } from '../../../src/core/random';
import { TASKS } from '../../../src/core/tasks';
import { HAMERLY_WASM } from '../../../src/core/cluster/wasm/hamerly-wasm';

afterEach(() => {
  setHamerlyBackend('wasm');
  releaseHamerlyData();
  setGemmScan('auto');
  setThreadPool(null);
});

/**
 * A pool whose helper runs the task here, on a structured clone of the input (as a thread:
 * shared memory stays shared), counting the tasks it ran.
 */
function inThreadPool(): ThreadPool & { ran: number; tasks: Set<string> } {
  const out: unknown[] = [];
  return {
    helpers: 1,
    ran: 0,
    tasks: new Set(),
    start(h, task, input) {
      this.ran++;
      this.tasks.add(task);
      const f = TASKS[task] as (x: unknown) => unknown;
      out[h] = structuredClone(f(structuredClone(input)));
    },
    finish: (h) => out[h],
  };
}

function blobs(n: number, d: number, seed: number): Mat {
  const r = createRng(seed);
  return {
    rows: n,
    cols: d,
    data: Float64Array.from({ length: n * d }, () => r.next() - 0.5 + r.int(3)),
  };
}

/**
 * A scan state on X: centres near random rows, prevC a small move away, random labels and
 * bounds scattered around the true second distance (so some rows pass the test, some fail).
 */
function state(X: Mat, k: number, seed: number, C?: Float64Array, lowerScale = 1): Work {
  const r = createRng(seed);
  const { rows: n, cols: d, data } = X;
  const w = newWork(X, k);
  if (C) w.C.set(C);
  else
    for (let j = 0; j < k; j++)
      for (let p = 0; p < d; p++) w.C[j * d + p] = data[r.int(n) * d + p]! + 0.01 * r.next();
  for (let q = 0; q < k * d; q++) w.prevC[q] = w.C[q]! + 1e-3 * (r.next() - 0.5);
  for (let i = 0; i < n; i++) {
    w.labels[i] = r.int(k);
    w.lower[i] = lowerScale * 3 * Math.sqrt(d) * r.next();
  }
  return w;
}

/** A copy of w's scan state on a fresh Work (same X). */
function copy(w: Work): Work {
  const c = newWork(w.X, w.k);
  c.C.set(w.C);
  c.prevC.set(w.prevC);
  c.labels.set(w.labels);
  c.lower.set(w.lower);
  return c;
}

/** One scan of w with the given loop. */
function scan(w: Work, backend: 'wasm' | 'ts'): Work {
  expect(setHamerlyBackend(backend)).toBe(backend);
  startScan(w);
  boundedScan(w);
  return w;
}

function expectSame(a: Work, b: Work): void {
  expect(a.sse).toBe(b.sse);
  expect(a.moves).toBe(b.moves);
  expect(a.unskipped).toBe(b.unskipped);
  expect(Array.from(a.moveRow.subarray(0, a.moves))).toEqual(
    Array.from(b.moveRow.subarray(0, b.moves)),
  );
  expect(Array.from(a.moveTo.subarray(0, a.moves))).toEqual(
    Array.from(b.moveTo.subarray(0, b.moves)),
  );
  expect(Array.from(a.lower)).toEqual(Array.from(b.lower));
  expect(Array.from(a.nextSums)).toEqual(Array.from(b.nextSums));
  expect(Array.from(a.nextCounts)).toEqual(Array.from(b.nextCounts));
}

describe('the wasm module', () => {
  it('is the committed build of hamerly.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/cluster/wasm/hamerly.wat', import.meta.url);
    expect(Array.from(HAMERLY_WASM)).toEqual(await builtWat(wat));
  });

  it('is the default loop on this engine (Node has WebAssembly SIMD)', () => {
    expect(hamerlyBackend()).toBe('wasm');
  });
});

describe("the fused scan equals boundedScan's TypeScript loop bit for bit", () => {
  for (const [n, d, k] of [
    [1, 1, 3],
    [37, 1, 3],
    [200, 2, 4],
    [301, 3, 5],
    [257, 7, 10],
    [500, 20, 10],
    [120, 49, 7],
  ] as const) {
    it(`random state, n = ${n}, d = ${d}, k = ${k}: some rows skipped, some rescanned`, () => {
      const w = state(blobs(n, d, n + d), k, 7 * k);
      const a = scan(copy(w), 'wasm');
      const b = scan(copy(w), 'ts');
      expectSame(a, b);
      expect(b.nextCounts.reduce((s, c) => s + c, 0)).toBe(n);
      if (n > 100) {
        // The toy exercises both branches.
        expect(b.unskipped).toBeGreaterThan(0);
        expect(b.unskipped).toBeLessThan(n);
      }
    });
  }

  it('ties: a row equidistant from two centres stays when one is its own, else takes the first', () => {
    // Centres at 0, 2, 2 (duplicated) and 4 on a line; rows at 0, 1, 2, 3, 1, bounds 0. Row 0
    // (own distance 0, half-gap 1) passes the half-gap test; the others are rescanned. Row 1 (label 1, at distance 1 from centres 0 and 1) stays; row 3
    // labelled 3 (distance 1 from 2 and 3) stays; row 2 labelled 3 moves to centre 1 (distance
    // 0 to 1 and 2: the first); row 4 (at 1, labelled 3; distance 1 from 0, 1, 2) moves to 0.
    const X: Mat = { rows: 5, cols: 1, data: Float64Array.from([0, 1, 2, 3, 1]) };
    const C = Float64Array.from([0, 2, 2, 4]);
    const w = state(X, 4, 1, C, 0);
    w.labels.set([0, 1, 3, 3, 3]);
    w.prevC.set(C);
    const a = scan(copy(w), 'wasm');
    const b = scan(copy(w), 'ts');
    expectSame(a, b);
    expect(b.unskipped).toBe(4);
    expect(Array.from(b.moveRow.subarray(0, b.moves))).toEqual([2, 4]);
    expect(Array.from(b.moveTo.subarray(0, b.moves))).toEqual([1, 0]);
    expect(b.sse).toBe(0 + 1 + 4 + 1 + 9);
  });

  it('ties on a grid with duplicated centres (d = 2, k = 5)', () => {
    const pts: number[] = [];
    for (let a = 0; a < 9; a++) for (let b = 0; b < 9; b++) pts.push(a, b);
    const X: Mat = { rows: 81, cols: 2, data: Float64Array.from(pts) };
    const C = Float64Array.from([2, 2, 6, 6, 2, 6, 6, 2, 2, 2]);
    for (const scale of [0, 1]) {
      const w = state(X, 5, 3, C, scale);
      const a = scan(copy(w), 'wasm');
      const b = scan(copy(w), 'ts');
      expectSame(a, b);
    }
  });

  it("never reads another call's X (the resident copy follows the call)", () => {
    const w1 = state(blobs(300, 6, 1), 4, 2);
    const w2 = state(blobs(300, 6, 2), 4, 2);
    const ref1 = scan(copy(w1), 'ts');
    const ref2 = scan(copy(w2), 'ts');
    expectSame(scan(w1, 'wasm'), ref1);
    expectSame(scan(w2, 'wasm'), ref2);
    // w1 again (its X resident once more after w2 took the memory), from its new state.
    const ref3 = scan(copy(w1), 'ts');
    expectSame(scan(w1, 'wasm'), ref3);
    expect(ref3.unskipped).toBeLessThan(ref1.unskipped);
  });
});

describe('the scan split with a helper', () => {
  for (const [n, d, k] of [
    [3, 1, 3],
    [301, 3, 5],
    [257, 7, 10],
    [500, 20, 10],
    [120, 49, 7],
  ] as const) {
    it(`equals the one-thread scan bit for bit, twice in a row (n = ${n}, d = ${d}, k = ${k})`, () => {
      const w = state(blobs(n, d, n + d), k, 7 * k);
      const split = copy(w);
      const pool = inThreadPool();
      split.pool = pool;
      for (let pass = 0; pass < 2; pass++) {
        const one = scan(copy(split), 'wasm');
        expectSame(scan(split, 'wasm'), one);
        expect(one.nextCounts.reduce((s, c) => s + c, 0)).toBe(n);
        // The helper ran (its X rows sent again each pass: here it shares this thread's module).
        expect(pool.ran).toBe(2 * (pass + 1));
        if (n > 100) expect(one.moves).toBeGreaterThan(0);
        // The next pass from the state this one left.
        split.prevC.set(split.C);
        for (let q = 0; q < k * d; q++) split.C[q] = split.C[q]! + 1e-3 * Math.sin(q + pass);
      }
    });
  }
});

describe('whole k-means runs', () => {
  it('the same labels, SSEs and centres with the bounded scans split with a helper', () => {
    const X = blobs(2500, 20, 4);
    const b = kmeans(X, 9, {}, createRng(3));
    setGemmScan('auto', 0);
    const pool = inThreadPool();
    setThreadPool(pool);
    const a = kmeans(X, 9, {}, createRng(3));
    expect(pool.tasks.has('kmeans.hamerly')).toBe(true);
    expect(Array.from(a.labels)).toEqual(Array.from(b.labels));
    expect(Array.from(a.replicateSse)).toEqual(Array.from(b.replicateSse));
    expect(Array.from(a.centers.data)).toEqual(Array.from(b.centers.data));
    expect(a.iterations).toBe(b.iterations);
  });

  for (const [n, d, k] of [
    [2000, 2, 8],
    [3000, 5, 10],
    [1500, 20, 6],
  ] as const) {
    it(`the same labels, SSEs and centres with either loop (n = ${n}, d = ${d}, k = ${k})`, () => {
      const X = blobs(n, d, d);
      setHamerlyBackend('ts');
      const b = kmeans(X, k, { replicates: 3 }, createRng(11));
      setHamerlyBackend('wasm');
      const a = kmeans(X, k, { replicates: 3 }, createRng(11));
      expect(Array.from(a.labels)).toEqual(Array.from(b.labels));
      expect(Array.from(a.replicateSse)).toEqual(Array.from(b.replicateSse));
      expect(Array.from(a.centers.data)).toEqual(Array.from(b.centers.data));
      expect(a.iterations).toBe(b.iterations);
    });
  }
});
