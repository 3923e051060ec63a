/**
 * The helper-thread pool (backend/threads.ts behind core/parallel.ts): real worker_threads
 * running core's tasks. What a pool may change is only speed, so every solver result is
 * compared bit for bit with the same solve on one thread; errors in a helper come back as errors
 * naming the cause, and a helper that cannot start fails the call instead of hanging it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helperCountFromEnv, startThreadPool, stopThreadPool } from '../../src/backend/threads';
import { runChunks, setThreadPool, threadPool, type ThreadPool } from '../../src/core/parallel';
import { buildGraphs, cglIterate, type CglGraphs } from '../../src/core/solvers/cgl/cgl';
import { synthesize } from '../../src/core/synth';
import type { Mat } from '../../src/core/linalg/types';
import { evaluate } from '../../src/core/protocol';
import { getSolver } from '../../src/core/solvers/registry';
import { validateParams } from '../../src/core/solvers/params';
import { meanImputed } from '../../src/core/solvers/impute';
import { kmeans, kmeansSteps, setGemmScan } from '../../src/core/cluster/kmeans';
import { createRng } from '../../src/core/random';
import { linearKernel } from '../../src/core/kernels/gram';
import { mlrssc, mlrsscSteps } from '../../src/core/solvers/mlrssc/mlrssc';
import { codeDefaults } from '../core/solvers/mlrssc/options';
import { amglGraphs } from '../../src/core/solvers/amgl/amgl';
import { viewGraphs } from '../../src/core/solvers/mvgl/mvgl';
import { buildKernels } from '../../src/core/solvers/mlrssc/kernels';

function viewsOf(n: number, dims: number[], seed: number): Mat[] {
  const ds = synthesize({ n, k: 4, dims, completeFraction: 1, seed });
  return ds.views.map((v) => meanImputed(v, ds.n));
}

function solve(graphs: CglGraphs, c: number, rho: number) {
  const gen = cglIterate(graphs, c, {
    lambda: 0.05,
    shrinkage: { kind: 'wtnn', rho },
    neighbors: 8,
    iterations: 12,
    minIterations: 12,
    tolerance: 1e-6,
    path: 'factorised',
  });
  let r = gen.next();
  while (!r.done) r = gen.next();
  return r.value;
}

describe('helper threads', () => {
  let pool: ThreadPool | null = null;
  /** fn() with the pool installed (the tests otherwise run without one). */
  function withPool<T>(fn: () => T): T {
    setThreadPool(pool);
    try {
      return fn();
    } finally {
      setThreadPool(null);
    }
  }
  /** The pool, noting the name of every task it is given in `started`. */
  function recording(started: string[]): ThreadPool {
    return {
      helpers: pool!.helpers,
      start: (h, task, input, transfer) => {
        started.push(task);
        pool!.start(h, task, input, transfer);
      },
      finish: (h) => pool!.finish(h),
    };
  }
  beforeAll(() => {
    pool = startThreadPool({ helpers: 2 });
    setThreadPool(null);
  });
  afterAll(async () => {
    setThreadPool(pool);
    await stopThreadPool();
  });

  it('CGL: graphs and every pass equal the one-thread solve bit for bit (V = 5 and 261 slices over 3 threads)', () => {
    const views = viewsOf(520, [6, 7, 8, 9, 10], 3);
    const serialGraphs = buildGraphs(views, 8);
    const serial = solve(serialGraphs, 4, 2);
    setThreadPool(pool);
    let pooledGraphs: CglGraphs;
    let pooled: ReturnType<typeof solve>;
    try {
      pooledGraphs = buildGraphs(views, 8);
      pooled = solve(pooledGraphs, 4, 2);
    } finally {
      setThreadPool(null);
    }
    for (let v = 0; v < 5; v++) {
      expect(Array.from(pooledGraphs.L[v]!.indptr)).toEqual(Array.from(serialGraphs.L[v]!.indptr));
      expect(Array.from(pooledGraphs.L[v]!.indices)).toEqual(
        Array.from(serialGraphs.L[v]!.indices),
      );
      expect(Array.from(pooledGraphs.L[v]!.data)).toEqual(Array.from(serialGraphs.L[v]!.data));
      expect(Array.from(pooled.Fbar[v]!.data)).toEqual(Array.from(serial.Fbar[v]!.data));
      // ΔP_v of the helpers' views (made on the helpers each pass) is complete at the end.
      expect(Array.from(pooled.factor!.tensor.dP[v]!.data)).toEqual(
        Array.from(serial.factor!.tensor.dP[v]!.data),
      );
    }
    expect(pooled.objective).toEqual(serial.objective);
    expect(pooled.objective.length).toBe(12);
    // The objective moved (a solve that did nothing would also be "equal").
    expect(pooled.objective[11]).not.toBe(pooled.objective[0]);
  });

  it('CGMVC-NC through the protocol: same labels and metrics with and without helpers', () => {
    const ds = synthesize({ n: 200, k: 3, dims: [5, 6, 7], completeFraction: 1, seed: 8 });
    const run = () => {
      const gen = evaluate(ds, getSolver('cgmvc-nc'), { iterations: 10 }, 3, {
        protocol: 'single',
        seed: 4,
      });
      let r = gen.next();
      while (!r.done) r = gen.next();
      return r.value;
    };
    const serial = run();
    const pooled = withPool(run);
    expect(Array.from(pooled.labels)).toEqual(Array.from(serial.labels));
    expect(pooled.objective).toEqual(serial.objective);
    expect(pooled.metrics).toEqual(serial.metrics);
  });

  it('MLRSSC closed mid-run (cancel) tells the helper to drop its buffers', () => {
    const ds = synthesize({ n: 90, k: 3, dims: [5, 7, 9], completeFraction: 1, seed: 3 });
    const s = getSolver('mlrssc-pairwise');
    const started: string[] = [];
    setThreadPool(recording(started));
    try {
      const gen = s.run(ds, validateParams(s.schema, {}), 3, createRng(1));
      let solves = 0;
      while (solves < 3) {
        const r = gen.next();
        if (r.done) throw new Error('the solve ended before it could be closed');
        if (r.value.stage === 'solve') solves++;
      }
      expect(started).toContain('mlrssc.thresholds');
      expect(started).not.toContain('mlrssc.end');
      gen.return(undefined as never);
      expect(started.at(-1)).toBe('mlrssc.end');
      expect(started.filter((t) => t === 'mlrssc.end')).toHaveLength(1);
    } finally {
      setThreadPool(null);
    }
  });

  it("a task's error comes back as an error, and the helper stays usable", () => {
    const p = pool!;
    const tiny: Mat = { rows: 5, cols: 2, data: new Float64Array(10).map((_, i) => i) };
    // One view, claimed from its own counter.
    const one = (X: Mat, neighbors: number) => ({
      views: [X],
      neighbors,
      order: [0],
      claim: new Int32Array(1),
    });
    p.start(0, 'cgl.graphs', one(tiny, 9));
    expect(() => p.finish(0)).toThrow(/9 neighbours need at least 11 samples/);
    // @ts-expect-error an unknown task name does not compile; at run time it is refused too
    p.start(1, 'no.such.task', {});
    expect(() => p.finish(1)).toThrow(/no task named 'no.such.task'/);
    p.start(0, 'cgl.graphs', one(tiny, 2));
    const got = p.finish(0) as [number, { rows: number }][];
    expect(got.map(([v, L]) => [v, L.rows])).toEqual([[0, 5]]);
  });

  it('runChunks: outputs in chunk order; after an error here, the helpers are still drained', () => {
    const p = pool!;
    const rows = (k: number): Mat => ({
      rows: 6 + k,
      cols: 1,
      data: Float64Array.from({ length: 6 + k }, (_, i) => i * i),
    });
    const one = (X: Mat) => ({ views: [X], neighbors: 2, order: [0], claim: new Int32Array(1) });
    const out = runChunks(
      p,
      3,
      'cgl.graphs',
      (t) => one(rows(t)),
      () => [[-1, { rows: -1 }]],
    ) as [number, { rows: number }][];
    expect(out.map((x) => x[1].rows)).toEqual([-1, 7, 8]);
    expect(() =>
      runChunks(
        p,
        3,
        'cgl.graphs',
        (t) => one(rows(t)),
        () => {
          throw new Error('local chunk failed');
        },
      ),
    ).toThrow('local chunk failed');
    // Both helpers were waited for: they take new work.
    p.start(0, 'ping', 1);
    p.start(1, 'ping', 2);
    expect([p.finish(0), p.finish(1)]).toEqual([1, 2]);
    expect(() =>
      runChunks(
        p,
        4,
        'ping',
        () => 0,
        () => [],
      ),
    ).toThrow(/4 chunks need 3 helper/);
  });

  it('a task nobody waited for is dropped when the helper gets new work', () => {
    const p = pool!;
    p.start(0, 'ping', 'stale');
    p.start(0, 'ping', 'fresh');
    expect(p.finish(0)).toBe('fresh');
  });

  it('k-means: replicates split over helpers give the one-thread result (labels, SSEs, best)', () => {
    const X = viewsOf(900, [6], 11)[0]!;
    const run = () => kmeans(X, 4, { replicates: 7 }, createRng(5));
    const serial = run();
    const pooled = withPool(run);
    expect(Array.from(pooled.replicateSse)).toEqual(Array.from(serial.replicateSse));
    expect(pooled.replicate).toBe(serial.replicate);
    expect(pooled.sse).toBe(serial.sse);
    expect(Array.from(pooled.labels)).toEqual(Array.from(serial.labels));
    expect(Array.from(pooled.centers.data)).toEqual(Array.from(serial.centers.data));
    // The replicates differ (so that picking the wrong one would show).
    expect(new Set(serial.replicateSse).size).toBeGreaterThan(1);
  });

  it("k-means: one replicate's scans split over helpers give the one-thread result", () => {
    // Every scan split (setGemmScan's split threshold 0): the GEMM scans' approximate pass and
    // Hamerly's scans, whose helper keeps its rows of X across the iterations.
    const X = viewsOf(3000, [12], 7)[0]!;
    const run = () => kmeans(X, 8, { maxIterations: 60 }, createRng(9));
    const serial = run();
    setGemmScan('auto', 0);
    try {
      const pooled = withPool(run);
      expect(Array.from(pooled.replicateSse)).toEqual(Array.from(serial.replicateSse));
      expect(Array.from(pooled.labels)).toEqual(Array.from(serial.labels));
      expect(Array.from(pooled.centers.data)).toEqual(Array.from(serial.centers.data));
      expect(pooled.iterations).toBe(serial.iterations);
      expect(serial.iterations).toBeGreaterThan(3);
    } finally {
      setGemmScan('auto');
    }
  });

  it('MLRSSC: thresholds shared with a helper give the one-thread solve bit for bit (V = 5 pairwise, V = 4 centroid)', () => {
    for (const [variant, dims] of [
      ['pairwise', [4, 6, 9, 30, 80]],
      ['centroid', [5, 7, 40, 90]],
    ] as const) {
      const X = viewsOf(90, [...dims], 6);
      const K = X.map((x) => linearKernel(x));
      // 27 iterations: past μ = maxMu (iteration 24), so both the SVD and the Gram route run.
      const o = codeDefaults(variant, 27, { tolerance: 1e-300, factors: X });
      const serial = mlrssc(K, o);
      // The pool, counting the iterations handed to the helper and the thresholds it did.
      let handed = 0;
      let helped = 0;
      const counting: ThreadPool = {
        helpers: pool!.helpers,
        start: (h, task, input, transfer) => {
          if (task === 'mlrssc.thresholds') handed++;
          pool!.start(h, task, input, transfer);
        },
        finish: (h) => {
          const out = pool!.finish(h);
          if (Array.isArray(out)) helped += out.length;
          return out;
        },
      };
      setThreadPool(counting);
      let pooled: ReturnType<typeof mlrssc>;
      try {
        pooled = mlrssc(K, o);
      } finally {
        setThreadPool(null);
      }
      // The first iteration's thresholds come from the kernels' eigenpairs (mlrssc/inverse.ts),
      // none handed; each of the other 26 is handed once, and the helper, which starts while
      // this thread prepares the views, takes some of the thresholds.
      expect(handed).toBe(26);
      expect(helped).toBeGreaterThan(0);
      expect(helped).toBeLessThan(26 * dims.length);
      expect(pooled.iterations).toBe(27);
      expect(pooled.svdFallbacks).toBeLessThan(27 * dims.length); // the Gram route ran
      expect(pooled.residuals).toEqual(serial.residuals);
      expect(pooled.rankC1).toEqual(serial.rankC1);
      expect(pooled.svdFallbacks).toBe(serial.svdFallbacks);
      expect(Array.from(pooled.C.data)).toEqual(Array.from(serial.C.data));
      pooled.C2.forEach((c, v) =>
        expect(Array.from(c.data)).toEqual(Array.from(serial.C2[v]!.data)),
      );
    }
  });

  it('AMGL and MVGL: view graphs claimed by 3 threads equal the one-thread graphs bit for bit (V = 4)', () => {
    const X = viewsOf(150, [5, 30, 12, 50], 8);
    const mvglOptions = {
      neighbors: 9,
      innerIterations: 30,
      outerIterations: 30,
      tolerance: 1e-3,
      eigensolver: 'sparse',
    } as const;
    const serialA = amglGraphs(X, 9);
    const serialM = viewGraphs(X, 4, mvglOptions);
    const started: string[] = [];
    setThreadPool(recording(started));
    let pooledA: ReturnType<typeof amglGraphs>;
    let pooledM: ReturnType<typeof viewGraphs>;
    try {
      pooledA = amglGraphs(X, 9);
      pooledM = viewGraphs(X, 4, mvglOptions);
    } finally {
      setThreadPool(null);
    }
    expect(started).toEqual(['amgl.graphs', 'amgl.graphs', 'mvgl.views', 'mvgl.views']);
    const csr = (S: { indptr: Int32Array; indices: Int32Array; data: Float64Array }) => [
      Array.from(S.indptr),
      Array.from(S.indices),
      Array.from(S.data),
    ];
    expect(pooledA).toHaveLength(4);
    pooledA.forEach((g, v) => {
      const s = serialA[v]!;
      expect(csr(g.W)).toEqual(csr(s.W));
      expect(csr(g.L)).toEqual(csr(s.L));
      expect(Array.from(g.t)).toEqual(Array.from(s.t));
      expect(g.W.data.length).toBeGreaterThan(150 * 9); // a real graph, not an empty one
    });
    expect(pooledM).toHaveLength(4);
    pooledM.forEach((r, v) => {
      expect(csr(r.S)).toEqual(csr(serialM[v]!.S));
      expect(r.record).toEqual(serialM[v]!.record);
    });
    // The views differ, so a graph in the wrong slot would show.
    expect(csr(serialM[0]!.S)).not.toEqual(csr(serialM[1]!.S));
  });

  it('MLRSSC: Gaussian kernels claimed by 3 threads equal the one-thread kernels bit for bit (V = 4, n = 520); linear ones stay on one thread', () => {
    const ds = synthesize({ n: 520, k: 4, dims: [5, 30, 12, 50], completeFraction: 1, seed: 9 });
    const input = { n: ds.n, views: ds.views, sampleIds: null };
    const choice = { kernel: 'gaussian', sigma: null, sigmaScale: 1, degree: 2 } as const;
    const serial = buildKernels('kmlrssc-pairwise', input, choice);
    const started: string[] = [];
    setThreadPool(recording(started));
    let pooled: ReturnType<typeof buildKernels>;
    try {
      pooled = buildKernels('kmlrssc-pairwise', input, choice);
    } finally {
      setThreadPool(null);
    }
    expect(started).toEqual(['mlrssc.kernels', 'mlrssc.kernels']);
    setThreadPool(recording(started));
    try {
      buildKernels('mlrssc-pairwise', input, { ...choice, kernel: 'linear' });
    } finally {
      setThreadPool(null);
    }
    expect(started).toHaveLength(2); // one GEMM per view: not worth a helper's copy
    expect(pooled.sigma).toEqual(serial.sigma);
    expect(pooled.optSigma).toEqual(serial.optSigma);
    expect(new Set(serial.sigma).size).toBe(4); // four different views, so a swap would show
    pooled.K.forEach((K, v) => expect(Array.from(K.data)).toEqual(Array.from(serial.K[v]!.data)));
  });

  it.each([
    [
      'MLRSSC (stopped between iterations)',
      () => {
        const X = viewsOf(90, [4, 6, 9], 7);
        const K = X.map((x) => linearKernel(x));
        return mlrsscSteps(K, codeDefaults('pairwise', 50, { tolerance: 1e-300 }));
      },
      2,
    ],
    ['k-means', () => kmeansSteps(viewsOf(600, [5], 2)[0]!, 5, { replicates: 6 }, createRng(1)), 1],
  ] as const)('%s: a generator closed early leaves no helper busy', (_, make, taken) => {
    setThreadPool(pool);
    try {
      const steps: Generator<unknown, unknown, void> = make();
      for (let t = 0; t < taken; t++) steps.next();
      steps.return(undefined);
    } finally {
      setThreadPool(null);
    }
    pool!.start(0, 'ping', 1);
    pool!.start(1, 'ping', 2);
    expect([pool!.finish(0), pool!.finish(1)]).toEqual([1, 2]);
  });
});

describe('helper threads: start-up and settings', () => {
  it('helpers whose entry cannot load: their tasks run on the calling thread, same results, said once', async () => {
    const told: string[] = [];
    const p = startThreadPool({
      helpers: 2,
      entry: new URL('./no-such-entry.ts', import.meta.url),
      onBroken: (m) => told.push(m),
    })!;
    try {
      // A CGL solve over 3 "threads" whose helpers never start: same bits as on one thread
      // (the H-step sessions of both helpers live side by side on this thread).
      const views = viewsOf(200, [5, 6, 7], 4);
      setThreadPool(null);
      const serial = solve(buildGraphs(views, 8), 4, 2);
      setThreadPool(p);
      const fallback = solve(buildGraphs(views, 8), 4, 2);
      expect(fallback.objective).toEqual(serial.objective);
      for (let v = 0; v < 3; v++)
        expect(Array.from(fallback.Fbar[v]!.data)).toEqual(Array.from(serial.Fbar[v]!.data));
      // A task's own error still comes back as its error.
      // @ts-expect-error an unknown task name does not compile; at run time it is refused too
      p.start(1, 'no.such.task', {});
      expect(() => p.finish(1)).toThrow(/no task named 'no.such.task'/);
    } finally {
      await stopThreadPool();
    }
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(
      /helper thread \d cannot work \(the helper thread did not start: .*no-such-entry.*\); its work runs on one thread/,
    );
    expect(threadPool()).toBeNull();
  });

  it('MVSTUDIO_THREADS: a count, 0 for none, a clear error otherwise', () => {
    expect(helperCountFromEnv({ MVSTUDIO_THREADS: '3' })).toBe(3);
    expect(helperCountFromEnv({ MVSTUDIO_THREADS: '0' })).toBe(0);
    expect(helperCountFromEnv({})).toBeGreaterThanOrEqual(0);
    expect(() => helperCountFromEnv({ MVSTUDIO_THREADS: 'two' })).toThrow(
      /MVSTUDIO_THREADS must be a whole number of helper threads 0\.\.64, got 'two'/,
    );
    expect(() => helperCountFromEnv({ MVSTUDIO_THREADS: '-1' })).toThrow(/MVSTUDIO_THREADS/);
    expect(startThreadPool({ helpers: 0 })).toBeNull();
  });
});
