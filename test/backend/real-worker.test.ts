/**
 * The real worker (src/worker/index.ts) through the WorkerHost: a dataset crosses as a path,
 * progress arrives per step, the result and the bundle come back, and a long run cancels.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import type { Progress } from '../../src/shared/worker-protocol';
import type { WorkerRunResult } from '../../src/worker/execute';
import { DATASETS, REPO } from '../helpers/paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-worker-'));
const host = new WorkerHost({
  spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
});
afterAll(() => {
  host.dispose();
  rmSync(TMP, { recursive: true, force: true });
});

describe('the solver worker', () => {
  it('runs BSV on HW.mat from its path and writes the bundle', async () => {
    const seen: Progress[] = [];
    const { outcome } = host.run(
      {
        datasetPath: join(DATASETS, 'HW/HW.mat'),
        loadOptions: {},
        method: 'bsv',
        params: {},
        seed: 1,
        protocol: 'single',
        bundleDir: TMP,
      },
      (p) => seen.push(p),
    );
    const o = await outcome;
    expect(o.status).toBe('done');
    const r = (o as { result: WorkerRunResult }).result;
    expect(r.k).toBe(10);
    expect(r.result.labels).toBeInstanceOf(Int32Array);
    expect(r.result.labels.length).toBe(2000);
    expect(r.result.metrics['ACC']!.mean).toBeGreaterThan(0.9);
    // One 'solve' step per view of HW (6), then k-means steps.
    expect(
      seen
        .filter((p) => p.step.stage === 'solve' && p.step.values?.['eigengap'] !== undefined)
        .map((p) => p.step.iteration),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.some((p) => p.step.stage === 'kmeans')).toBe(true);
    expect(r.bundle).not.toBeNull();
    const csv = readFileSync(join(r.bundle!, 'labels.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe('sample_id,cluster,true_label');
    expect(csv.length).toBe(2001);
    expect(existsSync(join(r.bundle!, 'run.json'))).toBe(true);
  });

  it('fails a run on a missing file with the loader message, and cancels a long run', async () => {
    const bad = await host.run({
      datasetPath: join(TMP, 'nope.mat'),
      loadOptions: {},
      method: 'bsv',
      params: {},
      seed: 1,
      protocol: 'single',
    }).outcome;
    expect(bad).toMatchObject({ status: 'failed', error: { name: 'DataError' } });
    expect((bad as { error: { message: string } }).error.message).toMatch(
      /nope\.mat: cannot open: no such file/,
    );

    let steps = 0;
    const long = host.run(
      {
        datasetPath: join(DATASETS, 'HW/HW.mat'),
        loadOptions: {},
        method: 'kmeans-concat',
        params: {},
        seed: 1,
        protocol: 'paper',
        seeds: 20,
      },
      () => steps++,
    );
    while (steps < 5) await new Promise((r) => setTimeout(r, 10));
    host.cancel(long.runId);
    expect(await long.outcome).toEqual({ status: 'cancelled' });
  });
});
