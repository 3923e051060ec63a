/**
 * The multi-view data model: what every loader produces and every solver reads.
 *
 * A dataset has `n` samples and V views. A view need not contain every sample: `present`
 * lists, sorted ascending, the sample indices (0-based, into 0..n-1) that the view holds, and
 * row r of the view's values is sample `present[r]`. So
 *   views[v].values: (present.length, d_v), dense row-major or CSR.
 * A complete view has `present = 0..n-1`.
 */
import type { Csr, Mat } from './linalg/types';

export type ViewValues = ({ kind: 'dense' } & Mat) | ({ kind: 'csr' } & Csr);

export interface View {
  /** Display name, e.g. the variable and cell index it came from (`X{2}`) or a file name. */
  readonly name: string;
  /** Number of features. */
  readonly d: number;
  /** (present.length, d) values of the present samples, in the order of `present`. */
  readonly values: ViewValues;
  /** Sorted, distinct 0-based sample indices present in this view. */
  readonly present: Int32Array;
}

/** A label vector: one original value per sample and its 0-based class code. */
export interface Labels {
  /** The variable (or file) the labels came from. */
  readonly source: string;
  /** Distinct original values, sorted (numbers ascending, else lexicographic); code c means classes[c]. */
  readonly classes: readonly (number | string)[];
  /** (n,) class code of each sample, 0 .. classes.length - 1. */
  readonly codes: Int32Array;
}

/** One decision the mapper took (or the user forced), shown to the user as it is. */
export interface Decision {
  /** What was decided: 'views', 'labels', 'orientation', 'label-base', 'missingness', ... */
  readonly topic: string;
  /** The choice, in words. */
  readonly choice: string;
  /** Why, in words. */
  readonly reason: string;
  /** True when the user's options forced it rather than the mapper inferring it. */
  readonly overridden: boolean;
}

export type MissingnessEncoding =
  | 'complete'
  | 'nan-columns'
  | 'zero-rows-with-presence'
  | 'mask-file'
  | 'mask-variable'
  | 'natural';

export interface Provenance {
  /** Path of the data file (or the first file for multi-file sources). */
  readonly file: string;
  /** Container format, e.g. 'mat-v5', 'mat-v7.3', 'csv', 'npy', 'npz', 'synthetic'. */
  readonly format: string;
  /** Names of the variables (or files) the views, labels and masks were taken from. */
  readonly variables: readonly string[];
  /** Orientation chosen for each view: 'n x d' (samples are rows) or 'd x n'. */
  readonly orientation: readonly ('n x d' | 'd x n')[];
  readonly missingness: MissingnessEncoding;
  readonly decisions: readonly Decision[];
  readonly warnings: readonly string[];
}

export interface MultiViewDataset {
  readonly n: number;
  readonly views: readonly View[];
  readonly labels: Labels | null;
  /** Optional external sample identifiers (length n); otherwise samples are 1..n. */
  readonly sampleIds: readonly string[] | null;
  readonly provenance: Provenance;
}

/**
 * Number of samples present in exactly 1..V views: result[c - 1] counts the samples with c
 * views. Samples present in no view are counted in `none`.
 */
export function samplesByViewCount(ds: Pick<MultiViewDataset, 'n' | 'views'>): {
  byCount: number[];
  none: number;
} {
  const count = new Int32Array(ds.n);
  for (const view of ds.views) for (const i of view.present) count[i] = (count[i] ?? 0) + 1;
  const byCount = new Array<number>(ds.views.length).fill(0);
  let none = 0;
  for (const c of count) {
    if (c === 0) none++;
    else byCount[c - 1] = (byCount[c - 1] ?? 0) + 1;
  }
  return { byCount, none };
}

/** Builds Labels from raw values: classes sorted, codes 0-based. */
export function makeLabels(source: string, values: ArrayLike<number> | readonly string[]): Labels {
  const n = values.length;
  const distinct = Array.from(new Set(Array.from(values as ArrayLike<number | string>)));
  const numeric = distinct.every((v) => typeof v === 'number');
  if (numeric) (distinct as number[]).sort((a, b) => a - b);
  else distinct.sort((a, b) => String(a).localeCompare(String(b)));
  const index = new Map<number | string, number>();
  distinct.forEach((v, c) => index.set(v, c));
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) codes[i] = index.get((values as ArrayLike<number | string>)[i]!)!;
  return { source, classes: distinct, codes };
}

/** Class sizes in code order. */
export function classSizes(labels: Labels): number[] {
  const sizes = new Array<number>(labels.classes.length).fill(0);
  for (const c of labels.codes) sizes[c] = (sizes[c] ?? 0) + 1;
  return sizes;
}

/** What `mvstudio info` and the app's dataset view show of a dataset: plain data only. */
export interface DatasetSummary {
  readonly file: string;
  readonly format: string;
  readonly n: number;
  readonly views: readonly {
    readonly name: string;
    readonly d: number;
    readonly present: number;
    readonly sparse: boolean;
    /** NaN or ±Inf entries among the present samples' values. */
    readonly nanCount: number;
  }[];
  readonly labels: {
    readonly source: string;
    readonly classes: readonly (number | string)[];
    readonly sizes: readonly number[];
  } | null;
  /** samplesByViewCount[c - 1]: samples present in exactly c views. */
  readonly samplesByViewCount: readonly number[];
  readonly missingness: MissingnessEncoding;
  readonly variables: readonly string[];
  readonly orientation: readonly string[];
  readonly decisions: readonly Decision[];
  readonly warnings: readonly string[];
}

export function summarize(ds: MultiViewDataset): DatasetSummary {
  const { byCount } = samplesByViewCount(ds);
  return {
    file: ds.provenance.file,
    format: ds.provenance.format,
    n: ds.n,
    views: ds.views.map((v) => {
      let nanCount = 0;
      const vals = v.values.data;
      for (let i = 0; i < vals.length; i++) if (!Number.isFinite(vals[i]!)) nanCount++;
      return {
        name: v.name,
        d: v.d,
        present: v.present.length,
        sparse: v.values.kind === 'csr',
        nanCount,
      };
    }),
    labels: ds.labels
      ? { source: ds.labels.source, classes: ds.labels.classes, sizes: classSizes(ds.labels) }
      : null,
    samplesByViewCount: byCount,
    missingness: ds.provenance.missingness,
    variables: ds.provenance.variables,
    orientation: ds.provenance.orientation,
    decisions: ds.provenance.decisions,
    warnings: ds.provenance.warnings,
  };
}
