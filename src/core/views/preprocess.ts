/**
 * The preprocessing every method shares, applied by the protocol (core/protocol.ts) to the
 * views once, before the solver and before the fill rule of `'complete'` methods
 * (solvers/complete.ts), so that it sees only each view's present samples:
 *
 * - 'none': the raw features (what the reference codes use; the default).
 * - 'l2-rows': each present sample's row x_i of each view scaled to ‖x_i‖₂ = 1; a zero row
 *   stays 0 (counted in the note). CSR views stay CSR.
 * - 'zscore': each feature j of view v centred on the mean of its present samples and divided
 *   by their population standard deviation (N in the denominator, scikit-learn's
 *   StandardScaler): z_ij = (x_ij − μ_j)/σ_j; a constant feature (σ_j = 0) becomes 0, counted
 *   in the note. A CSR view becomes dense (centring fills it), refused above MAX_VIEW_VALUES.
 *
 * A filled sample of a `'complete'` method then takes the mean of the preprocessed present
 * samples (0 for every feature under 'zscore'). Shapes: views[v].values (n_v, d_v) in, the same
 * shape out. Cost O(stored values) per view, one new array per view (none for 'none').
 */
import type { View } from '../dataset';
import { MAX_VIEW_VALUES } from '../limits';
import type { Csr, Mat } from '../linalg/types';
import { SolverInputError } from '../solvers/params';

export type Preprocess = 'none' | 'l2-rows' | 'zscore';

export const PREPROCESS_MODES: readonly Preprocess[] = ['none', 'l2-rows', 'zscore'];

/** `raw` as a Preprocess, or a SolverInputError naming the option and its values. */
export function checkPreprocess(raw: unknown): Preprocess {
  if (typeof raw === 'string' && (PREPROCESS_MODES as readonly string[]).includes(raw)) {
    return raw as Preprocess;
  }
  throw new SolverInputError(
    `preprocess must be one of ${PREPROCESS_MODES.map((m) => `'${m}'`).join(', ')}, got '${String(raw)}'`,
  );
}

/** Preprocessed views and the sentence the run's notes carry (null for 'none'). */
export interface PreprocessedViews {
  readonly views: readonly View[];
  readonly note: string | null;
}

/** Rows of a dense (m, d) matrix scaled to unit length; returns the count of zero rows. */
function l2Dense(x: Mat, out: Float64Array): number {
  const { rows, cols, data } = x;
  let zero = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let ss = 0;
    for (let j = 0; j < cols; j++) ss += data[o + j]! * data[o + j]!;
    if (ss === 0) zero++;
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let j = 0; j < cols; j++) out[o + j] = data[o + j]! * inv;
  }
  return zero;
}

/** Rows of a CSR matrix scaled to unit length (same pattern); returns the count of zero rows. */
function l2Csr(x: Csr, out: Float64Array): number {
  let zero = 0;
  for (let i = 0; i < x.rows; i++) {
    let ss = 0;
    for (let p = x.indptr[i]!; p < x.indptr[i + 1]!; p++) ss += x.data[p]! * x.data[p]!;
    if (ss === 0) zero++;
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let p = x.indptr[i]!; p < x.indptr[i + 1]!; p++) out[p] = x.data[p]! * inv;
  }
  return zero;
}

/**
 * The per-feature z-score of a view's (m, d) values into a dense (m, d) array (see the file
 * comment); returns the array and the count of constant features. Two passes: the means, then
 * the squared deviations from them (not E[x²] − μ², which cancels).
 */
function zscoreView(view: View): { data: Float64Array; constant: number } {
  const x = view.values;
  const m = x.rows;
  const d = view.d;
  const dense = new Float64Array(m * d);
  if (x.kind === 'dense') dense.set(x.data);
  else {
    for (let i = 0; i < m; i++) {
      for (let p = x.indptr[i]!; p < x.indptr[i + 1]!; p++)
        dense[i * d + x.indices[p]!] = x.data[p]!;
    }
  }
  const mean = new Float64Array(d);
  for (let i = 0; i < m; i++) for (let j = 0; j < d; j++) mean[j]! += dense[i * d + j]!;
  for (let j = 0; j < d; j++) mean[j]! /= Math.max(m, 1);
  const sq = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < d; j++) {
      const t = dense[i * d + j]! - mean[j]!;
      sq[j]! += t * t;
    }
  }
  let constant = 0;
  const inv = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const sd = Math.sqrt(sq[j]! / Math.max(m, 1));
    if (sd > 0) inv[j] = 1 / sd;
    else constant++;
  }
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < d; j++) dense[i * d + j] = (dense[i * d + j]! - mean[j]!) * inv[j]!;
  }
  return { data: dense, constant };
}

/** One view under `mode` ('l2-rows' or 'zscore'), and its count of zero rows / constant features. */
function preprocessView(view: View, mode: Exclude<Preprocess, 'none'>): [View, number] {
  const x = view.values;
  if (mode === 'l2-rows') {
    const data = new Float64Array(x.data.length);
    const zero = x.kind === 'dense' ? l2Dense(x, data) : l2Csr(x, data);
    return [{ ...view, values: { ...x, data } }, zero];
  }
  if (x.rows * view.d > MAX_VIEW_VALUES) {
    throw new SolverInputError(
      `preprocess 'zscore': view '${view.name}' would densify to ${x.rows}·${view.d} = ` +
        `${x.rows * view.d} values, above the limit of ${MAX_VIEW_VALUES}; use 'l2-rows' or 'none'`,
    );
  }
  const { data, constant } = zscoreView(view);
  return [{ ...view, values: { kind: 'dense', rows: x.rows, cols: view.d, data } }, constant];
}

/**
 * `views` under `mode` (see the file comment). 'none' returns `views` itself and no note; the
 * other modes return new views (the dataset's arrays are never written) and a note naming the
 * mode and, per view, the zero rows ('l2-rows') or constant features ('zscore') left at 0.
 */
export function preprocessViews(views: readonly View[], mode: Preprocess): PreprocessedViews {
  if (mode === 'none') return { views, note: null };
  const out: View[] = [];
  const counts: number[] = [];
  for (const view of views) {
    const [v, count] = preprocessView(view, mode);
    out.push(v);
    counts.push(count);
  }
  const what =
    mode === 'l2-rows'
      ? 'preprocessing l2-rows: each present sample scaled to unit L2 norm per view'
      : 'preprocessing zscore: each feature centred and scaled to unit (population) standard ' +
        'deviation over its view’s present samples';
  const flagged = counts.some((c) => c > 0)
    ? mode === 'l2-rows'
      ? `; zero rows left at 0 per view: ${counts.join(', ')}`
      : `; constant features left at 0 per view: ${counts.join(', ')}`
    : '';
  return { views: out, note: `${what} (before any fill of missing samples)${flagged}` };
}
