/** The result store over bundles written by the real CLI path (writeRunBundle). */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadGrants } from '../../src/backend/grants';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary } from '../../src/backend/library';
import { ResultStore, VIEW_NOT_KEPT, openStoredRun } from '../../src/backend/results';
import { writeRunBundle } from '../../src/io/bundle';
import { evaluate } from '../../src/core/protocol';
import { getSolver } from '../../src/core/solvers/registry';
import { loadDataset } from '../../src/io/load';
import { DATASETS } from '../helpers/paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-results-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('ResultStore', () => {
  it('lists bundles newest first, reports unreadable ones, and clears temporaries', async () => {
    const path = join(DATASETS, 'Synthetic/TwoMoon.mat');
    const ds = await loadDataset(path);
    const solver = getSolver('kmeans-concat');
    const dirs: string[] = [];
    for (const seed of [1, 2]) {
      const gen = evaluate(ds, solver, {}, 2, { protocol: 'single', seed });
      let r = gen.next();
      while (!r.done) r = gen.next();
      dirs.push(
        await writeRunBundle(TMP, {
          datasetPath: path,
          loadOptions: {},
          dataset: ds,
          method: solver.name,
          params: { normalize: 'none' },
          k: 2,
          seed,
          protocol: 'single',
          result: r.value,
          timings: { total_s: 1, load_s: 0, solve_s: 0, kmeans_s: 1 },
          createdAt: new Date(Date.UTC(2026, 0, seed)),
        }),
      );
    }
    mkdirSync(join(TMP, 'broken'));
    writeFileSync(join(TMP, 'broken', 'run.json'), '{"version": 1');
    mkdirSync(join(TMP, '.tmp-half-written'));
    const store = new ResultStore(TMP);
    expect(await store.clean()).toBe(1);
    const { runs, unreadable } = await store.list();
    expect(runs.map((r) => r.record.seed)).toEqual([2, 1]);
    expect(runs.map((r) => r.dir)).toEqual([dirs[1], dirs[0]]);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]!.dir).toBe(join(TMP, 'broken'));
    expect(unreadable[0]!.error).toContain('run.json');
    expect(await new ResultStore(join(TMP, 'none')).list()).toEqual({ runs: [], unreadable: [] });
  });
});

describe('openStoredRun and runs:open', () => {
  /** A bundle as written before view.json was kept: kmeans-concat on TwoMoon, seed 1. */
  async function cliBundle(out: string): Promise<string> {
    const path = join(DATASETS, 'Synthetic/TwoMoon.mat');
    const ds = await loadDataset(path);
    const gen = evaluate(ds, getSolver('kmeans-concat'), {}, 2, { protocol: 'single', seed: 1 });
    let r = gen.next();
    while (!r.done) r = gen.next();
    return writeRunBundle(out, {
      datasetPath: path,
      loadOptions: {},
      dataset: ds,
      method: 'kmeans-concat',
      params: { normalize: 'none' },
      k: 2,
      seed: 1,
      protocol: 'single',
      result: r.value,
      timings: { total_s: 1, load_s: 0.25, solve_s: 0.25, kmeans_s: 0.5 },
    });
  }

  it('a bundle without view.json: clusters and truth from labels.csv, the lack stated', async () => {
    const dir = await cliBundle(join(TMP, 'open'));
    const { record, result } = await openStoredRun(join(dir, 'run.json'));
    expect(record.method).toBe('kmeans-concat');
    const csv = readFileSync(join(dir, 'labels.csv'), 'utf8').trimEnd().split('\n').slice(1);
    expect([...result.clusters]).toEqual(csv.map((l) => Number(l.split(',')[1]) - 1));
    expect(result.classes).toEqual([1, 2]);
    expect([...result.truth!]).toEqual(csv.map((l) => Number(l.split(',')[2]) - 1));
    const counts = result.confusion!.counts;
    expect(counts.flat().reduce((a, b) => a + b, 0)).toBe(record.dataset.missing.n);
    expect(result.metrics).toEqual(record.metrics);
    expect(result.notes.at(-1)).toBe(VIEW_NOT_KEPT);
    expect(result.projection.dims).toBe(0);
    expect(result.stages.map((s) => s.stage)).toEqual(['load', 'solve', 'kmeans']);
    expect(result.bundle).toBe(dir);
  });

  it('runs:open: a path the user did not choose (Electron) or a relative one (web) is refused', async () => {
    const library = new DatasetLibrary({ bundled: [] });
    const grants = await ReadGrants.load(null);
    const electron = createHandlers(library, { pickFile: async () => null, readGrants: grants });
    const web = createHandlers(library, { pickFile: async () => null });
    const refused = await invoke(electron, 'runs:open', { path: '/somewhere/run' });
    expect(refused).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    expect(await invoke(web, 'runs:open', { path: 'mvstudio-runs/x' })).toMatchObject({
      ok: false,
      error: { name: 'InvalidPath' },
    });
    expect(await invoke(web, 'runs:open', { path: '' })).toMatchObject({
      ok: false,
      error: { name: 'InvalidRequest' },
    });
    library.dispose();
  });
});
