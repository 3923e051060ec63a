/**
 * The input layer every incomplete-view baseline of paper 000 applies before its own missing-data
 * convention (specs/baselines-incomplete.md, "Common input layer"; the reference's `findindex`
 * and `NormalizeData` of the IMVC-CBG code):
 *
 * - presence A (n, V): A_iv = 1 when sample i is in view v (from each view's `present` list;
 *   the loader has already turned all-NaN samples into absent ones, so NaN → 0 leaves nothing
 *   to do for the present samples, whose values the protocol has checked finite);
 * - each present sample x_r of each view divided by max(1e-12, ‖x_r‖₂) (a zero sample stays 0);
 * - missing samples stay 0 until a method fills them: `unitMeanFilled` gives the mean fill that
 *   BSV, MIC and DAIMC's start use (the mean of the present, already normalised samples).
 *
 * The reference builds `ind` by searching every sample in every `index{v}` (minutes per BDGP
 * file); here it is one pass over the present lists, O(n·V + Σ_v n_v), and the scaling one pass
 * over the stored values, O(Σ_v nnz_v). CSR views stay CSR; no array is n × n.
 */
import type { View } from '../dataset';
import type { Mat } from '../linalg/types';
import { meanImputed, viewMean } from '../solvers/impute';
import type { SolverInput } from '../solvers/types';
import { presenceMatrix } from './present';

/** The reference's guard: a sample is divided by max(REFERENCE_NORM_FLOOR, ‖x‖₂). */
export const REFERENCE_NORM_FLOOR = 1e-12;

/** (n_v,) 1 / max(1e-12, ‖x_r‖₂) for each present sample r of `view`. O(nnz). */
export function unitRowScales(view: View): Float64Array {
  const x = view.values;
  const m = view.present.length;
  const s = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    let ss = 0;
    if (x.kind === 'dense') {
      for (let j = r * x.cols; j < (r + 1) * x.cols; j++) ss += x.data[j]! * x.data[j]!;
    } else {
      for (let p = x.indptr[r]!; p < x.indptr[r + 1]!; p++) ss += x.data[p]! * x.data[p]!;
    }
    s[r] = 1 / Math.max(REFERENCE_NORM_FLOOR, Math.sqrt(ss));
  }
  return s;
}

/** `view` with each present sample scaled by `unitRowScales` (a new values array, same kind). */
export function unitRowsView(view: View): View {
  const x = view.values;
  const s = unitRowScales(view);
  const data = new Float64Array(x.data.length);
  for (let r = 0; r < s.length; r++) {
    if (x.kind === 'dense') {
      for (let j = r * x.cols; j < (r + 1) * x.cols; j++) data[j] = x.data[j]! * s[r]!;
    } else {
      for (let p = x.indptr[r]!; p < x.indptr[r + 1]!; p++) data[p] = x.data[p]! * s[r]!;
    }
  }
  return { ...view, values: { ...x, data } };
}

/** The common input: unit-L2 views (present samples only) and the presence matrix. */
export interface IncompleteInput {
  readonly n: number;
  /** Per view, its present samples scaled to unit L2 norm (guard 1e-12), same `present`. */
  readonly views: readonly View[];
  /** (n, V) 0/1 presence (the specs' `ind`), row-major. */
  readonly presence: Mat;
}

/**
 * The common input layer of an `'incomplete'` input (see the file comment): its views must hold
 * their own present samples, not a protocol fill (which would be normalised as if observed).
 * O(n·V + Σ_v nnz_v).
 */
export function incompleteInput(input: SolverInput): IncompleteInput {
  if (input.observed) {
    throw new Error('incompleteInput: the views were filled already; declare input: incomplete');
  }
  return {
    n: input.n,
    views: input.views.map(unitRowsView),
    presence: presenceMatrix(
      input.n,
      input.views.map((v) => v.present),
    ),
  };
}

/** A unit-L2 view (from `incompleteInput`) with its missing samples set to its mean. */
export interface MeanFilledView {
  /** (d_v,) the mean of the view's present, normalised samples. */
  readonly mean: Float64Array;
  /** (n, d_v) dense: present rows as they are, missing rows = `mean`. */
  readonly filled: Mat;
}

/** Mean fill of a normalised view (the BSV / MIC convention). O(n·d_v) memory. */
export function unitMeanFilled(view: View, n: number): MeanFilledView {
  return { mean: viewMean(view), filled: meanImputed(view, n) };
}
