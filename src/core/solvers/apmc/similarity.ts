/**
 * APMC's anchor graph of one view pair (spec baselines-incomplete.md §4; the reference's
 * `getSim` / `withinSim`). For the pair (a, b) with anchors P (the samples present in both, in
 * group order, `groups.ts`), in each view v ∈ {a, b} separately, over its rows R_v = [P; present
 * in v only of the two]:
 *
 *   D_v(r, j) = ‖x_r − x_{P_j}‖²      (unit-L2 rows, squared distances by the expansion)
 *   σ_v = 4 · mean_{r, j} D_v(r, j)
 *   Z_v(r, j) = exp(−D_v(r, j)/σ_v) / Σ_{j' ∈ N(r)} exp(−D_v(r, j')/σ_v)   for j ∈ N(r),
 *               the k_a nearest anchors of r (ties: the lower position), 0 elsewhere;
 *               entries below 1e-10 set to 0.
 *
 * The pair's rows are [P; a only; b only]: Z = [½(Z_a + Z_b) on P; Z_a on a only; Z_b on b only]
 * (n_ab × m, at most 2·k_a entries a row), and its similarity S_ab = Z·Λ·Zᵀ with
 * Λ = diag(1 / Σ_r Z(r, j)). An anchor no row picks has Σ_r Z(r, j) = 0: the reference's 1/0
 * makes all of S_ab NaN; with the guard its λ_j is 0 (it drops out of Z·Λ·Zᵀ).
 *
 * S_ab is never formed: `operator.ts` applies the average of the pair similarities through Z.
 * Cost per pair O(n_ab·m·(d_a + d_b)) for the distances (row blocks, `nearestAnchors`), O(n_ab·k_a)
 * memory for Z.
 */
import { nearestAnchors, nearestAnchorsSparse } from '../../graph/anchor-knn';
import { gatherRows } from '../../linalg/rows';
import type { Csr, Mat } from '../../linalg/types';
import { hasView, samplesWhere, type Groups } from './groups';

/** Entries of a normalised anchor row below this are set to 0 (the reference's threshold). */
const ZERO_BELOW = 1e-10;

/** Below this share of nonzeros a view's distances go through sparse dot products. */
const SPARSE_BELOW = 0.1;

/** The nonzeros of X as CSR (sorted columns), or null when more than SPARSE_BELOW are nonzero. */
function sparseOrNull(X: Mat): Csr | null {
  let nnz = 0;
  for (const x of X.data) if (x !== 0) nnz++;
  if (nnz > SPARSE_BELOW * X.data.length) return null;
  return toCsr(X, nnz);
}

/** The nonzeros of X (nnz of them) as CSR, columns ascending. */
function toCsr(X: Mat, nnz: number): Csr {
  const indptr = new Int32Array(X.rows + 1);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  let q = 0;
  for (let r = 0; r < X.rows; r++) {
    for (let j = 0; j < X.cols; j++) {
      const x = X.data[r * X.cols + j]!;
      if (x === 0) continue;
      indices[q] = j;
      data[q++] = x;
    }
    indptr[r + 1] = q;
  }
  return { rows: X.rows, cols: X.cols, indptr, indices, data };
}

/**
 * One view's unit-L2 rows as every pair reads them: dense (n_v × d), and as CSR when at most
 * 2·SPARSE_BELOW of the view is nonzero, so that each pair gathers its sparse rows from it
 * instead of scanning its dense rows again.
 */
export interface ViewSource {
  readonly dense: Mat;
  readonly csr: Csr | null;
}

/** The view's source for `pairGraph`. O(n_v·d). */
export function viewSource(dense: Mat): ViewSource {
  let nnz = 0;
  for (const x of dense.data) if (x !== 0) nnz++;
  return { dense, csr: nnz <= 2 * SPARSE_BELOW * dense.data.length ? toCsr(dense, nnz) : null };
}

/** Rows `at` of a CSR matrix (nnz of them in total), as CSR. */
function gatherCsr(S: Csr, at: Int32Array, nnz: number): Csr {
  const indptr = new Int32Array(at.length + 1);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  let q = 0;
  for (let r = 0; r < at.length; r++) {
    const from = S.indptr[at[r]!]!;
    const to = S.indptr[at[r]! + 1]!;
    indices.set(S.indices.subarray(from, to), q);
    data.set(S.data.subarray(from, to), q);
    q += to - from;
    indptr[r + 1] = q;
  }
  return { rows: at.length, cols: S.cols, indptr, indices, data };
}

/**
 * The k nearest anchors (the first m of the rows `at` of the view) of every row `at`, through
 * sparse dot products when at most SPARSE_BELOW of those rows' entries are nonzero. The CSR
 * gathered from the view's CSR is the one `sparseOrNull` makes of the gathered dense rows.
 */
function neighbours(
  src: ViewSource,
  at: Int32Array,
  m: number,
  k: number,
): ReturnType<typeof nearestAnchors> {
  let X: Mat | null = null;
  let sp: Csr | null;
  const S = src.csr;
  if (S) {
    let nnz = 0;
    for (let r = 0; r < at.length; r++) nnz += S.indptr[at[r]! + 1]! - S.indptr[at[r]!]!;
    sp = nnz > SPARSE_BELOW * at.length * S.cols ? null : gatherCsr(S, at, nnz);
  } else {
    X = gatherRows(src.dense, at);
    sp = sparseOrNull(X);
  }
  if (sp) {
    const A: Csr = { ...sp, rows: m, indptr: sp.indptr.subarray(0, m + 1) };
    return nearestAnchorsSparse(sp, A, k);
  }
  X ??= gatherRows(src.dense, at);
  const A: Mat = { rows: m, cols: X.cols, data: X.data.subarray(0, m * X.cols) };
  return nearestAnchors(X, A, k);
}

/** One view pair's sample-to-anchor matrix Z (CSR over the pair's rows) and its weights. */
export interface PairGraph {
  /** The views (0-based). */
  readonly a: number;
  readonly b: number;
  /** Anchors: the samples present in both views. */
  readonly m: number;
  /** (rows,) the samples of the pair's rows, [anchors; a only; b only], each in group order. */
  readonly samples: Int32Array;
  /** CSR of Z (rows × m): entries of each row in increasing anchor position. */
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  readonly data: Float64Array;
  /** (m,) λ_j = 1 / Σ_r Z(r, j); for an anchor nobody picks 0 (guard), else Infinity. */
  readonly lambda: Float64Array;
  /** Anchors no row picks (Σ_r Z(r, j) = 0). */
  readonly unpicked: number;
  /** The bandwidths σ_a, σ_b. */
  readonly sigma: readonly [number, number];
  /** Runs of rows of one group: rows from..to−1 are all in `group`. */
  readonly segments: readonly {
    readonly group: number;
    readonly from: number;
    readonly to: number;
  }[];
}

/** One view's sparse rows: for each of its rows, its anchors (ascending) and weights. */
interface ViewRows {
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  readonly data: Float64Array;
  readonly sigma: number;
}

/**
 * Z_v of one view: `at` are the view's rows R_v (n_v of them), the first m the anchors.
 * O(n_v·m·d).
 */
function viewRows(src: ViewSource, at: Int32Array, m: number, k: number): ViewRows {
  const nv = at.length;
  const nn = neighbours(src, at, m, k);
  const sigma = (4 * nn.total) / (nv * m);
  const indptr = new Int32Array(nv + 1);
  const indices = new Int32Array(nv * k);
  const data = new Float64Array(nv * k);
  const idx = new Int32Array(k);
  const w = new Float64Array(k);
  const sel = new Int32Array(k);
  let q = 0;
  for (let r = 0; r < nv; r++) {
    // Anchors in increasing position: the order the reference's sparse row sum runs in
    // (insertion sort: the k anchors of a row are distinct).
    for (let t = 0; t < k; t++) {
      const a = nn.index[r * k + t]!;
      let u = t;
      for (; u > 0 && nn.index[r * k + sel[u - 1]!]! > a; u--) sel[u] = sel[u - 1]!;
      sel[u] = t;
    }
    let sum = 0;
    for (let t = 0; t < k; t++) {
      idx[t] = nn.index[r * k + sel[t]!]!;
      w[t] = Math.exp(-nn.dist[r * k + sel[t]!]! / sigma);
      sum += w[t]!;
    }
    for (let t = 0; t < k; t++) {
      const z = w[t]! / sum;
      if (z < ZERO_BELOW) continue;
      indices[q] = idx[t]!;
      data[q++] = z;
    }
    indptr[r + 1] = q;
  }
  return { indptr, indices: indices.slice(0, q), data: data.slice(0, q), sigma };
}

/** Row r of a view as (anchor, weight) entries appended to the output arrays. */
function copyRow(v: ViewRows, r: number, scale: number, out: number[][]): void {
  for (let p = v.indptr[r]!; p < v.indptr[r + 1]!; p++) {
    out[0]!.push(v.indices[p]!);
    out[1]!.push(scale * v.data[p]!);
  }
}

/** ½(row r of a + row r of b), merged by anchor position. */
function mergeRows(za: ViewRows, zb: ViewRows, r: number, out: number[][]): void {
  let p = za.indptr[r]!;
  let q = zb.indptr[r]!;
  const pe = za.indptr[r + 1]!;
  const qe = zb.indptr[r + 1]!;
  while (p < pe || q < qe) {
    const ja = p < pe ? za.indices[p]! : Infinity;
    const jb = q < qe ? zb.indices[q]! : Infinity;
    if (ja === jb) {
      out[0]!.push(ja);
      out[1]!.push(0.5 * (za.data[p++]! + zb.data[q++]!));
    } else if (ja < jb) {
      out[0]!.push(ja);
      out[1]!.push(0.5 * za.data[p++]!);
    } else {
      out[0]!.push(jb);
      out[1]!.push(0.5 * zb.data[q++]!);
    }
  }
}

/**
 * The anchor graph of the view pair (a, b). `views[v]` are the unit-L2 views' rows in present
 * order (`viewSource`), `pos[v][i]` sample i's row in view v. The caller has checked that the
 * pair has at least k anchors.
 */
export function pairGraph(
  groups: Groups,
  views: readonly ViewSource[],
  pos: readonly Int32Array[],
  a: number,
  b: number,
  k: number,
  guard: boolean,
): PairGraph {
  const { V } = groups;
  const both = samplesWhere(groups, (p) => hasView(p, V, a) && hasView(p, V, b));
  const onlyA = samplesWhere(groups, (p) => hasView(p, V, a) && !hasView(p, V, b));
  const onlyB = samplesWhere(groups, (p) => hasView(p, V, b) && !hasView(p, V, a));
  const m = both.length;
  const rowsOf = (v: number, singles: Int32Array): Int32Array => {
    const at = new Int32Array(m + singles.length);
    both.forEach((i, r) => (at[r] = pos[v]![i]!));
    singles.forEach((i, r) => (at[m + r] = pos[v]![i]!));
    return at;
  };
  const za = viewRows(views[a]!, rowsOf(a, onlyA), m, k);
  const zb = viewRows(views[b]!, rowsOf(b, onlyB), m, k);
  const samples = Int32Array.from([...both, ...onlyA, ...onlyB]);
  const rows = samples.length;
  const indptr = new Int32Array(rows + 1);
  const out: number[][] = [[], []];
  for (let r = 0; r < m; r++) {
    mergeRows(za, zb, r, out);
    indptr[r + 1] = out[0]!.length;
  }
  for (let r = 0; r < onlyA.length; r++) {
    copyRow(za, m + r, 1, out);
    indptr[m + r + 1] = out[0]!.length;
  }
  for (let r = 0; r < onlyB.length; r++) {
    copyRow(zb, m + r, 1, out);
    indptr[m + onlyA.length + r + 1] = out[0]!.length;
  }
  const indices = Int32Array.from(out[0]!);
  const data = Float64Array.from(out[1]!);
  const colSum = new Float64Array(m);
  for (let p = 0; p < data.length; p++) colSum[indices[p]!]! += data[p]!;
  const lambda = new Float64Array(m);
  let unpicked = 0;
  for (let j = 0; j < m; j++) {
    if (colSum[j] === 0) unpicked++;
    lambda[j] = colSum[j] === 0 && guard ? 0 : 1 / colSum[j]!;
  }
  const segments: { group: number; from: number; to: number }[] = [];
  for (let r = 0; r < rows; r++) {
    const g = groups.group[samples[r]!]!;
    const last = segments[segments.length - 1];
    if (last && last.group === g) last.to = r + 1;
    else segments.push({ group: g, from: r, to: r + 1 });
  }
  return {
    a,
    b,
    m,
    samples,
    indptr,
    indices,
    data,
    lambda,
    unpicked,
    sigma: [za.sigma, zb.sigma],
    segments,
  };
}
