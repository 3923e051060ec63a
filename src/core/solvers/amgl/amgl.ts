/**
 * AMGL (Nie, Li & Li, "Parameter-free auto-weighted multiple graph learning: a framework for
 * multiview clustering and semi-supervised classification", IJCAI 2016), as the public code
 * `AMGL_Clustering.m` computes it (spec baselines-graph.md, section 1; README.md here).
 *
 * views[v]: (n, d_v) dense, complete.
 *   1. W_v = the reference's symmetrised PKN graph of view v (`referencePknGraph`, k neighbours);
 *      L_v = I − T_v·W_v·T_v, T_v = diag(√(1/d_v)), d_v = W_v's degrees (`normalisedLaplacian`).
 *   2. α_v = 1/V; for t = 1, 2, …, the cap:
 *        M = Σ_v α_v·L_v;  F = the eigenvectors of M's c smallest eigenvalues   (Eq. 9)
 *        s_v = tr(Fᵀ·L_v·F);  α_v = 1 / (2·√s_v);  Obj_t = Σ_v √s_v              (Eq. 8)
 *        stop when t ≥ 3 and (Obj_{t−1} − Obj_t) / Obj_{t−1} < tolerance (signed: an increase
 *        stops too).
 *   Output: the last F (n, c), not row-normalised.
 *
 * Two eigensolver paths compute the same F up to rotation within its eigenspace (the
 * objective, α and eigenvalues agree to rounding):
 *   'sparse' (default): M as one CSR on the union of the views' patterns, the block eigensolver
 *     (Chebyshev-filtered subspace iteration) for the c + 1 smallest pairs, warm-started from the
 *     previous iteration's vectors; O(n·k·V) memory, never an n × n array (but when the block is
 *     wider than n/2, where the block eigensolver decomposes densely: n ≤ 2·(c + guard)).
 *   'dense': the reference's arithmetic: the dense M from the reference's entries
 *     (t_i·w_ij)·t_j, its symmetric part ½(M + Mᵀ), a full symmetric eigendecomposition
 *     (O(n³) per iteration, 8n² bytes); kept for tests.
 */
import { normalisedLaplacian } from '../../graph/laplacian';
import { referencePknGraph } from '../../graph/pkn';
import { blockEig, csrOp } from '../../linalg/blockeig';
import { csrTimesBlock } from '../../linalg/csr-kernel';
import { symEig } from '../../linalg/kernels';
import type { Csr, Mat } from '../../linalg/types';
import { claimAll, claimEach, type ClaimInput } from '../../parallel';
import type { SolverStep } from '../types';

export type AmglEigensolver = 'sparse' | 'dense';

/** One view's graph: the symmetrised PKN W_v and its normalised Laplacian L_v. */
export interface AmglViewGraph {
  /** (n, n) CSR, symmetric, sorted rows. */
  readonly W: Csr;
  /** (n, n) CSR: I − T·W·T (exactly symmetric; W's pattern plus the diagonal). */
  readonly L: Csr;
  /** (n,) the degrees d_i = Σ_j w_ij. */
  readonly degrees: Float64Array;
  /** (n,) t_i = √(1/d_i) (0 for an isolated sample). */
  readonly t: Float64Array;
  /** Samples of degree 0 (see `normalisedLaplacian`). */
  readonly isolated: number;
}

/** Input of the helper task 'amgl.graphs' (`core/tasks.ts`): the views, claimed widest first. */
export interface AmglGraphsTaskInput extends ClaimInput {
  readonly views: readonly Mat[];
  readonly neighbors: number;
}

/** Step 1 for each view this thread claims: [view, graph] pairs. */
export function amglGraphsTask(input: AmglGraphsTaskInput): [number, AmglViewGraph][] {
  return claimEach(input, (v) => {
    const W = referencePknGraph(input.views[v]!, input.neighbors);
    return { W, ...normalisedLaplacian(W) };
  });
}

/**
 * The per-view graphs of step 1. With helper threads installed (`core/parallel`), the threads
 * claim views from a shared counter, the widest (costliest: the kNN is ≈ n²·d_v) first; each
 * graph is the same whichever thread builds it.
 */
export function amglGraphs(views: readonly Mat[], neighbors: number): AmglViewGraph[] {
  return claimAll(
    'amgl.graphs',
    views.map((X) => X.cols),
    { views, neighbors },
    amglGraphsTask,
  );
}

export interface AmglOptions {
  /** Most iterations (≥ 1). */
  readonly iterations: number;
  /** Stop threshold of the signed relative decrease (from t = 3 on). */
  readonly tolerance: number;
  readonly eigensolver: AmglEigensolver;
  /** Relative residual tolerance of the block eigensolver; default 1e-11. */
  readonly eigTol?: number;
}

export interface AmglResult {
  /** (n, c) the last F. */
  readonly F: Mat;
  /** Obj_t per iteration. */
  readonly objective: number[];
  /** alpha[t][v]: α_v after iteration t + 1. */
  readonly alphaTrace: number[][];
  /** traces[t][v]: tr(F_tᵀ L_v F_t). */
  readonly traceHistory: number[][];
  /** The c + 1 smallest eigenvalues of M at the first and at the last iteration. */
  readonly firstEigenvalues: number[];
  readonly finalEigenvalues: number[];
  readonly converged: boolean;
  /** Iterations whose block eigensolver missed its tolerance. */
  readonly eigMisses: number;
  /** Iterations where some s_v was at or below the floor (α capped). */
  readonly floored: number;
}

/**
 * Smallest s_v used in α_v = 1/(2√s_v): a view whose graph already contains F's span
 * (tr(FᵀL_vF) = 0 up to rounding) would get an infinite weight (the reference then fails with
 * Inf/NaN); its weight is capped at 1/(2√TRACE_FLOOR) instead, and the notes say so.
 */
export const TRACE_FLOOR = 1e-14;

/**
 * The union pattern of the views' Laplacians (sorted rows) and, per view, each of its entries'
 * position in it: M's values are then Σ_v α_v·L_v.data scattered by `slot[v]`.
 */
interface UnionPattern {
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  /** (n,) the position of entry (i, i) (every L_v stores its whole diagonal). */
  readonly diag: Int32Array;
  readonly slot: readonly Int32Array[];
}

function unionPattern(Ls: readonly Csr[]): UnionPattern {
  const n = Ls[0]!.rows;
  const indptr = new Int32Array(n + 1);
  const mark = new Int32Array(n).fill(-1);
  let cap = 0;
  for (const L of Ls) cap += L.indptr[n]!;
  const cols = new Int32Array(cap);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const start = q;
    for (const L of Ls) {
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
        const j = L.indices[p]!;
        if (mark[j] !== i) {
          mark[j] = i;
          cols[q++] = j;
        }
      }
    }
    cols.subarray(start, q).sort();
    indptr[i + 1] = q;
  }
  const indices = cols.slice(0, q);
  const diag = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++)
    for (let r = indptr[i]!; r < indptr[i + 1]!; r++) if (indices[r] === i) diag[i] = r;
  if (diag.includes(-1)) throw new Error('unionPattern: a Laplacian without its whole diagonal');
  const where = new Int32Array(n);
  const slot = Ls.map((L) => {
    const s = new Int32Array(L.data.length);
    for (let i = 0; i < n; i++) {
      for (let r = indptr[i]!; r < indptr[i + 1]!; r++) where[indices[r]!] = r;
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) s[p] = where[L.indices[p]!]!;
    }
    return s;
  });
  return { indptr, indices, diag, slot };
}

/** s_v = tr(Fᵀ·L_v·F) = Σ_ij F_ij·(L_v·F)_ij for F: (n, c); `Y` (n·c) scratch. */
export function laplacianTrace(L: Csr, F: Mat, Y: Float64Array): number {
  csrTimesBlock(L, F.data, Y, F.cols);
  let s = 0;
  for (let i = 0; i < F.data.length; i++) s += F.data[i]! * Y[i]!;
  return s;
}

/**
 * The dense M = Σ_v α_v·L_v with the reference's entries: L_v(i, j) = δ_ij − (t_i·w_ij)·t_j,
 * summed over the views in order, then its symmetric part. (n, n) into `out`.
 */
function denseM(graphs: readonly AmglViewGraph[], alpha: readonly number[], out: Float64Array) {
  const n = graphs[0]!.W.rows;
  out.fill(0);
  // Views accumulate in order; an entry untouched by a view gets α_v·0 (adding +0 changes
  // nothing), so only stored entries and the identity are visited.
  graphs.forEach(({ W, t }, v) => {
    const a = alpha[v]!;
    const tw = new Float64Array(n); // row i's reference entries, scattered
    for (let i = 0; i < n; i++) {
      const ti = t[i]!;
      let diag = 1;
      for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
        const j = W.indices[p]!;
        const x = ti * W.data[p]! * t[j]!;
        if (j === i) diag = 1 - x;
        else tw[j] = -x;
      }
      out[i * n + i]! += a * diag;
      for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
        const j = W.indices[p]!;
        if (j !== i) out[i * n + j]! += a * tw[j]!;
      }
    }
  });
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const s = 0.5 * (out[i * n + j]! + out[j * n + i]!);
      out[i * n + j] = s;
      out[j * n + i] = s;
    }
}

/** The m smallest eigenpairs of M: values ascending, vectors (n, m). */
interface Bottom {
  readonly values: Float64Array;
  readonly vectors: Mat;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * The AMGL iteration over prebuilt graphs (2 ≤ V, or V = 1; 1 ≤ c ≤ n). Yields one 'solve' step
 * per iteration with Obj_t and α_v, s_v per view; returns F and the traces.
 */
export function* amglIterate(
  graphs: readonly AmglViewGraph[],
  c: number,
  options: AmglOptions,
): Generator<SolverStep, AmglResult, void> {
  const V = graphs.length;
  const n = graphs[0]!.L.rows;
  const m = Math.min(c + 1, n);
  const eigTol = options.eigTol ?? 1e-11;
  const Ls = graphs.map((g) => g.L);
  const union = options.eigensolver === 'sparse' ? unionPattern(Ls) : null;
  const dense = options.eigensolver === 'dense' ? new Float64Array(n * n) : null;
  const Y = new Float64Array(n * c);
  let alpha = new Array<number>(V).fill(1 / V);
  let previous: Mat | undefined;
  const objective: number[] = [];
  const alphaTrace: number[][] = [];
  const traceHistory: number[][] = [];
  let firstEigenvalues: number[] = [];
  let finalEigenvalues: number[] = [];
  let converged = false;
  let eigMisses = 0;
  let floored = 0;
  let F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let t = 1; t <= options.iterations; t++) {
    let bottom: Bottom;
    const sumAlpha = alpha.reduce((a, x) => a + x, 0);
    if (union) {
      // A new matrix object each iteration: the CSR kernel caches a matrix's stored form per
      // object, so one object must never change its values. It holds S = σ·I − M, σ = 2·Σα:
      // M's spectrum lies in [0, σ] (each L_v's in [0, 2]), so S's does too, and M's smallest
      // eigenpairs are S's largest (no sign flip of every product, as 'smallest' would do).
      const shift = 2 * sumAlpha;
      const S: Csr = {
        rows: n,
        cols: n,
        indptr: union.indptr,
        indices: union.indices,
        data: new Float64Array(union.indices.length),
      };
      for (let v = 0; v < V; v++) {
        const a = alpha[v]!;
        const L = Ls[v]!;
        const s = union.slot[v]!;
        for (let p = 0; p < L.data.length; p++) S.data[s[p]!]! -= a * L.data[p]!;
      }
      for (let i = 0; i < n; i++) S.data[union.diag[i]!]! += shift;
      const r = blockEig(csrOp(S), m, {
        which: 'largest',
        tol: eigTol,
        bounds: { lower: -1e-12 * shift, upper: shift * (1 + 1e-12) },
        denseBelow: 0,
        ...(previous ? { X0: previous } : {}),
      });
      bottom = { ...r, values: r.values.map((x) => shift - x) };
      if (!r.converged) eigMisses++;
    } else {
      denseM(graphs, alpha, dense!);
      const e = symEig({ rows: n, cols: n, data: dense! });
      const vectors = new Float64Array(n * m);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < m; j++) vectors[i * m + j] = e.vectors.data[i * n + j]!;
      bottom = {
        values: e.values.slice(0, m),
        vectors: { rows: n, cols: m, data: vectors },
        iterations: 0,
        converged: true,
      };
    }
    previous = bottom.vectors;
    F = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++)
      for (let j = 0; j < c; j++) F.data[i * c + j] = bottom.vectors.data[i * m + j]!;
    const traces = Ls.map((L) => laplacianTrace(L, F, Y));
    let obj = 0;
    let low = false;
    alpha = traces.map((s) => {
      obj += Math.sqrt(Math.max(s, 0));
      if (s <= TRACE_FLOOR) low = true;
      return 1 / (2 * Math.sqrt(Math.max(s, TRACE_FLOOR)));
    });
    if (low) floored++;
    const eigenvalues = Array.from(bottom.values);
    if (t === 1) firstEigenvalues = eigenvalues;
    finalEigenvalues = eigenvalues;
    objective.push(obj);
    alphaTrace.push(alpha);
    traceHistory.push(traces);
    const values: Record<string, number> = { eigIterations: bottom.iterations };
    alpha.forEach((a, v) => (values[`alpha_v${v + 1}`] = a));
    traces.forEach((s, v) => (values[`trace_v${v + 1}`] = s));
    yield { stage: 'solve', iteration: t, objective: obj, values };
    if (t >= 3) {
      const prev = objective[t - 2]!;
      if ((prev - obj) / prev < options.tolerance) {
        converged = true;
        break;
      }
    }
  }
  return {
    F,
    objective,
    alphaTrace,
    traceHistory,
    firstEigenvalues,
    finalEigenvalues,
    converged,
    eigMisses,
    floored,
  };
}
