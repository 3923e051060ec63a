/**
 * Label vectors -> 0-based codes -> the contingency table every external metric reads.
 *
 * Label remap. The reference `Clustering8Measure.m` remaps a label vector to 1..#unique (in
 * sorted order) only when #unique ≠ max(label); otherwise it uses the labels as they are, which
 * works only when they are exactly {1..#unique} and crashes on sets like {0, 2, 3} (an index 0).
 * Every metric here depends only on the partition, so we always encode to codes 0..c−1 in sorted
 * order of the distinct values: identical to the reference wherever it runs (remapped or already
 * 1..c), and defined (the same partition's metrics) where it crashes.
 */

/** A label vector encoded as 0-based codes into its sorted distinct values. */
export interface EncodedLabels {
  /** (n,) code of each sample, 0 .. values.length − 1. */
  readonly codes: Int32Array;
  /** Distinct original values, ascending; code c stands for values[c]. */
  readonly values: Float64Array;
}

/**
 * Encodes `labels` (n,) of finite numbers. Integer labels in a range no wider than 4n + 64 are
 * encoded by direct indexing (O(n + range)); others by sorting the distinct values (O(n log n)).
 */
export function encodeLabels(labels: ArrayLike<number>, what = 'labels'): EncodedLabels {
  const n = labels.length;
  let min = Infinity;
  let max = -Infinity;
  let integral = true;
  for (let i = 0; i < n; i++) {
    const x = labels[i]!;
    if (!Number.isFinite(x))
      throw new RangeError(`${what}[${i}] is ${x}: labels must be finite numbers`);
    if (x < min) min = x;
    if (x > max) max = x;
    if (integral && !Number.isInteger(x)) integral = false;
  }
  const codes = new Int32Array(n);
  if (n === 0) return { codes, values: new Float64Array(0) };
  if (integral && max - min <= 4 * n + 64) {
    const slot = new Int32Array(max - min + 1).fill(-1);
    for (let i = 0; i < n; i++) slot[labels[i]! - min] = 0;
    const values: number[] = [];
    for (let v = 0; v < slot.length; v++) if (slot[v] === 0) slot[v] = values.push(v + min) - 1;
    for (let i = 0; i < n; i++) codes[i] = slot[labels[i]! - min]!;
    return { codes, values: Float64Array.from(values) };
  }
  const sorted = Float64Array.from(labels).sort();
  let c = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[c - 1]) sorted[c++] = sorted[i]!;
  const values = sorted.slice(0, c);
  const index = new Map<number, number>();
  values.forEach((v, k) => index.set(v, k));
  for (let i = 0; i < n; i++) codes[i] = index.get(labels[i]!)!;
  return { codes, values };
}

/**
 * The contingency table G of two partitions of n samples, stored sparsely by rows:
 * G[i][j] = #{samples of true class i in predicted cluster j}, rows i = 0..nClasses−1,
 * columns j = 0..nClusters−1. Row i's nonzero cells are p = rowPtr[i] .. rowPtr[i+1]−1 with
 * column `cluster[p]` and value `count[p]`; at most n cells in all.
 */
export interface Contingency {
  readonly n: number;
  readonly nClasses: number;
  readonly nClusters: number;
  /** (nClasses,) row sums a_i. */
  readonly classSizes: Float64Array;
  /** (nClusters,) column sums b_j. */
  readonly clusterSizes: Float64Array;
  /** (nClasses + 1,) row pointers into `cluster` and `count`. */
  readonly rowPtr: Int32Array;
  readonly cluster: Int32Array;
  readonly count: Float64Array;
}

/**
 * Builds the contingency table of `truth` (n,) and `pred` (n,) codes (0..nClasses−1 and
 * 0..nClusters−1) in O(n + nClasses + nClusters): a counting sort of the samples by class, then
 * one pass per class counting its clusters in a scratch row of length nClusters.
 */
export function contingencyFromCodes(
  truth: Int32Array,
  nClasses: number,
  pred: Int32Array,
  nClusters: number,
): Contingency {
  const n = truth.length;
  const classSizes = new Float64Array(nClasses);
  const clusterSizes = new Float64Array(nClusters);
  const start = new Int32Array(nClasses + 1);
  for (let s = 0; s < n; s++) {
    start[truth[s]! + 1]!++;
    clusterSizes[pred[s]!]!++;
  }
  for (let i = 0; i < nClasses; i++) {
    classSizes[i] = start[i + 1]!;
    start[i + 1]! += start[i]!;
  }
  const byClass = new Int32Array(n);
  const fill = start.slice(0, nClasses);
  for (let s = 0; s < n; s++) byClass[fill[truth[s]!]!++] = s;

  const rowPtr = new Int32Array(nClasses + 1);
  const cluster = new Int32Array(n);
  const count = new Float64Array(n);
  const scratch = new Int32Array(nClusters);
  let cells = 0;
  for (let i = 0; i < nClasses; i++) {
    const first = cells;
    for (let q = start[i]!; q < start[i + 1]!; q++) {
      const j = pred[byClass[q]!]!;
      if (scratch[j] === 0) cluster[cells++] = j;
      scratch[j]!++;
    }
    for (let p = first; p < cells; p++) {
      const j = cluster[p]!;
      count[p] = scratch[j]!;
      scratch[j] = 0;
    }
    rowPtr[i + 1] = cells;
  }
  return {
    n,
    nClasses,
    nClusters,
    classSizes,
    clusterSizes,
    rowPtr,
    cluster: cluster.slice(0, cells),
    count: count.slice(0, cells),
  };
}

/** The contingency table of two label vectors (any finite numbers; see the remap note above). */
export function contingency(truth: ArrayLike<number>, pred: ArrayLike<number>): Contingency {
  if (truth.length !== pred.length) {
    throw new RangeError(`truth has ${truth.length} labels but pred has ${pred.length}`);
  }
  if (truth.length === 0) throw new RangeError('the label vectors are empty');
  const t = encodeLabels(truth, 'truth');
  const p = encodeLabels(pred, 'pred');
  return contingencyFromCodes(t.codes, t.values.length, p.codes, p.values.length);
}
