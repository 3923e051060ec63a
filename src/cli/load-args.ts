/**
 * The dataset a command names: one MAT/NPZ file, or one CSV/NPY file per view, plus the load
 * flags (`--mask`, `--labels-file`, ...). Every command taking a dataset parses it here, so that
 * `info`, `run`, `compare` and `choose-k` accept the same files and flags with the same errors.
 */
import { DECIMAL_INTEGER } from '../core/solvers/params';
import type { LoadOptions } from '../shared/contract';
import { UsageError } from './errors';

/** The load flags, each taking a value. */
export const LOAD_FLAGS = [
  'mask',
  'fold',
  'views',
  'labels',
  'orientation',
  'labels-file',
] as const;
export type LoadFlag = (typeof LOAD_FLAGS)[number];

/** The load flags as node:util parseArgs options. */
export const LOAD_OPTIONS = {
  mask: { type: 'string' },
  fold: { type: 'string' },
  views: { type: 'string' },
  labels: { type: 'string' },
  orientation: { type: 'string' },
  'labels-file': { type: 'string' },
} as const;

/** The usage text of the load flags, for each command's --help. */
export const LOAD_USAGE = `dataset: <file> (MAT or NPZ), or <view1.csv> <view2.csv> ... (CSV or NPY, one file per view)
  --labels-file f        CSV/NPY datasets: a file with one label per sample
  --mask <file|var>      a mask (missing views): a variable of the data file or a file
  --fold k               the mask's 1-based fold (needs --mask)
  --views v              the variable holding the views (a cell), or a list a,b,c
  --labels v             the variable holding the labels, or 'none'
  --orientation "n x d"|"d x n"   force the orientation of every view`;

/** Turns `--mask`, `--fold`, ... into LoadOptions, checking each value. */
export function loadOptionsFrom(
  values: Partial<Record<LoadFlag, string | undefined>>,
): LoadOptions {
  const o: LoadOptions = {};
  if (values.mask !== undefined) o.mask = values.mask;
  if (values.fold !== undefined) {
    const k = Number(values.fold);
    if (!DECIMAL_INTEGER.test(values.fold) || !Number.isSafeInteger(k) || k < 1) {
      throw new UsageError(`--fold takes a whole number from 1 (got '${values.fold}')`);
    }
    if (values.mask === undefined) throw new UsageError('--fold needs --mask');
    o.fold = k;
  }
  if (values.views !== undefined) o.views = values.views;
  if (values.labels !== undefined) o.labels = values.labels;
  if (values.orientation !== undefined) {
    const v = values.orientation.replace(/\s+/g, ' ').trim().toLowerCase();
    const norm =
      v === 'nxd' || v === 'n x d' ? 'n x d' : v === 'dxn' || v === 'd x n' ? 'd x n' : null;
    if (norm === null) {
      throw new UsageError(`--orientation takes "n x d" or "d x n" (got '${values.orientation}')`);
    }
    o.orientation = norm;
  }
  if (values['labels-file'] !== undefined) o.labelsFile = values['labels-file'];
  return o;
}

/** A dataset as a command names it: its files (at least one) and its load options. */
export interface DatasetArgs {
  readonly files: readonly string[];
  readonly options: LoadOptions;
}

/**
 * The dataset of a command from its positional files and its flag values; a UsageError saying
 * `missing` when no file is given.
 */
export function datasetArgs(
  files: readonly string[],
  values: Partial<Record<LoadFlag, string | undefined>>,
  missing: string,
): DatasetArgs {
  if (files.length === 0) throw new UsageError(missing);
  return { files: [...files], options: loadOptionsFrom(values) };
}
