/**
 * Saves a dataset, gaps included, as a file other tools open: MAT v5 (MATLAB `load`, Octave,
 * scipy.io.loadmat) or NPZ (numpy.load). Both hold every sample in every view, a missing
 * sample as a row of NaN, plus the labels and the presence mask; our loader reads either back
 * as the same incomplete dataset.
 *
 * `.mat` (the layout of the incomplete benchmark files, specs/datasets.md):
 *   X:     cell 1×V; X{v}: (n, d_v) double, NaN rows for the samples view v misses
 *   Y:     (n, 1) double labels (1-based class numbers when the classes are names)
 *   index: cell 1×V; index{v}: (n_v, 1) double, 1-based sorted samples view v holds
 *   mask:  (n, V) double, 1 = present, 0 = missing
 *   classes: cell 1×C of char, only when the classes are names (Y(i) names classes{Y(i)})
 * `.npz`: X1 … XV (n, d_v) float64 with NaN rows, Y (n,), mask (n, V), the same values.
 */
import type { MultiViewDataset, View } from '../core/dataset';
import { MAX_VIEW_VALUES } from '../core/limits';
import { DataError } from './errors';
import { writeMatV5, type MatWriteValue, type MatWriteVariable } from './mat/v5-write';
import { writeNpz, type NpzMember } from './npz-write';

export type SaveFormat = 'mat' | 'npz';

/** The format a save path asks for, by its extension; throws naming the path otherwise. */
export function saveFormatOf(path: string): SaveFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.mat')) return 'mat';
  if (lower.endsWith('.npz')) return 'npz';
  throw new DataError(path, 'a dataset is saved as .mat (MAT v5) or .npz: end the name with one');
}

/** Refuses a view too large to write as a dense n × d matrix, naming it. */
function checkSize(ds: MultiViewDataset, view: View, target: string): void {
  if (ds.n * view.d > MAX_VIEW_VALUES) {
    throw new DataError(
      target,
      `view ${view.name} would be ${ds.n} × ${view.d} values written out, more than ${MAX_VIEW_VALUES.toExponential()}`,
      { variable: view.name },
    );
  }
}

/** (n, d) of one view, every sample, NaN rows for the missing ones; column- or row-major. */
function fullView(ds: MultiViewDataset, view: View, columnMajor: boolean): Float64Array {
  const { n } = ds;
  const d = view.d;
  const out = new Float64Array(n * d).fill(Number.NaN);
  const at = columnMajor
    ? (i: number, j: number) => j * n + i
    : (i: number, j: number) => i * d + j;
  const values = view.values;
  for (let r = 0; r < view.present.length; r++) {
    const i = view.present[r]!;
    if (values.kind === 'dense') {
      for (let j = 0; j < d; j++) out[at(i, j)] = values.data[r * d + j]!;
    } else {
      for (let j = 0; j < d; j++) out[at(i, j)] = 0;
      for (let e = values.indptr[r]!; e < values.indptr[r + 1]!; e++) {
        out[at(i, values.indices[e]!)] = values.data[e]!;
      }
    }
  }
  return out;
}

/** (n,) label values as numbers: the values themselves, or 1-based class numbers for names. */
function labelNumbers(ds: MultiViewDataset): Float64Array | null {
  const labels = ds.labels;
  if (!labels) return null;
  const named = labels.classes.some((c) => typeof c === 'string');
  return Float64Array.from(labels.codes, (c) => (named ? c + 1 : (labels.classes[c] as number)));
}

/** (n, V) presence, 1 = present; row-major or column-major. */
function maskOf(ds: MultiViewDataset, columnMajor: boolean): Float64Array {
  const V = ds.views.length;
  const out = new Float64Array(ds.n * V);
  ds.views.forEach((view, v) => {
    for (const i of view.present) out[columnMajor ? v * ds.n + i : i * V + v] = 1;
  });
  return out;
}

/** Writes `ds` to `target` (.mat or .npz by its extension), atomically. */
export async function saveDataset(ds: MultiViewDataset, target: string): Promise<void> {
  const format = saveFormatOf(target);
  for (const view of ds.views) checkSize(ds, view, target);
  const V = ds.views.length;
  const y = labelNumbers(ds);
  if (format === 'npz') {
    const members: NpzMember[] = ds.views.map((view, v) => ({
      name: `X${v + 1}`,
      shape: [ds.n, view.d],
      data: fullView(ds, view, false),
    }));
    if (y) members.push({ name: 'Y', shape: [ds.n], data: y });
    members.push({ name: 'mask', shape: [ds.n, V], data: maskOf(ds, false) });
    await writeNpz(target, members);
    return;
  }
  const cell = (items: MatWriteValue[]): MatWriteValue => ({
    type: 'cell',
    rows: 1,
    cols: items.length,
    items,
  });
  const variables: MatWriteVariable[] = [
    {
      name: 'X',
      value: cell(
        ds.views.map((view) => ({
          type: 'double',
          rows: ds.n,
          cols: view.d,
          // Made when written, so that one view's full matrix is in memory at a time.
          data: () => fullView(ds, view, true),
        })),
      ),
    },
  ];
  if (y) variables.push({ name: 'Y', value: { type: 'double', rows: ds.n, cols: 1, data: y } });
  variables.push({
    name: 'index',
    value: cell(
      ds.views.map((view) => ({
        type: 'double',
        rows: view.present.length,
        cols: 1,
        data: Float64Array.from(view.present, (i) => i + 1),
      })),
    ),
  });
  variables.push({
    name: 'mask',
    value: { type: 'double', rows: ds.n, cols: V, data: maskOf(ds, true) },
  });
  const classes = ds.labels?.classes;
  if (classes?.some((c) => typeof c === 'string')) {
    variables.push({
      name: 'classes',
      value: cell(classes.map((c) => ({ type: 'char', text: String(c) }))),
    });
  }
  await writeMatV5(target, variables);
}
