/**
 * DAIMC, doubly aligned incomplete multi-view clustering (Hu and Chen, IJCAI 2018), after the
 * survey code `DAIMC.m` / `UpdateV_DAIMC.m` (specs/baselines-incomplete.md §3). With X_v the
 * unit-L2 samples of view v (missing ones 0) and W_v = diag(presence of view v), it minimises
 *
 *   Σ_v ‖(X_v − U_v·Vᵀ)·W_v‖²_F + α·(‖B_vᵀ·U_v − I_k‖²_F + β·‖B_v‖_{2,1})        (paper eq. 7)
 *
 * over V (n, k) ≥ 0 shared, U_v (d_v, k) and B_v (d_v, k), in the reference's order:
 *   1. U_v solves (α·B_v·B_vᵀ)·U + U·(Vᵀ·W_v·V) = X_v·W_v·V + α·B_v (exact, per view);
 *   2. V: inner semi-NMF loop, V ← V ⊙ √((Σ_v W_v[X_vᵀU_v]⁺ + Σ_v W_v·V·[G_v]⁻) ⊘
 *      max(Σ_v W_v[X_vᵀU_v]⁻ + Σ_v W_v·V·[G_v]⁺, 1e-10)), G_v = U_vᵀU_v, until the relative
 *      change of Σ_v ‖(X_v − U_v·Vᵀ)·W_v‖² is below `innerTol` or `innerIterations` passes;
 *   3. Q = diag(column sums of V): V ← V·Q⁻¹, U_v ← U_v·Q;
 *   4. B_v = (½β·D_v + U_v·U_vᵀ)⁻¹·U_v with D_v = diag(1/√(‖b_i‖² + 1e-10)) of the previous
 *      B_v, then D_v from the new B_v;
 *   5. the objective above with β·Σ_i √(‖b_i‖² + 1e-10) for the L2,1 term; stop when its
 *      relative change is below `tol` (never at the first iteration) or after `iterations`.
 *
 * Where the arithmetic departs from the reference (same solution, not the same operations):
 * W_v is never formed (the reference's n × n diagonal): products with it are row selections of
 * the present samples; the U-step's left coefficient α·B_v·B_vᵀ has rank ≤ k, so the Sylvester
 * equation is solved by `sylvesterLowRank` in O(d_v·k² + k³) instead of a d_v × d_v Schur
 * form; X_vᵀU_v and G_v do not change inside the V loop, so they are formed once per outer
 * iteration (the reference recomputes them each pass); Σ_v W_v·V·[G_v]^± is v_i·Σ_{v∋i} G_v^±
 * row by row, the k × k sums formed once per group of samples with the same present views; the
 * inner objective is the expansion
 *   Σ_v [‖X_v‖² − 2·Σ_{i∈P_v} v_i·(U_vᵀx_i) + Σ_{i∈P_v} v_iᵀ·G_v·v_i]
 * from those same products, O(n·k²) per pass instead of O(Σ_v n·d_v·k); the B-step is the push-through form
 * W·U·(I + UᵀW·U)⁻¹, W = (½β·D)⁻¹ (a k × k solve; the reference writes the d_v × d_v Woodbury
 * form). Cost per outer iteration O(Σ_v (nnz(X_v)·k + d_v·k²) + passes·n·k²); memory O((n +
 * Σ_v d_v)·k) on top of the views.
 */
import { matmul, matmulTA, spmm, spmmTA, syrk } from '../../linalg/kernels';
import { gatherRows } from '../../linalg/rows';
import { sylvesterLowRank } from '../../linalg/sylvester';
import type { Mat } from '../../linalg/types';
import type { IncompleteInput } from '../../views/incomplete-input';
import type { SolverStep } from '../types';
import { alignedRegression, daimcStart, normalizeColumns, type DaimcStart } from './start';

/** The reference's smoothing of the L2,1 norm: √(‖b_i‖² + ETA). */
const ETA = 1e-10;
/** The reference's floor of the V update's denominator. */
const DEN_FLOOR = 1e-10;
/** The reference's divergence guard: a change above this stops either loop. */
const DIVERGED = 1e100;

export interface DaimcOptions {
  /** α: weight of the alignment terms (the reference's `afa`). */
  readonly alpha: number;
  /** β: weight of the L2,1 norm of B_v. */
  readonly beta: number;
  readonly iterations: number;
  readonly innerIterations: number;
  /** Relative change of the objective that stops the outer loop. */
  readonly tol: number;
  /** Relative change of the reconstruction error that stops the V loop. */
  readonly innerTol: number;
}

export interface DaimcResult {
  /** (n, k) the consensus V ≥ 0, columns summing to 1. */
  readonly V: Mat;
  readonly U: readonly Mat[];
  readonly B: readonly Mat[];
  /** Objective after each outer iteration. */
  readonly objective: number[];
  /** Passes of the V loop in each outer iteration. */
  readonly vPasses: number[];
  /** True when the relative-change test stopped the loop (not the cap or the guard). */
  readonly converged: boolean;
  /** Column sums of V at the start, after its normalisation (the reference's V0 check). */
  readonly startColumnSums: Float64Array;
}

/** The reference's stopping test: |new − old| / old < tol, or a change above 1e100. */
function settled(now: number, before: number, tol: number): boolean {
  return Math.abs((now - before) / before) < tol || Math.abs(now - before) > DIVERGED;
}

/** D_v's diagonal from B_v (d, k): d_i = 1/√(‖b_i‖² + η); also returns Σ_i √(‖b_i‖² + η). */
function rowWeights(B: Mat, out: Float64Array): number {
  const k = B.cols;
  let sum = 0;
  for (let i = 0; i < B.rows; i++) {
    let s = 0;
    for (let c = 0; c < k; c++) s += B.data[i * k + c]! ** 2;
    const r = Math.sqrt(s + ETA);
    out[i] = 1 / r;
    sum += r;
  }
  return sum;
}

/** ‖BᵀU − I‖²_F for B, U (d, k). O(d·k²). */
function alignmentError(B: Mat, U: Mat): number {
  const M = matmulTA(B, U);
  const k = M.rows;
  let s = 0;
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) s += (M.data[a * k + b]! - (a === b ? 1 : 0)) ** 2;
  }
  return s;
}

/** X_vᵀ·M for a view's present rows X_v (n_v, d) and M (n_v, k) → (d, k). */
function viewTA(view: IncompleteInput['views'][number], M: Mat): Mat {
  const X = view.values;
  return X.kind === 'dense' ? matmulTA(X, M) : spmmTA(X, M);
}

/** X_v·U for a view's present rows (n_v, d) and U (d, k) → (n_v, k). */
function viewTimes(view: IncompleteInput['views'][number], U: Mat): Mat {
  const X = view.values;
  return X.kind === 'dense' ? matmul(X, U) : spmm(X, U);
}

/** Per view, what the V loop reads: X_v·U_v (n_v, k), G_v = U_vᵀU_v split into ±, ‖X_v‖². */
interface VLoopTerms {
  readonly XU: Mat[];
  readonly Gplus: Float64Array[];
  readonly Gminus: Float64Array[];
  readonly xx: number[];
}

/** The samples grouped by the set of views they are present in (at most min(n, 2^V − 1)). */
export interface PresenceGroups {
  /** Per group, its views (0-based, ascending). */
  readonly views: number[][];
  /** The samples ordered by group: group g is order[first[g] .. first[g + 1]). */
  readonly order: Int32Array;
  readonly first: Int32Array;
  /** position[i]: where sample i sits in `order`. */
  readonly position: Int32Array;
}

/** Groups of the presence matrix A (n, V) 0/1. O(n·V). */
export function presenceGroups(A: Mat): PresenceGroups {
  const { rows: n, cols: nv } = A;
  const ids = new Map<string, number>();
  const views: number[][] = [];
  const group = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let key = '';
    for (let v = 0; v < nv; v++) key += A.data[i * nv + v] ? '1' : '0';
    let g = ids.get(key);
    if (g === undefined) {
      g = views.length;
      ids.set(key, g);
      views.push([...key].flatMap((c, v) => (c === '1' ? [v] : [])));
    }
    group[i] = g;
  }
  const first = new Int32Array(views.length + 1);
  for (let i = 0; i < n; i++) first[group[i]! + 1]!++;
  for (let g = 0; g < views.length; g++) first[g + 1]! += first[g]!;
  const next = first.slice(0, views.length);
  const order = new Int32Array(n);
  const position = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    position[i] = next[group[i]!]!;
    order[next[group[i]!]!++] = i;
  }
  return { views, order, first, position };
}

/** Groups with at least this many samples take GEMM for their products (else a plain loop). */
const GEMM_ROWS = 64;

/**
 * P^± (n, k), rows in group order: row q = v_q·Σ_{v ∋ q} G_v^±, i.e. Σ_v W_v·V·[G_v]^±, with
 * the k × k sums formed once per presence group; Vg holds V's rows in group order, so a group
 * is a block of rows. O(n·k² + groups·V·k²).
 */
function gramProducts(
  Vg: Mat,
  groups: PresenceGroups,
  t: VLoopTerms,
  Pp: Float64Array,
  Pm: Float64Array,
): void {
  const k = Vg.cols;
  const gp: Mat = { rows: k, cols: k, data: new Float64Array(k * k) };
  const gm: Mat = { rows: k, cols: k, data: new Float64Array(k * k) };
  groups.views.forEach((views, g) => {
    gp.data.fill(0);
    gm.data.fill(0);
    for (const v of views) {
      for (let p = 0; p < k * k; p++) {
        gp.data[p]! += t.Gplus[v]![p]!;
        gm.data[p]! += t.Gminus[v]![p]!;
      }
    }
    const q0 = groups.first[g]!;
    const m = groups.first[g + 1]! - q0;
    if (m >= GEMM_ROWS) {
      const block = (x: Float64Array): Mat => ({
        rows: m,
        cols: k,
        data: x.subarray(q0 * k, (q0 + m) * k),
      });
      matmul(block(Vg.data), gp, block(Pp));
      matmul(block(Vg.data), gm, block(Pm));
      return;
    }
    Pp.fill(0, q0 * k, (q0 + m) * k);
    Pm.fill(0, q0 * k, (q0 + m) * k);
    for (let o = q0 * k; o < (q0 + m) * k; o += k) {
      for (let a = 0; a < k; a++) {
        const va = Vg.data[o + a]!;
        for (let c = 0; c < k; c++) {
          Pp[o + c]! += va * gp.data[a * k + c]!;
          Pm[o + c]! += va * gm.data[a * k + c]!;
        }
      }
    }
  });
}

/**
 * The V loop (step 2): V updated in place; returns the passes and the last reconstruction
 * error. It works on V's rows in group order (Vg; copied back at the end). numX / denX (n, k):
 * Σ_v W_v[X_vᵀU_v]^±, fixed during the loop; P^± (gramProducts) of the current V serve both
 * the update and the error
 *   Σ_v ‖(X_v − U_v·Vᵀ)·W_v‖² = Σ_v ‖X_v‖² − 2·Σ_i v_i·(numX − denX)_i + Σ_i v_i·(P⁺ − P⁻)_i.
 */
function updateV(
  input: IncompleteInput,
  groups: PresenceGroups,
  V: Mat,
  t: VLoopTerms,
  options: DaimcOptions,
): { passes: number; recon: number } {
  const { n } = input;
  const k = V.cols;
  const numX = new Float64Array(n * k);
  const denX = new Float64Array(n * k);
  input.views.forEach((view, v) => {
    const xu = t.XU[v]!.data;
    for (let r = 0; r < view.present.length; r++) {
      const o = groups.position[view.present[r]!]! * k;
      for (let c = 0; c < k; c++) {
        const x = xu[r * k + c]!;
        if (x > 0) numX[o + c]! += x;
        else denX[o + c]! -= x;
      }
    }
  });
  const xx = t.xx.reduce((a, b) => a + b, 0);
  const Vg = gatherRows(V, groups.order);
  const Pp = new Float64Array(n * k);
  const Pm = new Float64Array(n * k);
  gramProducts(Vg, groups, t, Pp, Pm);
  let before = 0;
  for (let pass = 1; ; pass++) {
    const x = Vg.data;
    for (let p = 0; p < n * k; p++) {
      x[p]! *= Math.sqrt((numX[p]! + Pm[p]!) / Math.max(denX[p]! + Pp[p]!, DEN_FLOOR));
    }
    gramProducts(Vg, groups, t, Pp, Pm);
    let cross = 0;
    let quad = 0;
    for (let p = 0; p < n * k; p++) {
      cross += x[p]! * (numX[p]! - denX[p]!);
      quad += x[p]! * (Pp[p]! - Pm[p]!);
    }
    const recon = xx - 2 * cross + quad;
    if (settled(recon, before, options.innerTol) || pass === options.innerIterations) {
      for (let q = 0; q < n; q++) {
        V.data.set(x.subarray(q * k, (q + 1) * k), groups.order[q]! * k);
      }
      return { passes: pass, recon };
    }
    before = recon;
  }
}

/** G = UᵀU split into its positive and negative parts (k × k each, G = G⁺ − G⁻). */
function splitGram(U: Mat): { plus: Float64Array; minus: Float64Array } {
  const G = syrk(U).data;
  const plus = new Float64Array(G.length);
  const minus = new Float64Array(G.length);
  for (let p = 0; p < G.length; p++) {
    if (G[p]! > 0) plus[p] = G[p]!;
    else minus[p] = -G[p]!;
  }
  return { plus, minus };
}

/** ‖X_v‖²_F of a view's stored values. */
function squaredNorm(view: IncompleteInput['views'][number]): number {
  let s = 0;
  for (const x of view.values.data) s += x * x;
  return s;
}

/**
 * The DAIMC iterations from the start `start` (see start.ts): yields ('start', v) after each
 * view's start clustering, then ('solve', t, objective) per outer iteration. 1 ≤ k ≤ n; every view has a
 * present sample.
 */
export function* daimcIterate(
  input: IncompleteInput,
  k: number,
  options: DaimcOptions,
  start: DaimcStart,
): Generator<SolverStep, DaimcResult, void> {
  const { V, U, B } = yield* daimcStart(input, k, start);
  const startColumnSums = new Float64Array(k);
  for (let p = 0; p < V.data.length; p++) startColumnSums[p % k]! += V.data[p]!;
  const xx = input.views.map(squaredNorm);
  const groups = presenceGroups(input.presence);
  const D = B.map((Bv) => new Float64Array(Bv.rows));
  B.forEach((Bv, v) => rowWeights(Bv, D[v]!));
  const objective: number[] = [];
  const vPasses: number[] = [];
  const { alpha, beta } = options;
  for (let time = 1; ; time++) {
    // 1. U_v from the Sylvester equation with the current V and B_v.
    input.views.forEach((view, v) => {
      const Vp = gatherRows(V, view.present);
      const rhs = viewTA(view, Vp);
      const Bv = B[v]!;
      for (let p = 0; p < rhs.data.length; p++) rhs.data[p]! += alpha * Bv.data[p]!;
      U[v] = sylvesterLowRank(alpha, Bv, syrk(Vp), rhs);
    });
    // 2. The V loop, its fixed terms formed once.
    const grams = U.map(splitGram);
    const terms: VLoopTerms = {
      XU: input.views.map((view, v) => viewTimes(view, U[v]!)),
      Gplus: grams.map((g) => g.plus),
      Gminus: grams.map((g) => g.minus),
      xx,
    };
    const { passes, recon } = updateV(input, groups, V, terms, options);
    vPasses.push(passes);
    // 3. Column normalisation (U_v·Vᵀ, hence `recon`, unchanged).
    normalizeColumns(V, U);
    // 4–5. B_v by the reweighted ridge, D_v, the objective.
    let f = recon;
    U.forEach((Uv, v) => {
      const w = D[v]!.map((dv) => 1 / (0.5 * beta * dv));
      B[v] = alignedRegression(Uv, w);
      const l21 = rowWeights(B[v]!, D[v]!);
      f += alpha * (alignmentError(B[v]!, Uv) + beta * l21);
    });
    const before = objective.at(-1) ?? 0;
    objective.push(f);
    yield { stage: 'solve', iteration: time, objective: f, values: { vPasses: passes } };
    const done = settled(f, before, options.tol);
    if (done || time === options.iterations) {
      const converged = done && Math.abs(f - before) <= DIVERGED;
      return { V, U, B, objective, vPasses, converged, startColumnSums };
    }
  }
}
