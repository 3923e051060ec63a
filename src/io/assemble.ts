/**
 * Dataset assembly shared by the one-file-per-view readers (CSV, NPY): the views read as full
 * (n, d_v) matrices become a MultiViewDataset. All-NaN rows are a view's missing samples, the
 * views must agree on n, view names come from the file names, labels come from a labels file
 * (checked to look like a labelling), and every choice is a Decision in the provenance.
 * Sample ids are never read from these files (`sampleIds: null`).
 */
import { basename } from 'node:path';
import type {
  Decision,
  Labels,
  MissingnessEncoding,
  MultiViewDataset,
  View,
} from '../core/dataset';
import { DataError, nonFiniteWarning } from './errors';

/** A view file read as a full matrix, before missing rows are taken out. */
export interface RawView {
  readonly file: string;
  /** View name (the file's base name, made unique). */
  readonly name: string;
  /** Number of rows = samples. */
  readonly n: number;
  readonly d: number;
  /** (n, d) row-major; a row that is entirely NaN is a missing sample. */
  readonly data: Float64Array;
  /** How to name sample i (0-based) of this file in a warning, e.g. 'row 8'. */
  readonly rowName: (i: number) => string;
  /** What the rows are called in a count mismatch message, e.g. 'data rows'. */
  readonly countName: string;
}

/**
 * Takes the all-NaN rows out of each view, checks that the views agree on n and that each
 * holds some sample, and says what it found in decisions and warnings.
 */
export function assembleViews(raw: readonly RawView[]): {
  n: number;
  views: View[];
  missingness: MissingnessEncoding;
  decisions: Decision[];
  warnings: string[];
} {
  const first = raw[0]!;
  const n = first.n;
  for (const r of raw) {
    if (r.n !== n) {
      throw new DataError(
        r.file,
        `has ${r.n} ${r.countName} but ${first.file} has ${n}; every view file needs one row per sample`,
      );
    }
  }
  const warnings: string[] = [];
  const views: View[] = [];
  const missingPerView: string[] = [];
  const inSomeView = new Uint8Array(n);
  for (const r of raw) {
    const { present, values, partialRows, firstPartial } = dropMissingRows(r.data, r.n, r.d);
    if (present.length === 0) {
      throw new DataError(
        r.file,
        `every row is empty or NaN, so view ${r.name} holds no sample; expected at least one row of numbers`,
      );
    }
    for (const i of present) inSomeView[i] = 1;
    if (present.length < n) missingPerView.push(`${r.name} lacks ${n - present.length} of ${n}`);
    if (partialRows > 0) {
      warnings.push(
        `${r.file}: ${partialRows} row${partialRows === 1 ? ' has' : 's have'} some NaN or empty cells (kept as NaN), the first is ${r.rowName(firstPartial)}`,
      );
    }
    // Infinities (`inf`, or `1e999` overflowing) get the MAT path's warning; NaN cells are
    // missing values, already counted in the partial-row warning above.
    let infinite = 0;
    for (let k = 0; k < values.length; k++) if (Math.abs(values[k]!) === Infinity) infinite++;
    if (infinite > 0) warnings.push(nonFiniteWarning(r.name, infinite));
    views.push({
      name: r.name,
      d: r.d,
      values: { kind: 'dense', rows: present.length, cols: r.d, data: values },
      present,
    });
  }
  const orphans: number[] = [];
  for (let i = 0; i < n; i++) if (!inSomeView[i]) orphans.push(i);
  if (orphans.length > 0) {
    const shown = orphans.slice(0, 10).map((i) => String(i + 1));
    warnings.push(
      `${orphans.length} sample${orphans.length === 1 ? ' is' : 's are'} missing from every view (sample${orphans.length === 1 ? '' : 's'} ${shown.join(', ')}${orphans.length > 10 ? ', …' : ''}); kept, so that sample numbers and labels stay aligned`,
    );
  }
  const missingness: MissingnessEncoding = missingPerView.length > 0 ? 'natural' : 'complete';
  const decisions: Decision[] = [
    {
      topic: 'orientation',
      choice: 'n x d for every view',
      reason: 'samples are rows in every file',
      overridden: false,
    },
    missingness === 'natural'
      ? {
          topic: 'missingness',
          choice: `natural: rows that are entirely empty or NaN are missing samples (${missingPerView.join('; ')})`,
          reason: 'some view files have rows without any value',
          overridden: false,
        }
      : {
          topic: 'missingness',
          choice: 'complete',
          reason: 'every row of every view file has at least one value',
          overridden: false,
        },
  ];
  return { n, views, missingness, decisions, warnings };
}

/**
 * Splits an (n, d) row-major matrix into its present rows: `present` lists the rows that are
 * not entirely NaN, `values` is the (present.length, d) matrix of those rows.
 */
export function dropMissingRows(
  data: Float64Array,
  n: number,
  d: number,
): { present: Int32Array; values: Float64Array; partialRows: number; firstPartial: number } {
  const keep = new Int32Array(n);
  let count = 0;
  let partialRows = 0;
  let firstPartial = -1;
  for (let i = 0; i < n; i++) {
    let nan = 0;
    for (let j = i * d, end = j + d; j < end; j++) if (Number.isNaN(data[j])) nan++;
    if (d > 0 && nan === d) continue;
    if (nan > 0) {
      partialRows++;
      if (firstPartial < 0) firstPartial = i;
    }
    keep[count++] = i;
  }
  const present = keep.slice(0, count);
  let values: Float64Array;
  if (count === n) values = data;
  else {
    values = new Float64Array(count * d);
    for (let r = 0; r < count; r++) {
      const i = present[r]!;
      values.set(data.subarray(i * d, (i + 1) * d), r * d);
    }
  }
  return { present, values, partialRows, firstPartial };
}

/** Base names of the files, with the full path kept where two base names collide. */
export function viewNames(paths: readonly string[]): string[] {
  const bases = paths.map((p) => basename(p));
  return bases.map((b, i) => (bases.indexOf(b) !== bases.lastIndexOf(b) ? paths[i]! : b));
}

/** The 'views' decision: one view per file, with each view's shape. */
export function viewsDecision(raw: readonly RawView[], kind: string): Decision {
  return {
    topic: 'views',
    choice: `${raw.length} view${raw.length === 1 ? '' : 's'}, one per file: ${raw
      .map((r) => `${r.name} (${r.n} x ${r.d})`)
      .join(', ')}`,
    reason: `the ${kind} files were given as the views`,
    overridden: true,
  };
}

/**
 * The common end of the one-file-per-view loaders (CSV, NPY): labels from the labels file,
 * if any, and the provenance.
 */
export async function finishDataset(args: {
  format: string;
  viewPaths: readonly string[];
  names: readonly string[];
  raw: readonly RawView[];
  assembled: ReturnType<typeof assembleViews>;
  decisions: Decision[];
  labelsFile: string | undefined;
  readLabels: (
    file: string,
    n: number,
    reference: RawView,
  ) => Promise<{ labels: Labels; decisions: Decision[] }>;
}): Promise<MultiViewDataset> {
  const { assembled, decisions, labelsFile, raw } = args;
  decisions.push(...assembled.decisions);
  let labels: Labels | null = null;
  if (labelsFile !== undefined) {
    const read = await args.readLabels(labelsFile, assembled.n, raw[0]!);
    labels = read.labels;
    decisions.push(...read.decisions);
  } else {
    decisions.push({
      topic: 'labels',
      choice: 'none',
      reason: 'no labels file was given',
      overridden: false,
    });
  }
  return {
    n: assembled.n,
    views: assembled.views,
    labels,
    sampleIds: null,
    provenance: {
      file: args.viewPaths[0]!,
      format: args.format,
      variables: [...args.names, ...(labelsFile !== undefined ? [basename(labelsFile)] : [])],
      orientation: raw.map(() => 'n x d'),
      missingness: assembled.missingness,
      decisions,
      warnings: [...assembled.warnings],
    },
  };
}

/**
 * What a class name may be: short, letters, digits, space and `_ - . +`. A labels file is named
 * by the caller, so its values are shown back only if they look like class names and not like
 * the lines of some other text file.
 */
export const LABEL_NAME = /^[\p{L}\p{N} _\-.+]{1,64}$/u;

/**
 * Checks label values before they become classes: each a finite number or a short name, and
 * not one distinct value per sample (n > 2), which is an index or some other column, not a
 * labelling. Errors name the place (`where(i)`) but never the value.
 */
export function checkLabelValues(
  file: string,
  values: readonly (number | string)[],
  where: (i: number) => { row?: number; variable?: string },
): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (typeof x === 'number' ? !Number.isFinite(x) : !LABEL_NAME.test(x)) {
      throw new DataError(
        file,
        typeof x === 'number'
          ? `the label is not a finite number; expected a class number or name`
          : `the label is not a class name (expected a number, or at most 64 letters, digits, spaces, '_', '-', '.' or '+')`,
        where(i),
      );
    }
  }
  if (values.length > 2 && new Set(values).size === values.length) {
    throw new DataError(
      file,
      `every one of the ${values.length} samples has a label of its own: this does not look like a label file`,
    );
  }
}
