/**
 * The job manager with the real worker on the bundled sample (NGs_Per0.5: 500 samples, 3
 * views, 5 classes): a run's updates, its result as the results view draws it, the labels CSV
 * export, and a cancel that lands within a second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager, methodInfos } from '../../src/backend/runs';
import { fromWireJson, toWireJson } from '../../src/shared/wire';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import type { RunInfo } from '../../src/shared/contract';
import { REPO } from '../helpers/paths';

const SAMPLE = join(REPO, 'resources/datasets/NGs_Per0.5.mat');
const TMP = mkdtempSync(join(tmpdir(), 'mvs-runs-'));
const host = new WorkerHost({
  spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
});
const library = new DatasetLibrary({ bundled: [SAMPLE] });
const runs = new RunManager({ host, library, bundleRoot: join(TMP, 'runs') });
const updates: RunInfo[] = [];
runs.subscribe((r) => updates.push(r));
let datasetId = '';

beforeAll(async () => {
  await library.ready;
  datasetId = library.list()[0]!.id;
});
afterAll(() => {
  host.dispose();
  library.dispose();
  rmSync(TMP, { recursive: true, force: true });
});

/** Resolves with the run's final state. */
function finished(id: string): Promise<RunInfo> {
  return new Promise((resolve) => {
    const stop = runs.subscribe((r) => {
      if (r.id === id && ['done', 'failed', 'cancelled'].includes(r.status)) {
        stop();
        resolve(r);
      }
    });
  });
}

describe('the run manager', () => {
  it('describes the registry with the validator’s words', () => {
    const bsv = methodInfos().find((m) => m.name === 'bsv')!;
    const neighbors = bsv.params.find((p) => p.name === 'neighbors')!;
    expect(neighbors.expects).toBe('an integer from 3 to 100');
  });

  it('runs BSV: updates queued -> running -> done, then the result the charts need', async () => {
    const info = runs.start({ datasetId, method: 'bsv', params: {}, seed: 1, protocol: 'single' });
    expect(info.status).toBe('queued');
    const end = await finished(info.id);
    expect(end.status).toBe('done');
    expect(end.metrics!['ACC']!.mean).toBeGreaterThan(0.2);
    const mine = updates.filter((u) => u.id === info.id).map((u) => u.status);
    expect(mine[0]).toBe('queued');
    expect(mine).toContain('running');
    expect(mine.at(-1)).toBe('done');

    const r = runs.result(info.id);
    expect(r.clusters).toHaveLength(500);
    expect(r.projection.x).toHaveLength(500);
    expect(r.projection.y).toHaveLength(500);
    expect(r.projection.x.every(Number.isFinite)).toBe(true);
    expect(r.missingViews.filter((m) => m > 0).length).toBe(500 - 250);
    expect(r.confusion!.counts.flat().reduce((a, b) => a + b, 0)).toBe(500);
    // The diagonal after alignment is the ACC.
    const diag = r.confusion!.counts.reduce((a, row, i) => a + (row[i] ?? 0), 0);
    expect(diag / 500).toBeCloseTo(r.metrics['ACC']!.mean, 10);
    expect(r.stages.map((s) => s.stage)).toEqual(
      expect.arrayContaining(['load', 'kmeans', 'metrics', 'write']),
    );
    expect(r.clusters).toBeInstanceOf(Uint8Array);
    expect(fromWireJson(toWireJson(r))).toStrictEqual(r);

    const out = join(TMP, 'export', 'labels.csv');
    const { rows } = await runs.exportLabels(info.id, out);
    expect(rows).toBe(500);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('sample_id,cluster,true_label');
    expect(lines).toHaveLength(501);
    expect(lines[1]).toMatch(/^1,[1-5],[1-5]$/);
    // The same file as the bundle's (written by the worker from the dataset).
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(r.bundle!, 'labels.csv'), 'utf8'));

    const copy = join(TMP, 'bundle-copy');
    await runs.exportBundle(info.id, copy);
    expect(existsSync(join(copy, 'run.json'))).toBe(true);
    await expect(runs.exportBundle(info.id, copy)).rejects.toThrow('already exists');
  });

  it("keeps every seed of a paper run: each seed's clusters, confusion and labels CSV", async () => {
    // k-means on the concatenation: one solve serves the seeds, only k-means differs.
    const info = runs.start({
      datasetId,
      method: 'kmeans-concat',
      params: {},
      seed: 7,
      protocol: 'paper',
      seeds: 2,
    });
    expect((await finished(info.id)).status).toBe('done');
    const first = runs.result(info.id);
    expect(first.seed).toBe(7);
    expect(first.sharedSolve).toBe(true);
    expect(runs.result(info.id, 7)).toBe(first);
    for (const [i, seed] of [7, 8].entries()) {
      const r = runs.result(info.id, seed);
      expect(r.seed).toBe(seed);
      expect(r.clusters).toHaveLength(500);
      // The shown confusion is this seed's: its aligned diagonal is this seed's ACC.
      const diag = r.confusion!.counts.reduce((a, row, j) => a + (row[j] ?? 0), 0);
      expect(diag / 500).toBeCloseTo(r.perSeed[i]!.metrics['ACC']!, 10);
      // One shared solve: the same embedding's projection for every seed.
      expect(r.projection).toBe(first.projection);
      expect(Object.keys(r.traces)).toContain('kmeans');
      expect(fromWireJson(toWireJson(r))).toStrictEqual(r);

      const out = join(TMP, 'export', `labels-seed${seed}.csv`);
      expect((await runs.exportLabels(info.id, out, seed)).rows).toBe(500);
      const clusters = readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => Number(l.split(',')[1]) - 1);
      expect(clusters).toEqual(Array.from(r.clusters));
    }
    expect(() => runs.result(info.id, 9)).toThrow(
      `run ${info.id} has no seed 9; its seeds are 7 to 8`,
    );
  });

  it('cancels a long run within a second', async () => {
    const info = runs.start({
      datasetId,
      method: 'kmeans-concat',
      params: {},
      seed: 1,
      protocol: 'paper',
      seeds: 20,
    });
    await new Promise<void>((resolve) => {
      const stop = runs.subscribe((r) => {
        if (r.id === info.id && r.status === 'running') {
          stop();
          resolve();
        }
      });
    });
    const t0 = Date.now();
    const end = finished(info.id);
    runs.cancel(info.id);
    expect((await end).status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(() => runs.result(info.id)).toThrow('cancelled');
  });

  it('fails a run with bad parameters with the validator’s message', async () => {
    const info = runs.start({
      datasetId,
      method: 'bsv',
      params: { neighbors: 2 },
      seed: 1,
      protocol: 'single',
    });
    const end = await finished(info.id);
    expect(end.status).toBe('failed');
    expect(end.error?.message).toBe(
      "parameter 'neighbors' must be an integer from 3 to 100; got 2",
    );
    expect(() =>
      runs.start({ datasetId: 'nope', method: 'bsv', params: {}, seed: 1, protocol: 'single' }),
    ).toThrow("no open dataset has the id 'nope'");
  });
});
