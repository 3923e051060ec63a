/**
 * The conformance suite: the same checks for every solver of `listSolvers()` and the template
 * (test/helpers/solvers.ts), so a newly registered method gets them for free. Each check reads
 * only the solver's declaration (schema, input, deterministic, monotone, iterationCap,
 * footprint, cost): no solver is named here. For speed a run may lower the solver's iteration cap
 * through its own schema (the 'int' parameter that `iterationCap` follows), nothing else.
 *
 * Memory is measured as ArrayBuffer bytes (`process.memoryUsage().arrayBuffers`, where typed
 * arrays live) after a full GC, the most over the steps minus the value before the run.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MultiViewDataset, View } from '../../../src/core/dataset';
import { setThreadPool, type ThreadPool } from '../../../src/core/parallel';
import { evaluate } from '../../../src/core/protocol';
import { createRng } from '../../../src/core/random';
import { fillMissing } from '../../../src/core/solvers/complete';
import { protocolWork } from '../../../src/core/solvers/cost';
import { validateParams } from '../../../src/core/solvers/params';
import type {
  Params,
  Solver,
  SolverInput,
  SolverOutput,
  SolverStep,
} from '../../../src/core/solvers/types';
import { synthesize } from '../../../src/core/synth';
import { TASKS } from '../../../src/core/tasks';
import { conformanceSolvers } from '../../helpers/solvers';
import { drain } from '../../helpers/toy';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Iteration cap the suite lowers a solver to (when its schema allows). */
const FAST_CAP = 10;
/** Relative slack of the monotone check: obj(t) ≤ obj(t−1) + 1e-10·|obj(t−1)|. */
const MONOTONE_SLACK = 1e-10;
/** Below this many bytes (declared and measured) the runtime's own buffers dominate. */
const FOOTPRINT_FLOOR = 1 << 20;
const K = 3;

/** Toy data: n = 60, three views, k = 3; `complete` false leaves ≈ 30 % missing per view. */
const toy = (complete: boolean): MultiViewDataset =>
  synthesize({ n: 60, k: K, dims: [4, 5, 3], completeFraction: complete ? 1 : 0.4, seed: 11 });

/**
 * The medium case: n = 2000, d = 50, 80, 30, k = 5, ≈ 30 % missing per view; n = 200 for a method
 * whose declared footprint there is quadratic (its model is dense n × n matrices with O(n³)
 * work per iteration, e.g. MLRSSC's full SVD per view: minutes per iteration at n = 2000).
 */
const MEDIUM_N = 2000;
const MEDIUM_N_QUADRATIC = 200;
const medium = (n: number): MultiViewDataset =>
  synthesize({ n, k: 5, dims: [50, 80, 30], completeFraction: 0.4, seed: 12 });
/** The medium n for `s` with `params`, read from its declaration only. */
function mediumN(s: Solver, params: Params): number {
  const shape = { n: MEDIUM_N, dims: [50, 80, 30], present: [1400, 1400, 1400], k: 5 };
  return s.footprint(shape, params).quadratic ? MEDIUM_N_QUADRATIC : MEDIUM_N;
}

/**
 * The solver's defaults with its iteration cap lowered to FAST_CAP: the first 'int' parameter p
 * for which `iterationCap({ ...defaults, p: v })` is v (v = max(FAST_CAP, p's minimum)).
 */
function fastParams(s: Solver): Params {
  const defaults = validateParams(s.schema, {});
  const cap = s.iterationCap(defaults);
  if (cap === null || cap <= FAST_CAP) return defaults;
  for (const [name, spec] of Object.entries(s.schema)) {
    if (spec.type !== 'int') continue;
    const v = Math.max(spec.min, FAST_CAP);
    if (v >= cap) continue;
    let p: Params;
    try {
      p = validateParams(s.schema, { ...defaults, [name]: v });
    } catch {
      continue;
    }
    if (s.iterationCap(p) === v) return p;
  }
  return defaults;
}

/**
 * `it` for a check that applies only to some declarations (deterministic, monotone): where it
 * does not apply no test is registered, so nothing shows as skipped.
 */
const when =
  (applies: boolean): ((name: string, fn: () => void) => void) =>
  (name, fn) => {
    if (applies) it(name, fn);
  };

/** The bytes of a typed array, for bit-for-bit comparisons. */
const bits = (a: Float64Array | Int32Array): Buffer =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** What the protocol hands the solver: the views filled first when it declares 'complete'. */
function inputFor(s: Solver, ds: MultiViewDataset): SolverInput {
  return s.input === 'complete' ? fillMissing(ds).input : ds;
}

function solve(s: Solver, ds: MultiViewDataset, params: Params, seed: number, k = K) {
  return drain<SolverStep, SolverOutput>(s.run(inputFor(s, ds), params, k, createRng(seed)));
}

/**
 * A pool whose one helper runs each task on this thread (on a structured clone) when waited
 * for, so that whatever a helper keeps (sessions) is in this thread's memory; it counts tasks
 * started and not yet waited for.
 */
function inThreadPool(): ThreadPool & { pending(): number; started(): number } {
  let pending: (() => unknown) | null = null;
  let started = 0;
  return {
    helpers: 1,
    start(_h, task, input) {
      if (pending) throw new Error('helper 0 is busy');
      const run = TASKS[task] as ((x: unknown) => unknown) | undefined;
      if (!run) throw new Error(`no task '${task}'`);
      started++;
      pending = () => run(structuredClone(input));
    },
    finish() {
      const p = pending;
      pending = null;
      if (!p) throw new Error('helper 0 has no task');
      return p();
    },
    pending: () => (pending ? 1 : 0),
    started: () => started,
  };
}

/**
 * ArrayBuffer bytes after full GCs. V8 frees array buffers' memory after the collection (a
 * sweeper that may run concurrently), so the count is read once two GCs a macrotask apart
 * agree.
 */
async function arrayBuffersAfterGc(): Promise<number> {
  let last = -1;
  for (let round = 0; round < 10; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const now = process.memoryUsage().arrayBuffers;
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** A copy of `ds` with view `v` replaced. */
function withView(ds: MultiViewDataset, v: number, view: View): MultiViewDataset {
  return { ...ds, views: ds.views.map((w, i) => (i === v ? view : w)) };
}

const SOLVERS = conformanceSolvers();

describe.each(SOLVERS.map((s) => [s.name, s] as const))('%s conforms', (_name, s) => {
  const params = fastParams(s);
  const cap = s.iterationCap(params);
  const datasets = [
    ['missing views', toy(false)],
    ['complete views', toy(true)],
  ] as const;

  it.each(datasets)(
    '%s: a finite n × c embedding (or labels) and labels from the protocol',
    (_, ds) => {
      const { output } = solve(s, ds, params, 0);
      const E = output.embedding;
      expect(E.rows).toBe(ds.n);
      expect(E.cols).toBeGreaterThanOrEqual(1);
      expect(E.data.length).toBe(E.rows * E.cols);
      expect(E.data.every(Number.isFinite), 'embedding finite').toBe(true);
      if (output.labels) {
        expect(output.labels.length).toBe(ds.n);
        expect(output.labels.every((c) => c >= 0 && c < K)).toBe(true);
      }
      expect(output.objective.every(Number.isFinite)).toBe(true);
      if (cap !== null) expect(output.iterations).toBeLessThanOrEqual(cap);
      const { output: result } = drain(evaluate(ds, s, params, K, { protocol: 'single', seed: 0 }));
      expect(result.labels.length).toBe(ds.n);
      expect(result.labels.every((c) => c >= 0 && c < K)).toBe(true);
      expect(Object.values(result.metrics).every((m) => Number.isFinite(m.mean))).toBe(true);
    },
  );

  it('the same seed gives the same bits', () => {
    const ds = toy(false);
    const a = solve(s, ds, params, 5).output;
    const b = solve(s, ds, params, 5).output;
    expect(bits(a.embedding.data).equals(bits(b.embedding.data))).toBe(true);
    expect(b.objective).toEqual(a.objective);
    expect(b.labels && bits(b.labels)).toEqual(a.labels && bits(a.labels));
  });

  when(s.deterministic)('deterministic: two seeds give the same output', () => {
    const ds = toy(false);
    const a = solve(s, ds, params, 1).output;
    const b = solve(s, ds, params, 2).output;
    expect(bits(a.embedding.data).equals(bits(b.embedding.data))).toBe(true);
    expect(b.objective).toEqual(a.objective);
  });

  when(s.monotone)('monotone: the objective never increases (relative slack 1e-10)', () => {
    for (const [, ds] of datasets) {
      const { objective } = solve(s, ds, params, 3).output;
      for (let t = 1; t < objective.length; t++) {
        const slack = MONOTONE_SLACK * Math.abs(objective[t - 1]!);
        expect(objective[t]!, `iteration ${t + 1}`).toBeLessThanOrEqual(objective[t - 1]! + slack);
      }
    }
  });

  describe('bad input gives an error naming the problem', () => {
    const ds = toy(false);
    const run = (d: MultiViewDataset, k = K): unknown =>
      drain(evaluate(d, s, params, k, { protocol: 'single', seed: 0 }));
    const v0 = ds.views[0]!;

    it('k > n', () => expect(() => run(ds, ds.n + 1)).toThrow(new RegExp(`k must .*${ds.n}`)));

    it('a view without present samples (named)', () => {
      const empty: View = {
        name: 'empty-view',
        d: v0.d,
        present: new Int32Array(0),
        values: { kind: 'dense', rows: 0, cols: v0.d, data: new Float64Array(0) },
      };
      expect(() => run(withView(ds, 0, empty))).toThrow(/'empty-view'/);
    });

    it('a NaN value (view named)', () => {
      const data = Float64Array.from(v0.values.data);
      data[7] = NaN;
      const nan = { ...v0, name: 'nan-view', values: { ...v0.values, data } } as View;
      expect(() => run(withView(ds, 0, nan))).toThrow(/'nan-view'.*NaN/);
    });
  });

  describe('the declared cost', () => {
    /** Three views, the second missing 30 % of the samples. */
    const shape = (n: number) => ({
      n,
      dims: [40, 60, 20],
      present: [n, Math.ceil(0.7 * n), n],
      k: K,
    });

    it('grows with n; repeats per seed exactly when the method is not deterministic', () => {
      const small = s.cost(shape(1000), params);
      const big = s.cost(shape(4000), params);
      for (const c of [small, big]) {
        expect(Number.isFinite(c.solve) && c.solve > 0, `solve ${c.solve}`).toBe(true);
        expect(Number.isFinite(c.kmeans) && c.kmeans >= 0, `kmeans ${c.kmeans}`).toBe(true);
      }
      expect(big.solve).toBeGreaterThan(small.solve);
      if (small.kmeans > 0) expect(big.kmeans).toBeGreaterThan(small.kmeans);
      expect(small.perSeed).toBe(!s.deterministic);
    });

    it('under the paper protocol, grows with seeds where the protocol repeats work', () => {
      const one = protocolWork(s, shape(1000), params, 'paper', 1);
      const twenty = protocolWork(s, shape(1000), params, 'paper', 20);
      if (s.cost(shape(1000), params).perSeed) {
        expect(twenty.solve).toBeCloseTo(20 * one.solve, 6);
      } else {
        // Solved once for every seed: only k-means and the scoring repeat.
        expect(twenty.solve).toBe(one.solve);
      }
      expect(twenty.kmeans).toBeCloseTo(20 * one.kmeans, 6);
      const total = (w: typeof one) => w.solve + w.kmeans + w.rest;
      expect(total(twenty)).toBeGreaterThan(total(one));
    });

    it('declares k-means work exactly when the protocol runs k-means on its output', () => {
      const ds = toy(true);
      const { output } = solve(s, ds, params, 0);
      const cost = s.cost(
        {
          n: ds.n,
          dims: ds.views.map((v) => v.d),
          present: ds.views.map((v) => v.present.length),
          k: K,
        },
        params,
      );
      expect(cost.kmeans === 0).toBe(output.labels !== undefined);
    });
  });

  describe(`medium case (n = ${mediumN(s, params)}, d = 50, 80, 30, k = 5, 30 % missing)`, () => {
    let ds: MultiViewDataset;
    // The peak at step boundaries, two ways: `raw` as the process holds it (garbage not yet
    // collected included: an upper bound) and `live` with a full GC before each reading (what
    // the method keeps at the boundary: a lower bound of its peak within a step).
    let raw = 0;
    let live = 0;
    let steps = 0;
    let output: SolverOutput;
    beforeAll(async () => {
      ds = medium(mediumN(s, params));
      // A first run sizes whatever the numerics keep between calls, so the measured run sees
      // only what this solver allocates (not another method's buffers being let go).
      drain(s.run(inputFor(s, ds), params, 5, createRng(0)));
      for (const collect of [false, true]) {
        const before = await arrayBuffersAfterGc();
        // The filled views are part of what a 'complete' method costs, so they are measured too.
        const gen = s.run(inputFor(s, ds), params, 5, createRng(0));
        for (;;) {
          const r = gen.next();
          if (collect) gc();
          const now = process.memoryUsage().arrayBuffers - before;
          if (collect) live = Math.max(live, now);
          else raw = Math.max(raw, now);
          if (r.done) {
            output = r.value;
            break;
          }
          if (!collect) steps++;
        }
      }
    });

    it('the declared footprint is within 2× of the measured peak', () => {
      const shape = {
        n: ds.n,
        dims: ds.views.map((v) => v.d),
        present: ds.views.map((v) => v.present.length),
        k: 5,
      };
      const declared = s.footprint(shape, params).bytes;
      const msg = `declared ${declared} B, measured ${live} B live to ${raw} B raw`;
      expect(output.embedding.rows).toBe(ds.n);
      if (declared <= FOOTPRINT_FLOOR && raw <= FOOTPRINT_FLOOR) return;
      expect(declared, msg).toBeLessThanOrEqual(2 * raw);
      expect(declared, msg).toBeGreaterThanOrEqual(live / 2);
    });

    it.each([
      ['without a pool', false],
      ['with a pool installed', true],
    ])('closing the generator mid-run (%s) releases everything', async (_, pooled) => {
      const pool = inThreadPool();
      if (pooled) setThreadPool(pool);
      try {
        const before = await arrayBuffersAfterGc();
        let gen: Generator<SolverStep, SolverOutput, void> | null = s.run(
          inputFor(s, ds),
          params,
          5,
          createRng(0),
        );
        for (let t = 0; t < Math.max(1, Math.ceil(steps / 2)); t++) gen.next();
        gen.return(undefined as never);
        expect(gen.next().done).toBe(true);
        gen = null;
        expect(pool.pending(), 'a helper task left unwaited').toBe(0);
        // Buffers are released a little after the collection that frees them: the least of
        // a few settled readings is what is really still held.
        let left = Infinity;
        for (let round = 0; round < 5; round++) {
          left = Math.min(left, (await arrayBuffersAfterGc()) - before);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(left, `${left} B still held after return()`).toBeLessThanOrEqual(
          Math.max(FOOTPRINT_FLOOR, raw / 20),
        );
      } finally {
        setThreadPool(null);
      }
    });
  });
});

describe('the conformance list', () => {
  it('holds every registered solver and the template', () => {
    expect(SOLVERS.length).toBeGreaterThanOrEqual(2);
    expect(SOLVERS.some((s) => s.name === 'template')).toBe(true);
  });
});
