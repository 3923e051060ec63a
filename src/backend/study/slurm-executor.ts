/**
 * The Slurm executor of a study: the pending cells as one job array (backend/executors/slurm.ts),
 * each task running `mvstudio study cell <dir> <cellId>` with the command that runs this CLI, so
 * a checkout works as well as an installed copy. Each task asks for the memory the method
 * declares for its cell (`Solver.footprint` on the dataset's shape, plus the data and the
 * process) rounded up to a power of two from 512 MB, so tasks fall into a few arrays. Every
 * submission is appended to `<dir>/slurm.json`, which `study status` reads for the tasks' states
 * and failure reasons. A task that ends without its cell's record (cancelled, killed, out of
 * time) leaves the cell pending: the next `study run` submits it again.
 */
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { getSolver } from '../../core/solvers/registry';
import { writeFileAtomic } from '../../io/atomic';
import { estimateMemory, shapeOf } from '../estimate';
import {
  cancel,
  jobStates,
  submitArray,
  type ArraySubmission,
  type TaskState,
} from '../executors/slurm';
import { readCellRecord, type StudyFile } from './folder';
import { DatasetCache, StudyCancelled, type StudyExecutor } from './engine';

export interface SlurmStudyOptions {
  /** The argv that runs this CLI (node and its script); the task appends `study cell …`. */
  readonly command: readonly string[];
  readonly partition?: string;
  /** A Slurm time limit per task ("30", "2:00:00"). */
  readonly time?: string;
  /** Memory per task in MB for every cell, instead of the footprint's. */
  readonly memMB?: number;
  readonly cpus?: number;
  /** The environment of the Slurm commands (PATH, SLURM_CONF); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** How often the tasks' states are read (default 1 s). */
  readonly intervalMs?: number;
  readonly cache?: DatasetCache;
}

/** One submission: the cells in task order and the array. */
export interface StudySubmission {
  readonly cells: readonly string[];
  readonly array: ArraySubmission;
}

/** `<dir>/slurm.json`: every submission of the study, oldest first. */
export interface SlurmRecord {
  readonly version: 1;
  readonly submissions: readonly StudySubmission[];
}

const slurmJson = (dir: string): string => join(dir, 'slurm.json');

/** The study's submissions, or none when it never ran on Slurm. */
export async function readSlurmRecord(dir: string): Promise<SlurmRecord> {
  const text = await readFile(slurmJson(dir), 'utf8').catch(() => null);
  return text === null ? { version: 1, submissions: [] } : (JSON.parse(text) as SlurmRecord);
}

/** The last task each cell was submitted as, with its state now. */
export async function cellTaskStates(
  dir: string,
  env?: NodeJS.ProcessEnv,
): Promise<Map<string, TaskState>> {
  const out = new Map<string, TaskState>();
  for (const s of (await readSlurmRecord(dir)).submissions) {
    const states = await jobStates(s.array, env ? { env } : {});
    s.cells.forEach((id, i) => out.set(id, states[i]!));
  }
  return out;
}

/** Memory a cell's task asks for: data + footprint + 256 MB for the process, × 1.25, as 2^j MB ≥ 512. */
export function taskMemoryMB(dataBytes: number, methodBytes: number): number {
  const need = ((dataBytes + methodBytes) * 1.25) / 2 ** 20 + 256;
  let mb = 512;
  while (mb < need) mb *= 2;
  return mb;
}

async function cellMemory(dir: string, study: StudyFile, id: string, cache: DatasetCache) {
  const cell = study.cells.find((c) => c.id === id)!;
  const ds = await cache.get(study.spec.datasets.find((d) => d.label === cell.dataset)!);
  const k = study.ks[cell.dataset]!;
  const e = estimateMemory(shapeOf(ds), getSolver(cell.method), cell.params, k, null);
  return taskMemoryMB(e.dataBytes, e.methodBytes);
}

/** Submits the cells as a job array, waits for every task, and reports each recorded cell. */
export function slurmExecutor(o: SlurmStudyOptions): StudyExecutor {
  const env = o.env ?? process.env;
  return {
    async run(dir, study, cells, hooks) {
      if (cells.length === 0) return;
      const folder = resolve(dir);
      const cache = o.cache ?? new DatasetCache(dir);
      const memMB: number[] = [];
      for (const id of cells) memMB.push(o.memMB ?? (await cellMemory(dir, study, id, cache)));
      const record = await readSlurmRecord(dir);
      const array = await submitArray(
        {
          tasks: cells.map((id) => [...o.command, 'study', 'cell', folder, id]),
          workdir: folder,
          jobName: `mvstudio-${study.spec.name.replace(/[^A-Za-z0-9._-]/g, '_')}`,
          memMB,
          logDir: join(folder, 'slurm', String(record.submissions.length + 1)),
          ...(o.partition ? { partition: o.partition } : {}),
          ...(o.time ? { time: o.time } : {}),
          ...(o.cpus ? { cpus: o.cpus } : {}),
        },
        { env },
      );
      const submissions = [...record.submissions, { cells, array }];
      await writeFileAtomic(slurmJson(dir), JSON.stringify({ version: 1, submissions }, null, 1));
      const reported = new Set<string>();
      for (;;) {
        if (hooks.signal?.aborted) {
          await cancel(array, undefined, { env });
          throw new StudyCancelled();
        }
        const states = await jobStates(array, { env });
        for (const [i, t] of states.entries()) {
          const id = cells[i]!;
          if (reported.has(id) || t.phase === 'pending' || t.phase === 'running') continue;
          reported.add(id);
          if (await readCellRecord(dir, id)) await hooks.onCellEnd(id);
        }
        if (reported.size === cells.length) return;
        await new Promise((r) => setTimeout(r, o.intervalMs ?? 1000));
      }
    },
  };
}
