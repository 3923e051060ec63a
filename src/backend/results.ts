/**
 * The result store: the run bundles in one folder (one sub-folder per run, written atomically
 * by the worker or the CLI). Lists them newest first, reads one, and clears the temporaries a
 * killed writer left. A folder whose run.json does not read is reported, not hidden.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTemporaries } from '../io/atomic';
import { readRunBundle, type RunRecord } from '../io/bundle';

export interface StoredRun {
  readonly dir: string;
  readonly record: RunRecord;
}

export interface UnreadableRun {
  readonly dir: string;
  readonly error: string;
}

export class ResultStore {
  constructor(readonly root: string) {}

  /** Removes `.tmp-*` leftovers; call once at start-up. Returns how many were removed. */
  clean(): Promise<number> {
    return removeStaleTemporaries(this.root);
  }

  /** Every bundle under the root, newest first, plus the folders that could not be read. */
  async list(): Promise<{ runs: StoredRun[]; unreadable: UnreadableRun[] }> {
    let names: string[];
    try {
      names = (await readdir(this.root, { withFileTypes: true }))
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], unreadable: [] };
      throw e;
    }
    const runs: StoredRun[] = [];
    const unreadable: UnreadableRun[] = [];
    for (const name of names) {
      const dir = join(this.root, name);
      try {
        runs.push({ dir, record: await readRunBundle(dir) });
      } catch (e) {
        unreadable.push({ dir, error: (e as Error).message });
      }
    }
    runs.sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt));
    return { runs, unreadable };
  }

  /** The bundle in `dir` (a folder under the root). */
  read(dir: string): Promise<RunRecord> {
    return readRunBundle(dir);
  }
}
