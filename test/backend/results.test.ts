/** The result store over bundles written by the real CLI path (writeRunBundle). */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultStore } from '../../src/backend/results';
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
