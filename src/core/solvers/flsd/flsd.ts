/**
 * FLSD (Wen, Zhang, Zhang, Fei, Wang, "Generalized incomplete multi-view clustering with
 * flexible locality structure diffusion", IEEE TCYB 2020; the authors' `GIMC_FLSD.m`; spec
 * specs/baselines-incomplete.md §8). Per view v, only its present samples:
 *   X_v: (n_v, d_v) unit-L2 rows, W_v: (n_v, n_v) binary kNN graph (CSR), d = W_v·1 (degrees),
 *   G_v: the present indices (the rows of I_n the reference multiplies), never a matrix;
 * unknowns U_v: (k, d_v) with orthonormal rows (held as U_vᵀ: (d_v, k)), P_v: (n_v, k), the
 * consensus Pc: (n, k) and view weights α (a_v = α_v^r). One iteration:
 *   U_vᵀ = polar(X_vᵀ·W_v·P_v)                                     (the SVD's Gs·Vsᵀ)
 *   P_v[i] = soft((W_v·X_v·U_vᵀ + λ1·G_v·Pc)[i] / (d_i + λ1),  0.5·λ2 / (d_i + λ1))
 *   Pc[i] = Σ_{v ∋ i} a_v·P_v[i] / Σ_{v ∋ i} a_v                    (a row-wise weighted mean)
 *   e_v = tr(X_vᵀD_vX_v) + tr(P_vᵀD_vP_v) − 2·tr(X_vᵀW_vP_vU_v) + λ1‖P_v − G_vPc‖² + λ2‖P_v‖₁
 *   α_v = e_v^(1/(1−r)) / Σ_u e_u^(1/(1−r)),  obj = Σ_v α_v^r·e_v
 * stopping after iteration 10 once obj / Σ_v ‖X_v‖²_F moves by less than tol. Each update
 * minimises obj in its block, so obj does not increase.
 *
 * The reference's arithmetic is dense: W_v, D_v and diag(1/(D_v + λ1)) as n_v × n_v matrices,
 * G_vᵀG_v as an n × n diagonal, tr(Xᵀ·W·P·U) through a d_v × d_v product. Here W_v is CSR, the
 * degrees and presence are vectors, tr(XᵀDX) = Σ_i d_i‖x_i‖² is computed once, and
 * tr(XᵀWPU) = Σ (W·X·Uᵀ) ⊙ P reuses the product the P-step formed (W symmetric). Per iteration
 * and view: two passes over X_v (4·nnz(X_v)·k flops), two over W_v (4·nnz(W_v)·k), the polar
 * factor of a d_v × k matrix (O(d_v·k²)); memory O(n·k + Σ_v (n_v + d_v)·k) besides the data.
 */
import { matmul, matmulTA, polar, spmm, spmmTA } from '../../linalg/kernels';
import type { Csr, Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import type { SolverStep } from '../types';

/** The reference's `iter > 10`: the stopping test is not made before iteration 11. */
export const MIN_ITERATIONS = 10;

/** One view as the iteration reads it. */
export interface FlsdView {
  /** (n_v, d_v) present samples, unit-L2 rows. */
  readonly X: Mat | Csr;
  /** (n_v,) sorted sample indices (G_v). */
  readonly present: Int32Array;
  /** (n_v, n_v) symmetric binary kNN graph. */
  readonly W: Csr;
  /** (n_v,) degrees d_i = Σ_j W_ij. */
  readonly degree: Float64Array;
  /** tr(X_vᵀ·D_v·X_v) = Σ_i d_i‖x_i‖². */
  readonly xDx: number;
  /** ‖X_v‖²_F. */
  readonly sqNorm: number;
}

/** The view as FLSD reads it, from its unit-L2 present samples and its graph. O(nnz). */
export function flsdView(X: Mat | Csr, present: Int32Array, W: Csr): FlsdView {
  const n = X.rows;
  const degree = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) s += W.data[p]!;
    degree[i] = s;
  }
  let xDx = 0;
  let sqNorm = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    if ('indptr' in X) {
      for (let p = X.indptr[i]!; p < X.indptr[i + 1]!; p++) s += X.data[p]! * X.data[p]!;
    } else {
      for (let j = i * X.cols; j < (i + 1) * X.cols; j++) s += X.data[j]! * X.data[j]!;
    }
    xDx += degree[i]! * s;
    sqNorm += s;
  }
  return { X, present, W, degree, xDx, sqNorm };
}

/** Where the iteration starts: U_vᵀ (d_v, k), P_v (n_v, k), Pc (n, k). */
export interface FlsdStart {
  readonly Ut: Mat[];
  readonly P: Mat[];
  readonly Pc: Mat;
}

/** C (n_v, k) = X·B for B (d_v, k). */
function xTimes(X: Mat | Csr, B: Mat, out?: Mat): Mat {
  return 'indptr' in X ? spmm(X, B, out) : matmul(X, B, out);
}

/** C (d_v, k) = Xᵀ·B for B (n_v, k). */
function xtTimes(X: Mat | Csr, B: Mat, out?: Mat): Mat {
  return 'indptr' in X ? spmmTA(X, B, out) : matmulTA(X, B, out);
}

/**
 * The reference's random start, from `rng`: U_v the orthonormalised rows of a uniform k × d_v
 * matrix (its polar factor; the reference's `orth` gives another basis of the same span),
 * P_v = X_v·U_vᵀ, Pc uniform on [0, 1). The reference's legacy generator cannot be reproduced.
 */
export function randomStart(views: readonly FlsdView[], n: number, k: number, rng: Rng): FlsdStart {
  const Ut = views.map((v) => {
    const d = v.X.cols;
    const R: Mat = { rows: d, cols: k, data: new Float64Array(d * k) };
    for (let i = 0; i < R.data.length; i++) R.data[i] = rng.next();
    return polar(R);
  });
  const Pc: Mat = { rows: n, cols: k, data: new Float64Array(n * k) };
  for (let i = 0; i < Pc.data.length; i++) Pc.data[i] = rng.next();
  return { Ut, P: views.map((v, i) => xTimes(v.X, Ut[i]!)), Pc };
}

/**
 * The fixed start of the reference fixture: U_v = the first k rows of the orthonormal DCT-II
 * matrix of size d_v (row 0 = 1/√d, row i: √(2/d)·cos(π(2j + 1)i / (2d)), 0-based j), so
 * U_vᵀ[j, i] is that entry; P_v = X_v·U_vᵀ; Pc(i, j) = ((i + j) mod k + 1)/k with 1-based i, j.
 * Needs k ≤ d_v (checked by the caller).
 */
export function dctStart(views: readonly FlsdView[], n: number, k: number): FlsdStart {
  const Ut = views.map((v) => {
    const d = v.X.cols;
    const U: Mat = { rows: d, cols: k, data: new Float64Array(d * k) };
    const c0 = 1 / Math.sqrt(d);
    const c = Math.sqrt(2 / d);
    for (let j = 0; j < d; j++) {
      U.data[j * k] = c0;
      for (let i = 1; i < k; i++)
        U.data[j * k + i] = c * Math.cos((Math.PI * (2 * j + 1) * i) / (2 * d));
    }
    return U;
  });
  const Pc: Mat = { rows: n, cols: k, data: new Float64Array(n * k) };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) Pc.data[i * k + j] = (((i + j + 2) % k) + 1) / k;
  }
  return { Ut, P: views.map((v, i) => xTimes(v.X, Ut[i]!)), Pc };
}

export interface FlsdOptions {
  readonly lambda1: number;
  readonly lambda2: number;
  readonly r: number;
  readonly iterations: number;
  readonly tol: number;
}

export interface FlsdResult {
  /** (n, k) the consensus representation. */
  readonly Pc: Mat;
  /** Final α (sums to 1). */
  readonly alpha: Float64Array;
  /** Final e_v. */
  readonly errors: Float64Array;
  /** obj per iteration. */
  readonly objective: number[];
  /** α after each iteration. */
  readonly alphaTrace: number[][];
  /** obj / Σ_v ‖X_v‖²_F per iteration (what the stopping test reads). */
  readonly normalised: number[];
  readonly converged: boolean;
}

/**
 * The iteration from `start` (its arrays are updated in place), one step per iteration:
 * {stage: 'solve', iteration, objective: obj, values: {normalised, alpha1, …}}.
 */
export function* flsdIterate(
  views: readonly FlsdView[],
  start: FlsdStart,
  n: number,
  k: number,
  o: FlsdOptions,
): Generator<SolverStep, FlsdResult, void> {
  const V = views.length;
  const { Ut, P, Pc } = start;
  const pc = Pc.data;
  // Buffers, allocated once: W·P and W·X·Uᵀ per view (n_v, k), Xᵀ·W·P per view (d_v, k).
  const WB = views.map((v) => ({ rows: v.X.rows, cols: k, data: new Float64Array(v.X.rows * k) }));
  const Y = views.map((v) => ({ rows: v.X.rows, cols: k, data: new Float64Array(v.X.rows * k) }));
  const M = views.map((v) => ({ rows: v.X.cols, cols: k, data: new Float64Array(v.X.cols * k) }));
  const weight = new Float64Array(n);
  const alpha = new Float64Array(V).fill(1 / V);
  const a = alpha.map((x) => x ** o.r);
  const e = new Float64Array(V);
  const normX = views.reduce((s, v) => s + v.sqNorm, 0);
  const objective: number[] = [];
  const normalised: number[] = [];
  const alphaTrace: number[][] = [];
  let converged = false;
  for (let t = 1; t <= o.iterations; t++) {
    for (let v = 0; v < V; v++) {
      const { X, W, degree, present } = views[v]!;
      // U-step: U_vᵀ = polar(Xᵀ·(W·P)).
      spmm(W, P[v]!, WB[v]!);
      xtTimes(X, WB[v]!, M[v]!);
      Ut[v] = polar(M[v]!);
      // P-step: Y = W·(X·Uᵀ), then a soft threshold of (Y + λ1·G·Pc) / (d + λ1) per row.
      xTimes(X, Ut[v]!, WB[v]!);
      spmm(W, WB[v]!, Y[v]!);
      const y = Y[v]!.data;
      const p = P[v]!.data;
      for (let i = 0; i < present.length; i++) {
        const m = degree[i]! + o.lambda1;
        const thr = (0.5 * o.lambda2) / m;
        const g = present[i]! * k;
        for (let j = 0; j < k; j++) {
          const c = (y[i * k + j]! + o.lambda1 * pc[g + j]!) / m;
          p[i * k + j] = Math.max(0, c - thr) + Math.min(0, c + thr);
        }
      }
    }
    // Pc-step: the a-weighted mean of the views' rows of each sample.
    pc.fill(0);
    weight.fill(0);
    for (let v = 0; v < V; v++) {
      const { present } = views[v]!;
      const p = P[v]!.data;
      const av = a[v]!;
      for (let i = 0; i < present.length; i++) {
        const g = present[i]!;
        weight[g]! += av;
        for (let j = 0; j < k; j++) pc[g * k + j]! += av * p[i * k + j]!;
      }
    }
    // A sample present in no view (outside the reference's domain) keeps a zero row.
    for (let i = 0; i < n; i++) {
      if (weight[i] === 0) continue;
      const s = 1 / weight[i]!;
      for (let j = 0; j < k; j++) pc[i * k + j]! *= s;
    }
    // Per-view errors e_v, then α and the objective.
    for (let v = 0; v < V; v++) {
      const { degree, present, xDx } = views[v]!;
      const y = Y[v]!.data;
      const p = P[v]!.data;
      let pDp = 0;
      let xWpu = 0;
      let gap = 0;
      let l1 = 0;
      for (let i = 0; i < present.length; i++) {
        const g = present[i]! * k;
        let sq = 0;
        for (let j = 0; j < k; j++) {
          const x = p[i * k + j]!;
          sq += x * x;
          xWpu += y[i * k + j]! * x;
          const dlt = x - pc[g + j]!;
          gap += dlt * dlt;
          l1 += Math.abs(x);
        }
        pDp += degree[i]! * sq;
      }
      e[v] = xDx + pDp - 2 * xWpu + o.lambda1 * gap + o.lambda2 * l1;
    }
    let hs = 0;
    for (let v = 0; v < V; v++) hs += e[v]! ** (1 / (1 - o.r));
    let obj = 0;
    for (let v = 0; v < V; v++) {
      alpha[v] = e[v]! ** (1 / (1 - o.r)) / hs;
      a[v] = alpha[v]! ** o.r;
      obj += a[v]! * e[v]!;
    }
    const obj2 = obj / normX;
    objective.push(obj);
    normalised.push(obj2);
    alphaTrace.push(Array.from(alpha));
    const values: Record<string, number> = { normalised: obj2 };
    for (let v = 0; v < V; v++) values[`alpha${v + 1}`] = alpha[v]!;
    yield { stage: 'solve', iteration: t, objective: obj, values };
    if (t > MIN_ITERATIONS && Math.abs(obj2 - normalised[t - 2]!) < o.tol) {
      converged = true;
      break;
    }
  }
  return { Pc, alpha, errors: e, objective, alphaTrace, normalised, converged };
}
