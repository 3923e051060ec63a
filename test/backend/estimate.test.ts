/**
 * The memory estimate from a solver's declared footprint (src/backend/estimate.ts), through the
 * real channel handlers and RunManager with fake solvers: the n × n warning, the refusal that
 * `runs:start` turns into an error before queueing, the declared iteration cap. No solver runs:
 * the worker is a stand-in that never answers. Then the real CGL's declaration on the shape the
 * renderer's estimate was once tested with.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Calibration,
  NN_WARN_BYTES,
  PRIOR_SECONDS_PER_UNIT,
  estimateMemory,
  problemShape,
} from '../../src/backend/estimate';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, type WorkerProcess } from '../../src/backend/worker-host';
import { validateParams } from '../../src/core/solvers/params';
import { getSolver } from '../../src/core/solvers/registry';
import { defineSolver, type ProblemShape } from '../../src/core/solvers/types';
import type { RunEstimate } from '../../src/shared/contract';
import { fakeLoader } from '../helpers/fake-dataset';

const GiB = 1024 ** 3;
const LIMIT = 8 * GiB;

/** The shapes the fakes' footprints were asked about, in order. */
const asked: ProblemShape[] = [];

/** A fake whose footprint is `gib` GiB of n × n arrays, and whose cap is `rounds`. */
const huge = defineSolver({
  name: 'fake-huge',
  title: 'Fake Huge',
  description: 'a stand-in with a declared quadratic footprint',
  schema: {
    gib: { type: 'int', min: 0, max: 1_000_000, default: 1, doc: 'GiB of n × n arrays' },
    rounds: { type: 'int', min: 1, max: 1000, default: 30, doc: 'iterations' },
  } as const,
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.rounds,
  cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
  footprint: (shape, p) => {
    asked.push(shape);
    return { bytes: p.gib * GiB, quadratic: true, note: 'two dense n × n graphs' };
  },
  // eslint-disable-next-line require-yield
  run: function* () {
    throw new Error('the fake never runs');
  },
});

/** The same footprint, not quadratic: never warned about, still refused above the limit. */
const linear = defineSolver({
  name: 'fake-linear',
  title: 'Fake Linear',
  description: 'a stand-in with a declared linear footprint',
  schema: {
    gib: { type: 'int', min: 0, max: 1_000_000, default: 1, doc: 'GiB of n × c arrays' },
  } as const,
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
  footprint: (_shape, p) => ({ bytes: p.gib * GiB, quadratic: false, note: 'an n × c factor' }),
  // eslint-disable-next-line require-yield
  run: function* () {
    throw new Error('the fake never runs');
  },
});

/** A worker that says 'ready' and never answers a run. */
const silent = (): WorkerProcess => ({
  send: () => {},
  onMessage: (l) => setImmediate(() => l({ type: 'ready' })),
  onExit: () => {},
  kill: () => {},
});

let dir: string;
let datasetId: string;
let library: DatasetLibrary;
let host: WorkerHost;
let runs: RunManager;
let handlers: ReturnType<typeof createHandlers>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-estimate-'));
  const file = join(dir, 'six.mat');
  await writeFile(file, 'x');
  library = new DatasetLibrary({ load: fakeLoader() });
  // The fake dataset: n = 6, views a (d 2, all 6 present) and b (d 3, 4 present), 2 classes.
  datasetId = (await library.open(file)).id;
  host = new WorkerHost({ spawn: silent, memoryLimitBytes: LIMIT });
  runs = new RunManager({ host, library, bundleRoot: null, solvers: [huge, linear] });
  handlers = createHandlers(library, { pickFile: async () => null }, runs);
});
afterAll(async () => {
  host.dispose();
  library.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function estimate(
  method: string,
  params: Record<string, number>,
  k?: number,
): Promise<RunEstimate> {
  const r = await invoke(handlers, 'runs:estimate', {
    datasetId,
    method,
    params,
    ...(k === undefined ? {} : { k }),
  });
  if (!r.ok) throw new Error(`${r.error.name}: ${r.error.message}`);
  // The memory side only: the time side has its own tests below.
  const { time: _time, ...memory } = r.value;
  return memory;
}

const DATA_BYTES = (6 * 2 + 4 * 3) * 8;

describe('runs:estimate with a fake solver', () => {
  it('asks the footprint about the dataset’s shape and k (default: the classes)', async () => {
    asked.length = 0;
    await estimate('fake-huge', {});
    await estimate('fake-huge', {}, 4);
    expect(asked).toEqual([
      { n: 6, dims: [2, 3], present: [6, 4], k: 2 },
      { n: 6, dims: [2, 3], present: [6, 4], k: 4 },
    ]);
  });

  it('answers the declared bytes; no warning at or below 2 GiB of n × n arrays', async () => {
    expect(await estimate('fake-huge', { gib: 2 })).toEqual({
      dataBytes: DATA_BYTES,
      methodBytes: 2 * GiB,
      quadratic: true,
      note: 'two dense n × n graphs',
      warning: null,
      refusal: null,
    });
  });

  it('warns above 2 GiB of n × n arrays, and refuses above the worker’s memory limit', async () => {
    const warned = await estimate('fake-huge', { gib: 3 });
    expect(warned.warning).toBe(
      'Fake Huge keeps two dense n × n graphs with n = 6 (about 3 GiB): it may run out of memory',
    );
    expect(warned.refusal).toBeNull();
    const refused = await estimate('fake-huge', { gib: 100 });
    expect(refused.warning).toBe(
      'Fake Huge keeps two dense n × n graphs with n = 6 (about 100 GiB): it may run out of memory',
    );
    expect(refused.refusal).toBe(
      'Fake Huge would need about 100 GiB on this dataset (the data 192 bytes, two dense ' +
        "n × n graphs 100 GiB), more than the solver's memory limit of 8 GiB " +
        '(MVSTUDIO_MEMORY_LIMIT): choose parameters that need less, or a machine with more memory',
    );
  });

  it('never warns about a linear footprint, but refuses it above the limit', async () => {
    const e = await estimate('fake-linear', { gib: 9 });
    expect(e.quadratic).toBe(false);
    expect(e.warning).toBeNull();
    expect(e.refusal).toMatch(/^Fake Linear would need about 9 GiB on this dataset/);
    expect((await estimate('fake-linear', { gib: 7 })).refusal).toBeNull();
  });

  it('runs:start refuses the refused run with the same message, queueing nothing', async () => {
    const { refusal } = await estimate('fake-huge', { gib: 100 });
    const start = { datasetId, method: 'fake-huge', seed: 1, protocol: 'single' } as const;
    const r = await invoke(handlers, 'runs:start', { ...start, params: { gib: 100 } });
    expect(r).toEqual({ ok: false, error: { name: 'TooLarge', message: refusal } });
    expect(runs.list()).toHaveLength(0);
    // A warned run is queued, with the declared iteration cap of its parameters.
    const ok = await invoke(handlers, 'runs:start', { ...start, params: { gib: 3, rounds: 7 } });
    expect(ok.ok && ok.value.status === 'queued' && ok.value.maxIterations).toBe(7);
    expect(runs.list()).toHaveLength(1);
  });

  it('lists the injected solvers, and refuses bad parameters or names like the worker', async () => {
    const listed = await invoke(handlers, 'methods:list', null);
    expect(listed.ok && listed.value.map((m) => m.name)).toEqual(['fake-huge', 'fake-linear']);
    const bad = await invoke(handlers, 'runs:estimate', {
      datasetId,
      method: 'fake-huge',
      params: { gib: -1 },
    });
    expect(bad.ok || bad.error.message).toBe(
      "parameter 'gib' must be an integer from 0 to 1000000; got -1",
    );
    const unknown = await invoke(handlers, 'runs:estimate', {
      datasetId,
      method: 'nope',
      params: {},
    });
    expect(unknown.ok || unknown.error.message).toBe(
      "unknown method 'nope'; methods: fake-huge, fake-linear",
    );
    const malformed = await invoke(handlers, 'runs:estimate', { datasetId, method: 'x', k: 0 });
    expect(malformed.ok || malformed.error.message).toBe(
      "runs:estimate: 'k' must be a positive integer",
    );
  });
});

describe('estimateMemory with the registered CGL', () => {
  // 20,000 samples; views of d 10 (all present) and d 5 (10,000 present).
  const summary = {
    n: 20_000,
    views: [
      { d: 10, present: 20_000 },
      { d: 5, present: 10_000 },
    ],
  };
  const cgl = getSolver('cgl');

  it('holds no n × n array on its default (factorised) path', () => {
    const e = estimateMemory(summary, cgl, validateParams(cgl.schema, {}), 5, null);
    expect(e.quadratic).toBe(false);
    expect(e.warning).toBeNull();
    // The estimate is the solver's own declaration for this shape, nothing guessed here.
    expect(e.methodBytes).toBe(
      cgl.footprint(problemShape(summary, 5), validateParams(cgl.schema, {})).bytes,
    );
    expect(e.methodBytes).toBeLessThan(20_000 * 20_000);
  });

  it('warns on its dense path, whose n × n arrays pass 2 GiB', () => {
    const params = validateParams(cgl.schema, { path: 'dense' });
    const e = estimateMemory(summary, cgl, params, 5, null);
    expect(e.dataBytes).toBe((20_000 * 10 + 10_000 * 5) * 8);
    expect(e.methodBytes).toBe(cgl.footprint(problemShape(summary, 5), params).bytes);
    // At least the (6V + 2) n × n doubles of the dense tensor step.
    expect(e.methodBytes).toBeGreaterThanOrEqual(14 * 20_000 * 20_000 * 8);
    expect(e.methodBytes).toBeGreaterThan(NN_WARN_BYTES);
    expect(e.warning).toMatch(/dense n × n arrays .* with n = 20,000 \(about [0-9.]+ GiB\)/);
    expect(e.refusal).toBeNull();
    expect(estimateMemory(summary, cgl, params, 5, 4 * GiB).refusal).toMatch(
      /more than the solver's memory limit of 4 GiB/,
    );
  });

  it('gives the footprint n, d_v, n_v and k', () => {
    expect(problemShape(summary, 3)).toEqual({
      n: 20_000,
      dims: [10, 5],
      present: [20_000, 10_000],
      k: 3,
    });
  });
});

describe('the time estimate', () => {
  const work = { solve: 1e9, kmeans: 1e8, rest: 1e7, solves: 1, starts: 20 };
  const sample = (method: string, datasetId: string) => ({
    method,
    datasetId,
    work,
    solveSeconds: 2,
    kmeansSeconds: 0.5,
    restSeconds: 0.1,
  });

  it('before any finished run: the declared work at a guessed speed, 10× either way', () => {
    const t = new Calibration().estimate('m', 'd', work);
    const units = 1e9 + 1e8 + 1e7;
    expect(t.seconds).toBeCloseTo(units * PRIOR_SECONDS_PER_UNIT, 12);
    expect(t.low).toBeCloseTo(t.seconds / 10, 12);
    expect(t.high).toBeCloseTo(t.seconds * 10, 12);
    expect(t.calibratedRuns).toBe(0);
    expect(t.basis).toBe(
      "the method's declared work: 1 solve, 20 k-means starts; no run has finished here yet, " +
        'so the speed is a guess (very rough)',
    );
  });

  it('after a run of the method on the dataset: its measured speed, a narrow range', () => {
    const c = new Calibration();
    c.add(sample('m', 'd'));
    // Twice the work: twice the seconds of each part.
    const double = { ...work, solve: 2e9, kmeans: 2e8, rest: 2e7 };
    const t = c.estimate('m', 'd', double);
    expect(t.seconds).toBeCloseTo(2 * (2 + 0.5 + 0.1), 9);
    // One run measured it: each part's spread squared (1.25² for the solve, 1.5² for the rest).
    expect(t.low).toBeCloseTo(2 * (2 / 1.25 ** 2 + 0.6 / 1.5 ** 2), 9);
    expect(t.high).toBeCloseTo(2 * (2 * 1.25 ** 2 + 0.6 * 1.5 ** 2), 9);
    expect(t.calibratedRuns).toBe(1);
    expect(t.basis).toContain('speed measured on 1 finished run of this method on this dataset');
    // On another dataset the same method's speed, a little wider.
    const other = c.estimate('m', 'e', work);
    expect(other.high / other.seconds).toBeCloseTo(1.5 ** 2, 9);
    expect(other.basis).toContain('of this method on other datasets');
    // Another method: this machine's speed on other methods, 10× either way, and said so.
    const m2 = c.estimate('m2', 'd', work);
    expect(m2.calibratedRuns).toBe(0);
    expect(m2.high).toBeCloseTo(2 * 10 + 0.6 * 1.5 ** 2, 9);
    expect(m2.basis).toContain('of other methods (this one has not run here yet: very rough)');
  });

  it('keeps the newest runs; the range spans what they measured', () => {
    const c = new Calibration();
    c.add(sample('m', 'd'));
    c.add({ ...sample('m', 'd'), solveSeconds: 4 });
    const t = c.estimate('m', 'd', work);
    // Two runs: the spreads to the power 1.5.
    expect(t.low).toBeCloseTo(2 / 1.25 ** 1.5 + 0.6 / 1.5 ** 1.5, 9);
    expect(t.high).toBeCloseTo(4 * 1.25 ** 1.5 + 0.6 * 1.5 ** 1.5, 9);
    for (let i = 0; i < 100; i++) c.add(sample('x', 'd'));
    expect(c.size).toBe(64);
    expect(c.estimate('m', 'd', work).calibratedRuns).toBe(0);
  });

  it('runs:estimate answers it; a deterministic method’s solve does not repeat per seed', async () => {
    const ask = async (extra: Record<string, unknown>) => {
      const r = await invoke(handlers, 'runs:estimate', {
        datasetId,
        method: 'fake-huge',
        params: {},
        ...extra,
      });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.time!;
    };
    const one = await ask({});
    const twenty = await ask({ protocol: 'paper', seeds: 20 });
    // The fake declares solve 1, k-means 1 per Lloyd iteration, deterministic: 20 seeds add
    // 20 × 20 k-means starts and the scoring, never a second solve.
    expect(twenty.basis).toContain('1 solve, 400 k-means starts');
    expect(one.basis).toContain('1 solve, 1 k-means start;');
    expect(twenty.seconds).toBeGreaterThan(one.seconds);
    const bad = await invoke(handlers, 'runs:estimate', {
      datasetId,
      method: 'fake-huge',
      params: {},
      protocol: 'lots',
    });
    expect(bad.ok).toBe(false);
  });
});
