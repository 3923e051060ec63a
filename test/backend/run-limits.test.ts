/**
 * The job manager's bounds (issue 16, point 8): seeds per run, runs waiting in the queue, the
 * size of a run's parameter record, and how many finished runs are remembered. The worker is a
 * stand-in process object, so no solver runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, type WorkerProcess } from '../../src/backend/worker-host';
import { MAX_SEEDS } from '../../src/core/limits';
import { parseRequest, type RunInfo } from '../../src/shared/contract';
import type { FromWorker, ToWorker, WorkerRunResult } from '../../src/shared/worker-protocol';
import { fakeDataset, fakeLoader } from '../helpers/fake-dataset';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-limits-'));
  file = join(dir, 'good.mat');
  await writeFile(file, 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** n samples' worth of a finished run, as the worker answers it. */
function workerResult(n: number): WorkerRunResult {
  const labels = new Int32Array(n).map((_, i) => i % 3);
  return {
    method: 'kmeans-concat',
    params: {},
    k: 3,
    result: {
      labels,
      perSeed: [],
      metrics: {},
      objective: [1],
      iterations: 1,
      converged: true,
      notes: [],
      seeds: [1],
      preprocess: 'none',
      fill: null,
    },
    timings: { total_s: 0, load_s: 0, solve_s: 0, kmeans_s: 0 },
    bundle: null,
    view: {
      stageSeconds: {},
      traces: {},
      projection: {
        x: new Float32Array(n),
        y: new Float32Array(n),
        explained: [0, 0],
        exact: true,
        dims: 2,
      },
      missingViews: new Uint8Array(n),
      truth: { codes: Uint8Array.from(labels), classes: [1, 2, 3] },
      confusion: null,
      sampleIds: null,
      charts: {},
      diagnostics: {},
    },
  };
}

/** A worker that never answers (`silent`), fails every run, or answers a 100 000-sample result. */
function standIn(mode: 'silent' | 'fail' | 'done'): () => WorkerProcess {
  return () => {
    let listener: (m: FromWorker) => void = () => {};
    return {
      send: (m: ToWorker) => {
        if (mode === 'fail' && m.type === 'run') {
          const error = { name: 'Error', message: 'stand-in failure' };
          setImmediate(() => listener({ type: 'failed', runId: m.runId, error }));
        }
        if (mode === 'done' && m.type === 'run') {
          const result = workerResult(100_000);
          setImmediate(() => listener({ type: 'done', runId: m.runId, result }));
        }
      },
      onMessage: (l) => {
        listener = l;
        setImmediate(() => l({ type: 'ready' }));
      },
      onExit: () => {},
      kill: () => {},
    };
  };
}

async function manager(
  mode: 'silent' | 'fail' | 'done',
  options: { maxQueued?: number; keepFinished?: number; keepResultBytes?: number } = {},
): Promise<{ runs: RunManager; host: WorkerHost; datasetId: string }> {
  const library = new DatasetLibrary({ load: fakeLoader() });
  const { id } = await library.open(file);
  const host = new WorkerHost({ spawn: standIn(mode) });
  return {
    runs: new RunManager({ host, library, bundleRoot: null, ...options }),
    host,
    datasetId: id,
  };
}

describe('run limits', () => {
  it(`refuses more than MAX_SEEDS (${MAX_SEEDS}) seeds, naming the bound`, async () => {
    const { runs, host, datasetId } = await manager('silent');
    const start = { datasetId, method: 'kmeans-concat', params: {}, seed: 1 } as const;
    expect(() => runs.start({ ...start, protocol: 'paper', seeds: 1_000_000 })).toThrow(
      `runs:start: 'seeds' is 1000000; at most ${MAX_SEEDS} seeds per run are accepted`,
    );
    expect(runs.list()).toHaveLength(0);
    expect(runs.start({ ...start, protocol: 'paper', seeds: MAX_SEEDS }).seeds).toBe(MAX_SEEDS);
    host.dispose();
  });

  it('refuses a run without k on a dataset without labels, before any work', async () => {
    const library = new DatasetLibrary({
      load: async (path) => ({ ...fakeDataset(path), labels: null }),
    });
    const { id } = await library.open(file);
    const host = new WorkerHost({ spawn: standIn('silent') });
    const runs = new RunManager({ host, library, bundleRoot: null });
    const start = { datasetId: id, method: 'kmeans-concat', params: {}, seed: 1 } as const;
    expect(() => runs.start({ ...start, protocol: 'single' })).toThrow(
      `runs:start: ${file} has no labels, so k (the number of clusters) must be given`,
    );
    expect(runs.list()).toHaveLength(0);
    expect(runs.start({ ...start, protocol: 'single', k: 2 }).k).toBe(2);
    host.dispose();
  });

  it('refuses a run when 100 are queued, with a clear message', async () => {
    const { runs, host, datasetId } = await manager('silent');
    const start = {
      datasetId,
      method: 'kmeans-concat',
      params: {},
      seed: 1,
      protocol: 'single',
    } as const;
    for (let i = 0; i < 100; i++) runs.start(start);
    expect(() => runs.start(start)).toThrow(
      '100 runs are already queued (at most 100); wait for some to finish or cancel them',
    );
    expect(runs.list()).toHaveLength(100);
    host.dispose();
  });

  it('forgets the oldest finished runs beyond the bound', async () => {
    const { runs, host, datasetId } = await manager('fail', { keepFinished: 3 });
    const ended = new Set<string>();
    const allEnded = new Promise<void>((resolve) => {
      runs.subscribe((r: RunInfo) => {
        if (r.status === 'failed') ended.add(r.id);
        if (ended.size === 5) resolve();
      });
    });
    const ids = Array.from(
      { length: 5 },
      () =>
        runs.start({ datasetId, method: 'kmeans-concat', params: {}, seed: 1, protocol: 'single' })
          .id,
    );
    await allEnded;
    expect(runs.list().map((r) => r.id)).toEqual(ids.slice(2));
    expect(() => runs.result(ids[0]!)).toThrow(`no run has the id '${ids[0]}'`);
    host.dispose();
  });

  it('keeps results within a byte budget, oldest dropped first, with a clear error after', async () => {
    // One result: 100 000 samples of arrays, ~1.1 MB (Float32 x, y; one-byte codes).
    const { runs, host, datasetId } = await manager('done', { keepResultBytes: 2.5 * 1024 ** 2 });
    const done = new Set<string>();
    const allDone = new Promise<void>((resolve) => {
      runs.subscribe((r: RunInfo) => {
        if (r.status === 'done') done.add(r.id);
        if (done.size === 4) resolve();
      });
    });
    const ids = Array.from(
      { length: 4 },
      () =>
        runs.start({ datasetId, method: 'kmeans-concat', params: {}, seed: 1, protocol: 'single' })
          .id,
    );
    await allDone;
    expect(runs.result(ids[3]!).clusters).toHaveLength(100_000);
    expect(runs.result(ids[2]!).clusters).toHaveLength(100_000);
    expect(() => runs.result(ids[0]!)).toThrow(
      `the result of run ${ids[0]} is no longer kept in memory (the last 50 results, at most 2.5 MiB, are kept); run it again to see it`,
    );
    expect(runs.list()).toHaveLength(4);
    host.dispose();
  });

  it('refuses oversized parameter records in runs:start', () => {
    const ok = { datasetId: 'd', method: 'bsv', seed: 1, protocol: 'single' };
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, i]));
    expect(() => parseRequest('runs:start', { ...ok, params: many })).toThrow(
      "runs:start: 'params' has 65 parameters; at most 64 are accepted",
    );
    expect(() => parseRequest('runs:start', { ...ok, params: { s: 'x'.repeat(1025) } })).toThrow(
      "runs:start: parameter 's' is a string of 1025 characters; at most 1024 are accepted",
    );
    const wide = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`p${i}`, 'y'.repeat(1000)]),
    );
    expect(() => parseRequest('runs:start', { ...ok, params: wide })).toThrow(
      /runs:start: 'params' takes \d+ bytes as JSON; at most 16384 are accepted/,
    );
    expect(parseRequest('runs:start', { ...ok, params: { a: 1, b: 'x' } }).params).toEqual({
      a: 1,
      b: 'x',
    });
  });
});
