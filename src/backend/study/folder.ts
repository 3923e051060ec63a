/**
 * A study folder on disk (docs/studies.md):
 *   study.json            the spec (file paths resolved), the app version, the cells and each
 *                         cell's state (a summary of the cell records below, rewritten as cells end)
 *   results.csv           the long-format rows of every finished cell (core/study/rows-csv.ts)
 *   cells/<id>/cell.json  a finished cell's record: its state and rows; written last, atomically,
 *                         so a cell without it did not finish (it is run again on restart, as
 *                         is a cell whose failure is marked retryable)
 *   cells/<id>/<bundle>/  the run bundle of the cell (io/bundle.ts)
 *
 * Each cell record is written only by the process that ran the cell, so processes running
 * different cells into one folder (a cluster's job array) never write the same file; study.json
 * and results.csv are rebuilt from the records by `collectStudy`.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { version as appVersion } from '../../../package.json';
import { rowsToCsv } from '../../core/study/rows-csv';
import type { StudyCell, StudySpec } from '../../core/study/spec';
import type { StudyRow } from '../../core/study/types';
import { writeFileAtomic } from '../../io/atomic';

export type CellStatus = 'pending' | 'done' | 'failed';

/** cells/<id>/cell.json. */
export interface CellRecord {
  readonly version: 1;
  readonly id: string;
  readonly status: 'done' | 'failed';
  /** Why the cell failed ('' when done). */
  readonly error: string;
  /** A failure not caused by the input (a bug, a full disk): the next `study run` retries it. */
  readonly retryable: boolean;
  /** Bundle folders, relative to the cell's folder. */
  readonly bundles: readonly string[];
  readonly rows: readonly StudyRow[];
}

/** study.json. */
export interface StudyFile {
  readonly version: 1;
  readonly app: string;
  readonly spec: StudySpec;
  /** The k each dataset runs with, by dataset label. */
  readonly ks: Readonly<Record<string, number>>;
  readonly cells: readonly StudyCell[];
  readonly states: Readonly<Record<string, CellStatus>>;
}

export class StudyFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StudyFolderError';
  }
}

export const studyJson = (dir: string): string => join(dir, 'study.json');
export const cellDir = (dir: string, id: string): string => join(dir, 'cells', id);
const cellJson = (dir: string, id: string): string => join(cellDir(dir, id), 'cell.json');

/** A new study file: every cell pending. */
export function newStudyFile(
  spec: StudySpec,
  ks: Record<string, number>,
  cells: readonly StudyCell[],
): StudyFile {
  const states = Object.fromEntries(cells.map((c) => [c.id, 'pending' as CellStatus]));
  return { version: 1, app: appVersion, spec, ks, cells, states };
}

/** Reads `<dir>/study.json`; a StudyFolderError names the folder when it is missing or bad. */
export async function readStudyFile(dir: string): Promise<StudyFile> {
  let text: string;
  try {
    text = await readFile(studyJson(dir), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new StudyFolderError(`'${dir}' is not a study folder: cannot read study.json (${code})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new StudyFolderError(`${studyJson(dir)}: not JSON (${(e as Error).message})`);
  }
  const f = parsed as Partial<StudyFile> | null;
  if (f?.version !== 1 || !Array.isArray(f.cells) || typeof f.spec !== 'object') {
    throw new StudyFolderError(`${studyJson(dir)}: not a version 1 study file`);
  }
  return f as StudyFile;
}

export async function writeStudyFile(dir: string, f: StudyFile): Promise<void> {
  await writeFileAtomic(studyJson(dir), JSON.stringify(f, null, 2) + '\n');
}

export async function writeCellRecord(dir: string, r: CellRecord): Promise<void> {
  await writeFileAtomic(cellJson(dir, r.id), JSON.stringify(r, null, 2) + '\n');
}

/** The record of cell `id`, or null when the cell has not finished. */
export async function readCellRecord(dir: string, id: string): Promise<CellRecord | null> {
  let text: string;
  try {
    text = await readFile(cellJson(dir, id), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const r = JSON.parse(text) as CellRecord;
  if (r.version !== 1 || r.id !== id || !Array.isArray(r.rows)) {
    throw new StudyFolderError(`${cellJson(dir, id)}: not a version 1 record of cell ${id}`);
  }
  return r;
}

/** Every finished cell's record, in cell order (unknown folders under cells/ are ignored). */
export async function readCellRecords(dir: string, f: StudyFile): Promise<Map<string, CellRecord>> {
  const present = new Set(await readdir(join(dir, 'cells')).catch(() => [] as string[]));
  const out = new Map<string, CellRecord>();
  for (const c of f.cells) {
    if (!present.has(c.id)) continue;
    const r = await readCellRecord(dir, c.id);
    if (r) out.set(c.id, r);
  }
  return out;
}

/**
 * Rebuilds study.json's states and results.csv from the cell records; returns the study file
 * and the rows (cell order, then seed order).
 */
export async function collectStudy(dir: string): Promise<{ study: StudyFile; rows: StudyRow[] }> {
  const f = await readStudyFile(dir);
  const records = await readCellRecords(dir, f);
  const states: Record<string, CellStatus> = {};
  const rows: StudyRow[] = [];
  for (const c of f.cells) {
    const r = records.get(c.id);
    states[c.id] = r?.status ?? 'pending';
    if (r) rows.push(...r.rows);
  }
  const study: StudyFile = { ...f, states };
  await writeStudyFile(dir, study);
  await writeFileAtomic(join(dir, 'results.csv'), rowsToCsv(rows));
  return { study, rows };
}
