/**
 * The template's method: multi-view k-means over each view's present samples. With P_v the
 * present samples of view v and X_v: (n_v, d_v) their values, it minimises over labels
 * y ∈ {0 … k−1}^n and per-view centroids C_v: (k, d_v)
 *   J(y, C) = Σ_v Σ_r ‖X_v[r, :] − C_v[y(P_v[r]), :]‖²
 * by Lloyd's alternation: the assignment y_i = argmin_c Σ_{v ∋ i} ‖x_i^v − C_v[c, :]‖², then
 * C_v[c, :] = the mean of view v's present rows labelled c (kept when there are none). Neither
 * half-step can increase J, so the objective is monotone. Missing samples are never imputed:
 * a sample counts only in the views it is present in (one present in none costs 0 everywhere
 * and goes to cluster 0).
 *
 * Start: k distinct samples drawn from the rng; C_v[c, :] is sample c's row when present in v,
 * else the mean of v's present rows. Cost per iteration O(k·Σ_v n_v·d_v) time; memory
 * O(n·k + k·Σ_v d_v) (see `templateFootprint`).
 *
 * COPYING: this file is the math, free of host concerns: a generator that yields one step per
 * iteration and returns what `index.ts` turns into a SolverOutput. Keep it pure (no clock, no
 * IO, randomness only from `rng`); state shapes in the doc comments (STYLE.md rule 8).
 */
import type { ViewValues } from '../../dataset';
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import { viewMean } from '../impute';
import type { ProblemShape, SolverInput, SolverStep } from '../types';

export interface TemplateOptions {
  /** Most Lloyd iterations (≥ 1). */
  readonly iterations: number;
  /** Relative decrease of J below which the loop stops (> 0). */
  readonly tol: number;
}

export interface TemplateResult {
  /** (n,) 0-based cluster of each sample. */
  readonly labels: Int32Array;
  /** (n, k): D[i, c] = Σ_{v ∋ i} ‖x_i^v − C_v[c, :]‖², the last assignment's costs. */
  readonly costs: Mat;
  /** J after each assignment step (non-increasing). */
  readonly objective: number[];
  readonly converged: boolean;
  /** Per view, its part of the final J (Σ over the view's present samples). */
  readonly viewCosts: number[];
}

/**
 * Row r of a view, (d,): a subarray of a dense view, or the first d entries of `scratch`
 * (length ≥ d) filled from a CSR one.
 */
function readRow(values: ViewValues, r: number, d: number, scratch: Float64Array): Float64Array {
  if (values.kind === 'dense') return values.data.subarray(r * d, (r + 1) * d);
  const row = scratch.subarray(0, d);
  row.fill(0);
  for (let p = values.indptr[r]!; p < values.indptr[r + 1]!; p++) {
    row[values.indices[p]!] = values.data[p]!;
  }
  return row;
}

/** ‖x − C[c, :]‖² for C: (k, d) row-major. */
function squaredDistance(x: Float64Array, C: Float64Array, c: number, d: number): number {
  let s = 0;
  const o = c * d;
  for (let j = 0; j < d; j++) {
    const t = x[j]! - C[o + j]!;
    s += t * t;
  }
  return s;
}

/** The starting centroids C_v: (k, d_v), from k distinct samples drawn from `rng`. */
function startCentroids(input: SolverInput, k: number, rng: Rng): Float64Array[] {
  // Partial Fisher–Yates: the first k entries of a shuffled 0..n−1.
  const order = Int32Array.from({ length: input.n }, (_, i) => i);
  for (let c = 0; c < k; c++) {
    const j = c + rng.int(input.n - c);
    [order[c], order[j]] = [order[j]!, order[c]!];
  }
  return input.views.map((view) => {
    const d = view.d;
    const C = new Float64Array(k * d);
    const mean = viewMean(view);
    const scratch = new Float64Array(d);
    for (let c = 0; c < k; c++) {
      const r = binarySearch(view.present, order[c]!);
      C.set(r >= 0 ? readRow(view.values, r, d, scratch) : mean, c * d);
    }
    return C;
  });
}

/** Index of `x` in the sorted `a`, or −1. */
function binarySearch(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! === x) return mid;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** D: (n, k) filled with the assignment costs against the centroids C. */
function assignmentCosts(
  input: SolverInput,
  C: readonly Float64Array[],
  k: number,
  D: Mat,
  row: Float64Array,
): void {
  D.data.fill(0);
  input.views.forEach((view, v) => {
    const d = view.d;
    for (let r = 0; r < view.present.length; r++) {
      const x = readRow(view.values, r, d, row);
      const o = view.present[r]! * k;
      for (let c = 0; c < k; c++) D.data[o + c]! += squaredDistance(x, C[v]!, c, d);
    }
  });
}

/** Buffers the loop reuses every iteration: per-view sums (k, d_v), counts (k,), a row (max d_v,). */
interface Workspace {
  readonly sums: Float64Array[];
  readonly count: Float64Array;
  readonly row: Float64Array;
}

/** C_v[c, :] = mean of view v's present rows labelled c; a cluster absent from v keeps its row. */
function updateCentroids(
  input: SolverInput,
  labels: Int32Array,
  k: number,
  C: Float64Array[],
  w: Workspace,
): void {
  input.views.forEach((view, v) => {
    const d = view.d;
    const sum = w.sums[v]!;
    sum.fill(0);
    w.count.fill(0);
    for (let r = 0; r < view.present.length; r++) {
      const x = readRow(view.values, r, d, w.row);
      const c = labels[view.present[r]!]!;
      w.count[c]!++;
      for (let j = 0; j < d; j++) sum[c * d + j]! += x[j]!;
    }
    for (let c = 0; c < k; c++) {
      if (w.count[c]! === 0) continue;
      for (let j = 0; j < d; j++) C[v]![c * d + j] = sum[c * d + j]! / w.count[c]!;
    }
  });
}

/** Per view, Σ over its present samples of ‖x_i^v − C_v[y_i, :]‖². */
function costsPerView(
  input: SolverInput,
  C: readonly Float64Array[],
  labels: Int32Array,
  row: Float64Array,
): number[] {
  return input.views.map((view, v) => {
    const d = view.d;
    let s = 0;
    for (let r = 0; r < view.present.length; r++) {
      const x = readRow(view.values, r, d, row);
      s += squaredDistance(x, C[v]!, labels[view.present[r]!]!, d);
    }
    return s;
  });
}

/**
 * The Lloyd loop: yields ('solve', t, J(t)) after each assignment step; returns the labels, the
 * last costs and the trace. 1 ≤ k ≤ n; every view has d_v ≥ 1.
 */
export function* templateIterate(
  input: SolverInput,
  k: number,
  options: TemplateOptions,
  rng: Rng,
): Generator<SolverStep, TemplateResult, void> {
  const { n } = input;
  const C = startCentroids(input, k, rng);
  const w: Workspace = {
    sums: input.views.map((v) => new Float64Array(k * v.d)),
    count: new Float64Array(k),
    row: new Float64Array(Math.max(0, ...input.views.map((v) => v.d))),
  };
  const D: Mat = { rows: n, cols: k, data: new Float64Array(n * k) };
  const labels = new Int32Array(n).fill(-1);
  const objective: number[] = [];
  let converged = false;
  for (let t = 1; t <= options.iterations; t++) {
    assignmentCosts(input, C, k, D, w.row);
    let J = 0;
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let c = 1; c < k; c++) if (D.data[i * k + c]! < D.data[i * k + best]!) best = c;
      if (labels[i] !== best) changed++;
      labels[i] = best;
      J += D.data[i * k + best]!;
    }
    const previous = objective.at(-1);
    objective.push(J);
    yield { stage: 'solve', iteration: t, objective: J, values: { changed } };
    if (changed === 0 || (previous !== undefined && previous - J <= options.tol * previous)) {
      converged = true;
      break;
    }
    updateCentroids(input, labels, k, C, w);
  }
  return {
    labels,
    costs: D,
    objective,
    converged,
    viewCosts: costsPerView(input, C, labels, w.row),
  };
}

/**
 * Bytes `templateIterate` holds at its peak: D (n, k), the labels and the start's shuffled
 * indices (n each, int32), the centroids and the sums (k, Σ d_v each), the counts and a row.
 */
export function templateFootprint({ n, dims, k }: ProblemShape): number {
  const total = dims.reduce((a, d) => a + d, 0);
  return 8 * n * k + 8 * n + 8 * (2 * k * total + k + Math.max(0, ...dims));
}
