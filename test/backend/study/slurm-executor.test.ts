/**
 * The Slurm executor of a study. Without a cluster: the memory sizes a cell asks for. On a real
 * one-node cluster (test/helpers/slurm-cluster.ts): a 2-point × 2-seed study runs as a job
 * array of `mvstudio study cell` tasks; one task cancelled while it runs is reported by `study
 * status` with its reason and left pending; `study run --executor slurm` submits it alone; the
 * rows equal the local executor's bit for bit but for the timings. With CI=true the cluster
 * test must run; elsewhere it is skipped, saying why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancel, jobStates } from '../../../src/backend/executors/slurm';
import { runStudy } from '../../../src/backend/study/engine';
import { readCellRecord, readCellRecords, readStudyFile } from '../../../src/backend/study/folder';
import {
  cellTaskStates,
  readSlurmRecord,
  slurmExecutor,
  taskMemoryMB,
} from '../../../src/backend/study/slurm-executor';
import { rowsToCsv } from '../../../src/core/study/rows-csv';
import { validateStudySpec } from '../../../src/core/study/spec';
import type { StudyRow } from '../../../src/core/study/types';
import { REPO } from '../../helpers/paths';
import {
  inCI,
  slurmUnavailable,
  startSlurmCluster,
  type SlurmCluster,
} from '../../helpers/slurm-cluster';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-study-slurm-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const CLI = [process.execPath, join(REPO, 'bin/mvstudio.mjs')];

function mvstudio(env: NodeJS.ProcessEnv, ...args: string[]) {
  const r = spawnSync(CLI[0]!, [CLI[1]!, ...args], { cwd: TMP, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('taskMemoryMB', () => {
  it('adds 256 MB for the process to 1.25 × (data + footprint), as a power of two from 512', () => {
    expect(taskMemoryMB(0, 0)).toBe(512);
    expect(taskMemoryMB(200 * 2 ** 20, 0)).toBe(512); // 250 + 256 = 506
    expect(taskMemoryMB(200 * 2 ** 20, 8 * 2 ** 20)).toBe(1024); // 260 + 256 = 516
    expect(taskMemoryMB(3 * 2 ** 30, 2 ** 30)).toBe(8192); // 5120 + 256
  });
});

const why = slurmUnavailable();
if (why && !inCI()) console.warn(`[skip] Slurm study executor test: ${why}`);

describe.skipIf(why !== null && !inCI())('a study on a one-node Slurm cluster', () => {
  let cluster: SlurmCluster | undefined;
  beforeAll(async () => {
    if (!why) cluster = await startSlurmCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('runs the cells as array tasks, resubmits a cancelled one, and equals the local run', async () => {
    if (!cluster) throw new Error(`CI=true and ${why}`);
    const env = cluster.env;
    const synth = mvstudio(
      env,
      'synth',
      '--n',
      '120',
      '--k',
      '3',
      '--dims',
      '4,5',
      '--out',
      's.npz',
    );
    expect(synth.status, synth.stderr).toBe(0);
    const raw = {
      name: 'slurm',
      methods: [{ method: 'kmeans-concat', label: 'concat' }],
      datasets: [{ file: join(TMP, 's.npz') }],
      grid: { concat: { normalize: ['none', 'l2-rows'] } },
      seeds: 2,
      protocol: { replicates: 10 },
    };
    const spec = validateStudySpec(raw);
    writeFileSync(join(TMP, 'spec.json'), JSON.stringify(raw));
    const local = await runStudy(join(TMP, 'local'), spec);

    const dir = join(TMP, 'slurm');
    // The first submission's tasks run the CLI through a wrapper that holds cell c0001's task
    // while the file 'hold' exists, so the task is surely running, not done, when it is cancelled
    // (a small cell can end within the poll).
    const hold = join(TMP, 'hold');
    writeFileSync(hold, '');
    writeFileSync(
      join(TMP, 'held.sh'),
      `case "$*" in *" c0001") while [ -e '${hold}' ]; do sleep 0.1; done ;; esac\n` +
        `exec '${CLI[0]!}' '${CLI[1]!}' "$@"\n`,
    );
    const executor = slurmExecutor({
      command: ['/bin/sh', join(TMP, 'held.sh')],
      env,
      intervalMs: 100,
    });
    const first = runStudy(dir, spec, { executor });
    // Cancel task 0 while it runs (Slurm forgets an array task cancelled before it started).
    while (!existsSync(join(dir, 'slurm.json'))) await new Promise((r) => setTimeout(r, 10));
    const [sub] = (await readSlurmRecord(dir)).submissions;
    for (;;) {
      const [task] = await jobStates(sub!.array, { env });
      expect(task!.phase).not.toBe('completed');
      if (task!.phase === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await cancel(sub!.array, [0], { env });
    const partial = await first;
    rmSync(hold);
    expect(sub!.cells).toEqual(['c0001', 'c0002']);
    expect(sub!.array.memMB).toEqual([512, 512]);
    expect(partial.ran).toEqual(['c0002']);
    expect(await readCellRecord(dir, 'c0001')).toBeNull();
    expect((await cellTaskStates(dir, env)).get('c0001')).toMatchObject({
      phase: 'failed',
      state: 'CANCELLED',
    });
    const status = mvstudio(env, 'study', 'status', dir);
    expect(status.stdout).toContain('slurm: 2 cells: 1 done, 0 failed, 1 to run');
    expect(status.stdout).toMatch(
      /c0001 failed \(study run retries it\): Slurm job \d+ task: CANCELLED/,
    );

    // The CLI submits the missing cell alone, its task running this checkout's CLI.
    const again = mvstudio(env, 'study', 'run', 'spec.json', '--out', dir, '--executor', 'slurm');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('slurm: 2 cells (0 failed) in');
    expect(again.stderr).toContain('slurm: 2/2 cells done');
    const record = await readSlurmRecord(dir);
    expect(record.submissions.map((s) => s.cells)).toEqual([['c0001', 'c0002'], ['c0001']]);
    expect(record.submissions[1]!.array.sbatchArgs).toContain('--cpus-per-task=1');

    const f = await readStudyFile(dir);
    const records = await readCellRecords(dir, f);
    const rows = f.cells.flatMap((c) => records.get(c.id)?.rows ?? []);
    const timeless = (rs: readonly StudyRow[]): string =>
      rowsToCsv(rs.map((r) => ({ ...r, seconds: 0 })));
    expect(rows).toHaveLength(4);
    expect(timeless(rows)).toBe(timeless(local.rows));
    expect(readFileSync(join(dir, 'results.csv'), 'utf8')).toBe(rowsToCsv(rows));
    const done = mvstudio(env, 'study', 'status', dir);
    expect(done.stdout).toBe(
      'slurm: 2 cells: 2 done, 0 failed, 0 to run\nSlurm tasks (the last of each cell): 2 COMPLETED\n',
    );
  }, 300_000);
});
