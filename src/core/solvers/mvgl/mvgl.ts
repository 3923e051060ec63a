/**
 * MVGL (Zhan, Zhang, Guan & Wang, "Graph learning for multiview clustering", IEEE TCYB 48(10),
 * 2018), as the authors' code runs it (spec baselines-graph.md §2).
 *
 * Stage 1, per view v on X_v (n, d_v): the PKN graph A0 (k neighbours, the reference's neighbour
 * lists N_i), F = bottom-c eigenvectors of L(A0), λ = 1; up to `inner` times
 *   S_i,N_i = P(−E_i,N_i / (2λ)),  E_ij = ‖f_i − f_j‖²,  S = (S + Sᵀ)/2,  F_old = F, F = F(L_S);
 *   s_c > 1e-11: λ/2;  else s_{c+1} < 1e-11: 2λ, F = F_old;  else stop.
 * Stage 2: S0 = (1/V) Σ_v S_v; per outer pass t (at most `outer`):
 *   global graph (CLR step): A0 = S0 with zero diagonal, N_i = {j : A0_ij > 0},
 *     S_i,N_i = P(A0_i,N_i − (λ/2) E_i,N_i), λ doubling when s_c > 1e-10, halving (F = F_old) when
 *     s_{c+1} < 1e-10; labels = components of (S + Sᵀ)/2;
 *   weights (Updata_w): per column j, Z = [S_:j − S_v,:j]_v (n, V), C = ZᵀZ + eps·tr(ZᵀZ)·I,
 *     α_:j = C⁻¹1 / (1ᵀC⁻¹1) (affine: can be negative);
 *   S0 = Σ_v S_v·diag(α_v);  J_t = ‖S − S0‖_F²;  stop when |J_t − J_{t−1}| / J_{t−1} ≤ tol.
 * P is the simplex projection by Newton on the shift (1e-10, 100 rounds).
 */
import type { Csr, Mat } from '../../linalg/types';
import { connectedComponents } from '../../graph/components';
import { knn } from '../../graph/knn';
import { gramDistance, pknRows, referenceNeighbours, symmetrise } from '../../graph/pkn';
import { NumericalError } from '../../linalg/errors';
import { luFactor, luSolve } from '../../linalg/lu';
import { transposeCsr } from '../../linalg/sparse';
import { projectSimplexNewtonAt } from '../../prox/simplex';
import { claimAll, claimEach, type ClaimInput } from '../../parallel';
import type { SolverStep } from '../types';
import {
  csrStats,
  CsrBuilder,
  head,
  laplacianBottomPairs,
  rowDistance,
  type Eigensolver,
} from '../../graph/laplacian-pairs';

export interface MvglOptions {
  readonly neighbors: number;
  readonly innerIterations: number;
  readonly outerIterations: number;
  readonly tolerance: number;
  readonly eigensolver: Eigensolver;
}

/** λ, the action (−1 halve, +1 double and restore, 0 stop) and s_c, s_{c+1} per inner iteration. */
export interface RankTrace {
  readonly lambda: number[];
  readonly actions: number[];
  readonly sc: number[];
  readonly sc1: number[];
}

export interface ViewGraphRecord extends RankTrace {
  readonly pkn: { sum: number; nnz: number; fro: number };
  readonly S: { sum: number; nnz: number; fro: number };
  readonly components: number;
}

export interface PassRecord extends RankTrace {
  readonly earlyReturn: boolean;
  readonly sym: { sum: number; nnz: number; fro: number };
  readonly returned: { sum: number; nnz: number; fro: number };
  readonly components: number;
  readonly S0: { sum: number; fro: number };
  readonly alphaMean: number[];
  readonly alphaMin: number[];
  readonly alphaMax: number[];
  readonly J: number;
}

export interface MvglResult {
  readonly labels: Int32Array;
  readonly components: number;
  /** (n, c) the last global step's F. */
  readonly F: Mat;
  readonly objective: number[];
  readonly converged: boolean;
  readonly views: ViewGraphRecord[];
  readonly passes: PassRecord[];
  /** (V, n) the last weights α. */
  readonly alpha: Float64Array;
  /** The final symmetric global graph. */
  readonly graph: Csr;
}

const EPS = 2.220446049250313e-16;

/** Stage 1 on one view X (n, d): the learnt symmetric S_v and its record. */
export function viewGraph(X: Mat, c: number, o: MvglOptions): { S: Csr; record: ViewGraphRecord } {
  const n = X.rows;
  const k = o.neighbors;
  const nn = referenceNeighbours(knn(X, k + 1), gramDistance(X));
  const A0 = symmetrise(pknRows(nn, k));
  let bottom = laplacianBottomPairs(A0, c, o.eigensolver, null);
  let F = bottom.F;
  // The next solve's start: the eigensolver's whole block for F where it has one.
  let warm = bottom.warm;
  let lambda = 1;
  const tr: RankTrace = { lambda: [], actions: [], sc: [], sc1: [] };
  const proj = new Float64Array(k);
  // Each row's neighbours in ascending column order (the CSR's), fixed for all iterations.
  const order = sortedNeighbours(nn.indices, n, nn.k, k);
  let S = A0;
  for (let it = 0; it < o.innerIterations; it++) {
    const b = new CsrBuilder(n, n * k);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < k; r++) {
        proj[r] = -rowDistance(F, i, nn.indices[i * nn.k + r]!) / (2 * lambda);
      }
      projectSimplexNewtonAt(proj, 0, k, proj, 0);
      for (let q = 0; q < k; q++) {
        const r = order[i * k + q]!;
        b.push(nn.indices[i * nn.k + r]!, proj[r]!);
      }
      b.endRow();
    }
    S = symmetrise(b.build());
    const [Fold, warmOld] = [F, warm];
    bottom = laplacianBottomPairs(S, c, o.eigensolver, warm);
    [F, warm] = [bottom.F, bottom.warm];
    const sc = head(bottom.values, c);
    const sc1 = head(bottom.values, c + 1);
    tr.lambda.push(lambda);
    tr.sc.push(sc);
    tr.sc1.push(sc1);
    if (sc > 1e-11) {
      tr.actions.push(-1);
      lambda /= 2;
    } else if (sc1 < 1e-11) {
      tr.actions.push(1);
      lambda *= 2;
      [F, warm] = [Fold, warmOld];
    } else {
      tr.actions.push(0);
      break;
    }
  }
  return {
    S,
    record: {
      ...tr,
      pkn: csrStats(A0),
      S: csrStats(S),
      components: connectedComponents(S).count,
    },
  };
}

/** Input of the helper task 'mvgl.views' (`core/tasks.ts`): the views, claimed widest first. */
export interface ViewGraphsTaskInput extends ClaimInput {
  readonly views: readonly Mat[];
  readonly c: number;
  readonly options: MvglOptions;
}

/** Stage 1 for each view this thread claims: [view, graph and record] pairs. */
export function viewGraphsTask(
  input: ViewGraphsTaskInput,
): [number, { S: Csr; record: ViewGraphRecord }][] {
  return claimEach(input, (v) => viewGraph(input.views[v]!, input.c, input.options));
}

/**
 * Stage 1 on every view. With helper threads installed (`core/parallel`), the threads claim
 * views from a shared counter, the widest (costliest: the kNN is ≈ n²·d_v) first; each view's
 * graph is the same whichever thread learns it.
 */
export function viewGraphs(
  views: readonly Mat[],
  c: number,
  options: MvglOptions,
): { S: Csr; record: ViewGraphRecord }[] {
  return claimAll(
    'mvgl.views',
    views.map((X) => X.cols),
    { views, c, options },
    viewGraphsTask,
  );
}

/**
 * Per row of the neighbour lists (`stride` entries per row, the first k used), the positions
 * 0 … k − 1 in ascending column order: (n, k).
 */
function sortedNeighbours(indices: Int32Array, n: number, stride: number, k: number): Int32Array {
  const order = new Int32Array(n * k);
  const row = Array.from({ length: k }, (_, r) => r);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < k; r++) row[r] = r;
    row.sort((x, y) => indices[i * stride + x]! - indices[i * stride + y]!);
    for (let r = 0; r < k; r++) order[i * k + r] = row[r]!;
  }
  return order;
}

/** S0 with its diagonal set to 0 (the global step's A0; exact zeros dropped). */
export function withoutDiagonal(S0: Csr): Csr {
  const n = S0.rows;
  const b = new CsrBuilder(n, S0.data.length);
  for (let i = 0; i < n; i++) {
    for (let p = S0.indptr[i]!; p < S0.indptr[i + 1]!; p++) {
      if (S0.indices[p]! !== i) b.push(S0.indices[p]!, S0.data[p]!);
    }
    b.endRow();
  }
  return b.build();
}

/**
 * One CLR row update of the global step: row i of S is P(A0_i,N_i − (λ/2)·E_i,N_i) on
 * N_i = {j : A0_ij > 0}, E_ij = ‖f_i − f_j‖² (unsymmetrised). `scratch` holds n entries each.
 */
export function globalRows(
  A0: Csr,
  F: Mat,
  lambda: number,
  scratch: { readonly buf: Float64Array; readonly cols: Int32Array },
): Csr {
  const n = A0.rows;
  const { buf, cols } = scratch;
  const b = new CsrBuilder(n, A0.data.length);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let p = A0.indptr[i]!; p < A0.indptr[i + 1]!; p++) {
      const x = A0.data[p]!;
      if (!(x > 0)) continue;
      const j = A0.indices[p]!;
      cols[m] = j;
      buf[m++] = x - 0.5 * lambda * rowDistance(F, i, j);
    }
    if (m > 0) projectSimplexNewtonAt(buf, 0, m, buf, 0);
    for (let r = 0; r < m; r++) b.push(cols[r]!, buf[r]!);
    b.endRow();
  }
  return b.build();
}

/** Stage 2's global step from S0: the unsymmetrised S, its symmetric A, labels and F. */
function globalGraph(
  S0: Csr,
  c: number,
  o: MvglOptions,
  warm: Mat | null,
): {
  S: Csr;
  A: Csr;
  F: Mat;
  /** The start from A10 (the step's first graph): the next pass's warm start for its first solve. */
  warm0: Mat;
  labels: Int32Array;
  components: number;
  early: boolean;
  trace: RankTrace;
} {
  const A0 = withoutDiagonal(S0);
  const A10 = symmetrise(A0);
  let bottom = laplacianBottomPairs(A10, c, o.eigensolver, warm);
  let F = bottom.F;
  const warm0 = bottom.warm;
  // The next solve's start: the eigensolver's whole block for F where it has one.
  let next = warm0;
  const trace: RankTrace = { lambda: [], actions: [], sc: [], sc1: [] };
  if (head(bottom.values, c) < 1e-10) {
    const comp = connectedComponents(A10);
    return {
      S: A0,
      A: A10,
      F,
      warm0,
      labels: comp.labels,
      components: comp.count,
      early: true,
      trace,
    };
  }
  let lambda = 1;
  let S = A0;
  let A = A10;
  const scratch = { buf: new Float64Array(S0.rows), cols: new Int32Array(S0.rows) };
  for (let it = 0; it < o.innerIterations; it++) {
    S = globalRows(A0, F, lambda, scratch);
    A = symmetrise(S);
    const [Fold, nextOld] = [F, next];
    bottom = laplacianBottomPairs(A, c, o.eigensolver, next);
    [F, next] = [bottom.F, bottom.warm];
    const sc = head(bottom.values, c);
    const sc1 = head(bottom.values, c + 1);
    trace.lambda.push(lambda);
    trace.sc.push(sc);
    trace.sc1.push(sc1);
    if (sc > 1e-10) {
      trace.actions.push(1);
      lambda *= 2;
    } else if (sc1 < 1e-10) {
      trace.actions.push(-1);
      lambda /= 2;
      [F, next] = [Fold, nextOld];
    } else {
      trace.actions.push(0);
      break;
    }
  }
  const comp = connectedComponents(A);
  return { S, A, F, warm0, labels: comp.labels, components: comp.count, early: false, trace };
}

/**
 * w with C·w = 1 (V × V) by LU with partial pivoting (linalg/lu.ts) into `w`; false when a pivot is
 * exactly zero (C singular to working precision).
 */
function solveOnes(C: Mat, ones: Mat, w: Mat): boolean {
  try {
    luSolve(luFactor(C), ones, w);
    return true;
  } catch (e) {
    if (e instanceof NumericalError) return false;
    throw e;
  }
}

/** Systems up to this order are solved by `solveOnesSmall` (lu.ts factors them in one leaf). */
const SMALL_V = 32;

/**
 * `solveOnes` for V ≤ SMALL_V without allocating: the same arithmetic as luFactor's leaf loop
 * (largest pivot, ties keep the topmost row; multipliers times the pivot's reciprocal; zero
 * multipliers skip their row) and luSolve's two substitutions (ascending terms, zero
 * coefficients skipped, then times the diagonal's reciprocal), so the same bits. P·1 = 1, so
 * the right-hand side needs no permutation. `a` (V², scratch) is overwritten with the factors.
 */
export function solveOnesSmall(
  C: Float64Array,
  V: number,
  a: Float64Array,
  w: Float64Array,
): boolean {
  a.set(C.subarray(0, V * V));
  for (let k = 0; k < V; k++) {
    let p = k;
    let big = Math.abs(a[k * V + k]!);
    for (let i = k + 1; i < V; i++) {
      const v = Math.abs(a[i * V + k]!);
      if (v > big) {
        big = v;
        p = i;
      }
    }
    if (!(big > 0)) return false;
    if (p !== k) {
      for (let j = 0; j < V; j++) {
        const t = a[k * V + j]!;
        a[k * V + j] = a[p * V + j]!;
        a[p * V + j] = t;
      }
    }
    const inv = 1 / a[k * V + k]!;
    for (let i = k + 1; i < V; i++) {
      const l = (a[i * V + k]! *= inv);
      if (l === 0) continue;
      for (let j = k + 1; j < V; j++) a[i * V + j]! -= l * a[k * V + j]!;
    }
  }
  for (let i = 0; i < V; i++) {
    let v = 1;
    for (let q = 0; q < i; q++) {
      const u = a[i * V + q]!;
      if (u !== 0) v -= u * w[q]!;
    }
    w[i] = v;
  }
  for (let i = V - 1; i >= 0; i--) {
    let v = w[i]!;
    for (let q = i + 1; q < V; q++) {
      const u = a[i * V + q]!;
      if (u !== 0) v -= u * w[q]!;
    }
    w[i] = v * (1 / a[i * V + i]!);
  }
  return true;
}

/** Updata_w: α (V, n), column j from the columns j of S and of every S_v (symmetric). */
function weights(S: Csr, Sv: readonly Csr[]): Float64Array {
  const n = S.rows;
  const V = Sv.length;
  const St = transposeCsr(S);
  const alpha = new Float64Array(V * n);
  const buf = new Float64Array((V + 1) * n);
  const mark = new Uint8Array(n);
  const list = new Int32Array(n);
  const Cm: Mat = { rows: V, cols: V, data: new Float64Array(V * V) };
  const C = Cm.data;
  const ones: Mat = { rows: V, cols: 1, data: new Float64Array(V).fill(1) };
  const wm: Mat = { rows: V, cols: 1, data: new Float64Array(V) };
  const w = wm.data;
  const z = new Float64Array(V);
  const lu = new Float64Array(V * V);
  const graphs = [...Sv, St];
  for (let j = 0; j < n; j++) {
    let m = 0;
    // S's column first, then each view's: the order in which samples join `list`.
    for (let g = 0; g <= V; g++) {
      const slot = g === 0 ? V : g - 1;
      const G = graphs[slot]!;
      for (let p = G.indptr[j]!; p < G.indptr[j + 1]!; p++) {
        const i = G.indices[p]!;
        buf[slot * n + i] = G.data[p]!;
        if (!mark[i]) {
          mark[i] = 1;
          list[m++] = i;
        }
      }
    }
    C.fill(0);
    for (let r = 0; r < m; r++) {
      const i = list[r]!;
      const s = buf[V * n + i]!;
      for (let v = 0; v < V; v++) z[v] = s - buf[v * n + i]!;
      for (let a = 0; a < V; a++) for (let b = 0; b < V; b++) C[a * V + b]! += z[a]! * z[b]!;
    }
    let trace = 0;
    for (let a = 0; a < V; a++) trace += C[a * V + a]!;
    for (let a = 0; a < V; a++) C[a * V + a]! += EPS * trace;
    // Where S's column equals every view's (Z = 0) the reference's system is 0·w = 1 and its α
    // is NaN; the weights are then undefined and we take them uniform (a departure: README).
    const solved =
      trace > 0 && (V <= SMALL_V ? solveOnesSmall(C, V, lu, w) : solveOnes(Cm, ones, wm));
    let sw = 0;
    for (let v = 0; v < V; v++) sw += w[v]!;
    const ok = solved && Number.isFinite(sw) && sw !== 0;
    for (let v = 0; v < V; v++) alpha[v * n + j] = ok ? w[v]! / sw : 1 / V;
    for (let r = 0; r < m; r++) {
      const i = list[r]!;
      mark[i] = 0;
      for (let v = 0; v <= V; v++) buf[v * n + i] = 0;
    }
  }
  return alpha;
}

/** S0 = Σ_v S_v·diag(α_v) ((1/V)·Σ_v S_v when α is null): (n, n) CSR, rows sorted. */
export function combine(Sv: readonly Csr[], alpha: Float64Array | null): Csr {
  const n = Sv[0]!.rows;
  const V = Sv.length;
  const acc = new Float64Array(n);
  const mark = new Uint8Array(n);
  const list: number[] = [];
  const b = new CsrBuilder(
    n,
    Sv.reduce((a, G) => a + G.data.length, 0),
  );
  for (let i = 0; i < n; i++) {
    list.length = 0;
    Sv.forEach((G, v) => {
      for (let p = G.indptr[i]!; p < G.indptr[i + 1]!; p++) {
        const j = G.indices[p]!;
        acc[j]! += G.data[p]! * (alpha ? alpha[v * n + j]! : 1 / V);
        if (!mark[j]) {
          mark[j] = 1;
          list.push(j);
        }
      }
    });
    list.sort((x, y) => x - y);
    for (const j of list) {
      b.push(j, acc[j]!);
      acc[j] = 0;
      mark[j] = 0;
    }
    b.endRow();
  }
  return b.build();
}

/** ‖P − Q‖_F² for two (n, n) CSR matrices. */
function frobeniusGap(P: Csr, Q: Csr): number {
  const n = P.rows;
  const acc = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) {
    for (let p = P.indptr[i]!; p < P.indptr[i + 1]!; p++) acc[P.indices[p]!]! += P.data[p]!;
    for (let p = Q.indptr[i]!; p < Q.indptr[i + 1]!; p++) acc[Q.indices[p]!]! -= Q.data[p]!;
    for (let p = P.indptr[i]!; p < P.indptr[i + 1]!; p++) {
      s += acc[P.indices[p]!]! ** 2;
      acc[P.indices[p]!] = 0;
    }
    for (let p = Q.indptr[i]!; p < Q.indptr[i + 1]!; p++) {
      s += acc[Q.indices[p]!]! ** 2;
      acc[Q.indices[p]!] = 0;
    }
  }
  return s;
}

/** The whole method on complete views Xs[v]: (n, d_v), c clusters. */
export function* mvglIterate(
  Xs: readonly Mat[],
  c: number,
  o: MvglOptions,
): Generator<SolverStep, MvglResult, void> {
  const n = Xs[0]!.rows;
  const V = Xs.length;
  const Sv: Csr[] = [];
  const views: ViewGraphRecord[] = [];
  for (const r of viewGraphs(Xs, c, o)) {
    Sv.push(r.S);
    views.push(r.record);
  }
  yield { stage: 'prepare', iteration: V, objective: null };
  let S0 = combine(Sv, null);
  let Jold = 1;
  let Jnew = 10;
  const objective: number[] = [];
  const passes: PassRecord[] = [];
  let g: ReturnType<typeof globalGraph> | null = null;
  let alpha: Float64Array = new Float64Array(V * n).fill(1 / V);
  let converged = false;
  while (passes.length < o.outerIterations) {
    if (!(Math.abs(Jnew - Jold) / Jold > o.tolerance)) {
      converged = true;
      break;
    }
    g = globalGraph(S0, c, o, g?.warm0 ?? null);
    alpha = weights(g.S, Sv);
    S0 = combine(Sv, alpha);
    Jold = Jnew;
    Jnew = frobeniusGap(g.S, S0);
    objective.push(Jnew);
    const s0 = csrStats(S0);
    const am: number[] = [];
    const amin: number[] = [];
    const amax: number[] = [];
    for (let v = 0; v < V; v++) {
      let s = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (let j = 0; j < n; j++) {
        const x = alpha[v * n + j]!;
        s += x;
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
      am.push(s / n);
      amin.push(lo);
      amax.push(hi);
    }
    passes.push({
      ...g.trace,
      earlyReturn: g.early,
      sym: csrStats(g.A),
      returned: csrStats(g.S),
      components: g.components,
      S0: { sum: s0.sum, fro: s0.fro },
      alphaMean: am,
      alphaMin: amin,
      alphaMax: amax,
      J: Jnew,
    });
    yield { stage: 'solve', iteration: passes.length, objective: Jnew };
  }
  if (!converged && !(Math.abs(Jnew - Jold) / Jold > o.tolerance)) converged = true;
  const last = g!;
  return {
    labels: last.labels,
    components: last.components,
    F: last.F,
    objective,
    converged,
    views,
    passes,
    alpha,
    graph: last.A,
  };
}
