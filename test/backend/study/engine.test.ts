/**
 * The study engine on a small synthetic dataset: one bundle and record per cell, results.csv the
 * long-format rows, resuming runs only the missing cells, and a `mvstudio study run` killed with
 * SIGKILL mid-study resumes to the results of an uninterrupted run (all but the timings).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getSolver } from '../../../src/core/solvers/registry';
import { rowsToCsv } from '../../../src/core/study/rows-csv';
import { validateStudySpec, type StudySpec } from '../../../src/core/study/spec';
import type { StudyRow } from '../../../src/core/study/types';
import {
  DatasetCache,
  StudyCancelled,
  resolvePaths,
  runStudy,
  seedRuns,
} from '../../../src/backend/study/engine';
import { StudyFolderError, readStudyFile } from '../../../src/backend/study/folder';
import { REPO } from '../../helpers/paths';

const BIN = join(REPO, 'bin/mvstudio.mjs');
let tmp: string;

/** Six cells: two entries of the deterministic concatenation, three scalings each. */
const RAW = {
  name: 'toy',
  methods: [
    { method: 'kmeans-concat', label: 'concat' },
    { method: 'kmeans-concat', label: 'again' },
  ],
  datasets: [{ file: 'syn.npz' }],
  grid: {
    concat: { normalize: ['none', 'l2-rows', 'zscore'] },
    again: { normalize: ['zscore', 'none', 'l2-rows'] },
  },
  seeds: 12,
  protocol: { replicates: 5 },
};

const spec = (): StudySpec => resolvePaths(validateStudySpec(RAW), tmp);
/** Rows without their timings: what two runs of one study must agree on. */
const timeless = (rows: readonly StudyRow[]): object[] => rows.map(({ seconds: _s, ...r }) => r);

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mvstudio-study-'));
  const r = spawnSync(
    process.execPath,
    [BIN, 'synth', '--n', '240', '--k', '3', '--dims', '5,6', '--out', join(tmp, 'syn.npz')],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status, r.stderr).toBe(0);
  await writeFile(join(tmp, 'spec.json'), JSON.stringify(RAW));
}, 60_000);
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('seedRuns', () => {
  it('groups consecutive seeds', () => {
    expect(seedRuns([1, 2, 3, 7, 8, 5])).toEqual([
      [1, 3],
      [7, 2],
      [5, 1],
    ]);
  });
});

describe('runStudy', () => {
  it('writes a bundle and a record per cell, study.json and the long-format results', async () => {
    const dir = join(tmp, 'a');
    const progress: number[] = [];
    const { study, rows, ran } = await runStudy(dir, spec(), {
      onProgress: (p) => progress.push(p.done),
    });
    expect(ran).toEqual(['c0001', 'c0002', 'c0003', 'c0004', 'c0005', 'c0006']);
    expect(progress).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(rows).toHaveLength(6 * 12);
    expect(Object.values(study.states)).toEqual(Array(6).fill('done'));
    expect(await readFile(join(dir, 'results.csv'), 'utf8')).toBe(rowsToCsv(rows));
    const file = await readStudyFile(dir);
    expect(file.ks).toEqual({ syn: 3 });
    expect(file.cells[3]).toMatchObject({ label: 'again', grid: { normalize: 'zscore' } });
    const inCell = await readdir(join(dir, 'cells', 'c0002'));
    expect(inCell.filter((f) => f.startsWith('syn-kmeans-concat-1-'))).toHaveLength(1);
    // The same scaling under two labels gives the same numbers: the cells are the same runs.
    const acc = (cell: string): number[] =>
      rows.filter((r) => r.cell === cell).map((r) => r.metrics.acc!);
    expect(acc('c0001')).toEqual(acc('c0005'));
    expect(rows.every((r) => r.stability !== undefined && r.seed >= 1 && r.seed <= 12)).toBe(true);

    // Resuming runs only what is missing, and gives the same rows.
    await rm(join(dir, 'cells', 'c0004', 'cell.json'));
    const again = await runStudy(dir, spec());
    expect(again.ran).toEqual(['c0004']);
    expect(timeless(again.rows)).toEqual(timeless(rows));
  }, 240_000);

  it('runs a missing-rate series on masks generated into the folder', async () => {
    const dir = join(tmp, 'series');
    const raw = {
      ...RAW,
      methods: [{ method: 'kmeans-concat' }],
      grid: {},
      datasets: [{ file: 'syn.npz', missingRates: [0, 0.5], maskSeed: 3 }],
      seeds: 2,
    };
    const series = resolvePaths(validateStudySpec(raw), tmp);
    const { rows } = await runStudy(dir, series);
    expect(rows.map((r) => [r.dataset, r.missingRate, r.status])).toEqual([
      ['syn@0', 0, 'done'],
      ['syn@0', 0, 'done'],
      ['syn@0.5', 0.5, 'done'],
      ['syn@0.5', 0.5, 'done'],
    ]);
    expect((await readdir(join(dir, 'masks'))).sort()).toEqual([
      'syn_0-complete100-seed3.npz',
      'syn_0.5-complete50-seed3.npz',
    ]);
    // 240 samples in 2 views: at rate 0.5, 120 stay complete and 120 keep exactly one view.
    const ds = await new DatasetCache(dir).get(series.datasets[1]!);
    const present = ds.views.map((v) => v.present.length);
    expect(present[0]! + present[1]!).toBe(2 * 120 + 120);
    const full = await new DatasetCache(dir).get(series.datasets[0]!);
    expect(full.views.map((v) => v.present.length)).toEqual([240, 240]);
  }, 120_000);

  it('records a cell that failed for another reason as retryable, and runs it again', async () => {
    const dir = join(tmp, 'retry');
    const raw = { ...RAW, methods: [{ method: 'kmeans-concat' }], grid: {}, seeds: 2 };
    const one = resolvePaths(validateStudySpec(raw), tmp);
    const solver = getSolver('kmeans-concat');
    const spy = vi.spyOn(solver, 'run').mockImplementationOnce(() => {
      throw new Error('injected bug');
    });
    const first = await runStudy(dir, one);
    spy.mockRestore();
    expect(first.study.states).toEqual({ c0001: 'failed' });
    expect(first.rows[0]).toMatchObject({ status: 'failed', error: 'Error: injected bug' });
    const again = await runStudy(dir, one);
    expect(again.ran).toEqual(['c0001']);
    expect(again.study.states).toEqual({ c0001: 'done' });
  }, 120_000);

  it('refuses a folder holding another spec', async () => {
    const dir = join(tmp, 'a');
    const other = resolvePaths(validateStudySpec({ ...RAW, seeds: 3 }), tmp);
    await expect(runStudy(dir, other)).rejects.toThrow(StudyFolderError);
  }, 60_000);

  it('keeps a cell that failed on bad input as failed, with its reason, and does not rerun it', async () => {
    const dir = join(tmp, 'failing');
    const raw = {
      ...RAW,
      methods: [{ method: 'imvc-cbg', params: { iterations: 5 } }],
      grid: { 'imvc-cbg': { anchors: [1, 'k'] } },
      seeds: 2,
    };
    const failing = resolvePaths(validateStudySpec(raw), tmp);
    const first = await runStudy(dir, failing);
    expect(first.study.states).toEqual({ c0001: 'failed', c0002: 'done' });
    const failed = first.rows.filter((r) => r.cell === 'c0001');
    expect(failed.map((r) => [r.seed, r.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
    ]);
    expect(failed[0]!.error).toContain(
      'the number of anchors m = 1 is below the latent dimension 3',
    );
    expect(first.rows.filter((r) => r.cell === 'c0002').map((r) => r.grid)).toEqual([
      { anchors: 3 },
      { anchors: 3 },
    ]);
    const again = await runStudy(dir, failing);
    expect(again.ran).toEqual([]);
  }, 120_000);

  it('stops between cells on cancel; the finished cells are kept', async () => {
    const dir = join(tmp, 'stopped');
    const controller = new AbortController();
    const onProgress = (p: { done: number }): void => {
      if (p.done === 2) controller.abort();
    };
    await expect(runStudy(dir, spec(), { signal: controller.signal, onProgress })).rejects.toThrow(
      StudyCancelled,
    );
    expect([...(await records(dir)).keys()].sort()).toEqual(['c0001', 'c0002']);
    const resumed = await runStudy(dir, spec());
    expect(resumed.ran).toEqual(['c0003', 'c0004', 'c0005', 'c0006']);
  }, 120_000);

  it('stops on cancel and writes no record of the cancelled cell', async () => {
    const dir = join(tmp, 'cancelled');
    const controller = new AbortController();
    controller.abort();
    await expect(runStudy(dir, spec(), { signal: controller.signal })).rejects.toThrow(
      StudyCancelled,
    );
    expect(existsSync(join(dir, 'study.json'))).toBe(true);
    expect(existsSync(join(dir, 'cells', 'c0001', 'cell.json'))).toBe(false);
  }, 60_000);
});

/** The records present in `dir`: cell id -> file text. */
async function records(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const cells = await readdir(join(dir, 'cells')).catch(() => [] as string[]);
  for (const id of cells) {
    const p = join(dir, 'cells', id, 'cell.json');
    if (existsSync(p)) out.set(id, await readFile(p, 'utf8'));
  }
  return out;
}

describe('mvstudio study run killed with SIGKILL', () => {
  it('resumes running only the missing cells; the results equal an uninterrupted run', async () => {
    const dir = join(tmp, 'killed');
    const child = spawn(
      process.execPath,
      [BIN, 'study', 'run', join(tmp, 'spec.json'), '--out', dir],
      {
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_c, s) => res(s)));
    // Kill as soon as the first record appears.
    let before = new Map<string, string>();
    for (let i = 0; i < 6000 && before.size === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      before = await records(dir);
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    before = await records(dir);
    expect(before.size).toBeGreaterThan(0);
    expect(before.size).toBeLessThan(6); // killed mid-study

    const r = spawnSync(
      process.execPath,
      [BIN, 'study', 'run', join(tmp, 'spec.json'), '--out', dir],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const after = await records(dir);
    expect(after.size).toBe(6);
    // The cells finished before the kill were not run again: their records are the same bytes.
    for (const [id, text] of before) expect(after.get(id)).toBe(text);
    // One progress line per cell run: only the missing ones.
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(6 - before.size);
    expect(lines[0]).toMatch(new RegExp(`^toy: ${before.size + 1}/6 cells done`));

    const resumed = (await readStudyFile(dir)).cells.flatMap(
      (c) => JSON.parse(after.get(c.id)!).rows as StudyRow[],
    );
    const whole = await runStudy(join(tmp, 'whole'), spec());
    expect(timeless(resumed)).toEqual(timeless(whole.rows));
    // Only the killed cell's own bundle is left in its folder (its leftovers were cleared).
    for (const id of after.keys()) {
      const bundles = (await readdir(join(dir, 'cells', id))).filter((f) => f !== 'cell.json');
      expect(bundles).toHaveLength(1);
    }
  }, 300_000);
});
