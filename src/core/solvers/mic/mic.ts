/**
 * MIC (Shao, He & Yu, ECML-PKDD 2015): weighted multi-view NMF with an ℓ2,1 term, as the authors'
 * code runs it (specs/baselines-incomplete.md §2; README.md). Views are mean-filled operators
 * (views/mean-filled-op.ts): X̂_v (n, d_v) ≥ 0, samples as rows. Per view, U_v (n, k) ≥ 0
 * coefficients, V_v (d_v, k) ≥ 0 basis; w_v (n,) the per-sample weights; U* (n, k) consensus.
 *
 *   O = Σ_v ‖W_v(X̂_v − U_v·V_vᵀ)‖² + α_v‖W_v(U_v − U*)‖² + β_v·Σ_c ‖U_v[:, c]‖₂     (paper eq. 5)
 *
 * Every weight and the ℓ2,1 matrix D = diag(1/‖U_v[i, :]‖) is kept as an (n,) vector, so one
 * multiplicative iteration costs O(nnz_v·k + (n + d_v)·k²): the reference multiplies by dense
 * n × n diagonals.
 */
import { matmul, matmulTA, syrk } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';
import {
  filledTimes,
  filledTimesT,
  filledWork,
  type MeanFilledOp,
} from '../../views/mean-filled-op';
import type { SolverStep } from '../types';

/** The reference's settings, per view where it takes one value per view. */
export interface MicSettings {
  /** α_v, β_v and the weight of a missing sample, per view. */
  readonly alpha: readonly number[];
  readonly beta: readonly number[];
  readonly missingWeight: readonly number[];
  /** Outer rounds (objective evaluations); per-view multiplicative iterations per round. */
  readonly rounds: number;
  readonly inner: number;
  /** Start: passes over the views; NMF restarts per call, iterations per restart, refinement. */
  readonly passes: number;
  readonly restarts: number;
  readonly restartIter: number;
  readonly refineIter: number;
}

/** A given start (U_v (n, k), V_v (d_v, k) per view) in place of the random NMF start. */
export interface MicStart {
  readonly coef: readonly Mat[];
  readonly basis: readonly Mat[];
}

export interface MicResult {
  /** (n, k) U* of the last round (computed before that round's per-view updates, as coded). */
  readonly consensus: Mat;
  /** O per round, before the round's per-view updates. */
  readonly objective: number[];
  /** ‖U*_t − U*_{t−1}‖²_F per round (U*_0 = 0): the reference's printed convergence test. */
  readonly change: number[];
  /** Final U_v and V_v (after the last per-view update that ran). */
  readonly coef: Mat[];
  readonly basis: Mat[];
  /** Best objective of each start NMF call, in call order. */
  readonly startObjective: number[];
  /** Times a zero row of U_v had its D entry set to 0 instead of 1/0. */
  readonly zeroRowGuards: number;
}

/** The reference's floors: NMF.m divides by max(·, 1e-10), the MIC updates by max(·, 1e-30). */
const NMF_FLOOR = 1e-10;
const MIC_FLOOR = 1e-30;

const mat = (rows: number, cols: number): Mat => ({
  rows,
  cols,
  data: new Float64Array(rows * cols),
});

/** Buffers of one view for k components, allocated once per solve. */
interface ViewWork {
  readonly op: MeanFilledOp;
  /** (n, k) X̂·V and a row-scaled copy of U. */
  readonly XV: Mat;
  readonly A: Mat;
  /** (d, k) X̂ᵀ·A and the basis update's denominator. */
  readonly XU: Mat;
  readonly den: Mat;
  /** (k, k) Gram matrices. */
  readonly G: Mat;
  readonly H: Mat;
  readonly scratch: Mat;
}

function viewWork(op: MeanFilledOp, k: number): ViewWork {
  return {
    op,
    XV: mat(op.n, k),
    A: mat(op.n, k),
    XU: mat(op.d, k),
    den: mat(op.d, k),
    G: mat(k, k),
    H: mat(k, k),
    scratch: filledWork(op, k),
  };
}

/** Column sums of |M| (the ℓ1 norm of each column). */
function colAbsSums(M: Mat): Float64Array {
  const k = M.cols;
  const s = new Float64Array(k);
  for (let i = 0; i < M.rows; i++)
    for (let c = 0; c < k; c++) s[c]! += Math.abs(M.data[i * k + c]!);
  return s;
}

/** Columns of `B` divided by `norms`, columns of `C` multiplied by them. */
function rescale(B: Mat, C: Mat, norms: Float64Array): void {
  const k = B.cols;
  for (let i = 0; i < B.rows; i++) for (let c = 0; c < k; c++) B.data[i * k + c]! /= norms[c]!;
  for (let i = 0; i < C.rows; i++) for (let c = 0; c < k; c++) C.data[i * k + c]! *= norms[c]!;
}

/** M ← M ⊙ num ⊘ max(den, floor), with an optional square root (the MIC updates). */
function multiplicative(M: Mat, num: Mat, den: Mat, floor: number, root: boolean): void {
  const m = M.data;
  for (let p = 0; p < m.length; p++) {
    const r = num.data[p]! / Math.max(den.data[p]!, floor);
    m[p] = m[p]! * (root ? Math.sqrt(r) : r);
  }
}

/**
 * out (m, k) = M·G for M (m, k), G (k, k): the thin product of the update denominators, on GEMM
 * (the tall-skinny kernel: on the 'wasm' and 'ts' backends each entry is summed from +0 in
 * order, as a plain loop would; 'fma' fuses each step).
 */
const timesSmall = (M: Mat, G: Mat, out: Mat): Mat => matmul(M, G, out);

/** out (k, k) = MᵀM (SYRK on the tall-skinny kernel: exactly symmetric). */
const gram = (M: Mat, out: Mat): Mat => syrk(M, out);

/** Σ_ij (A ⊙ B)_ij for two equal-shaped matrices. */
function inner(A: Mat, B: Mat): number {
  let s = 0;
  for (let p = 0; p < A.data.length; p++) s += A.data[p]! * B.data[p]!;
  return s;
}

/** Σ_ij (G ⊙ H)_ij = tr(G·H) for symmetric k × k G, H. */
const traceProduct = inner;

/** ‖B·Cᵀ − X̂ᵀ‖²_F, expanded: Σ‖x̂_i‖² − 2⟨X̂·B, C⟩ + tr((BᵀB)(CᵀC)). Uses w.XV, w.G, w.H. */
function nmfObjective(w: ViewWork, B: Mat, C: Mat): number {
  filledTimes(w.op, B, w.XV, w.scratch);
  gram(B, w.G);
  gram(C, w.H);
  let s = 0;
  for (const x of w.op.rowSqNorms) s += x;
  return s - 2 * inner(w.XV, C) + traceProduct(w.G, w.H);
}

/** One iteration of NMF.m on X̂ᵀ ≈ B·Cᵀ: C first, then B (Lee-Seung, floor 1e-10). */
function nmfIteration(w: ViewWork, B: Mat, C: Mat): void {
  filledTimes(w.op, B, w.XV, w.scratch); // Xᵀ·U of NMF.m: (n, k)
  gram(B, w.G);
  multiplicative(C, w.XV, timesSmall(C, w.G, w.A), NMF_FLOOR, false);
  filledTimesT(w.op, C, w.XU, w.scratch); // X·V of NMF.m: (d, k)
  gram(C, w.G);
  multiplicative(B, w.XU, timesSmall(B, w.G, w.den), NMF_FLOOR, false);
}

/**
 * `rows × cols` uniform draws in MATLAB's column-major order (`rand(rows, cols)`), stored
 * row-major.
 */
function draws(rows: number, cols: number, draw: () => number): Mat {
  const M = mat(rows, cols);
  for (let c = 0; c < cols; c++) for (let i = 0; i < rows; i++) M.data[i * cols + c] = draw();
  return M;
}

/** A start of NMF.m: random basis, unit-L2 columns; given or random coefficients; ℓ1 basis. */
function nmfStart(w: ViewWork, k: number, coefStart: Mat | null, draw: () => number): [Mat, Mat] {
  const B = draws(w.op.d, k, draw);
  const l2 = new Float64Array(k);
  for (let p = 0; p < B.data.length; p++) l2[p % k]! += B.data[p]! * B.data[p]!;
  for (let c = 0; c < k; c++) l2[c] = Math.max(Math.sqrt(l2[c]!), 1e-10);
  for (let p = 0; p < B.data.length; p++) B.data[p] = B.data[p]! / l2[p % k]!;
  let C: Mat;
  if (coefStart) {
    C = { rows: coefStart.rows, cols: k, data: Float64Array.from(coefStart.data) };
  } else {
    C = draws(w.op.n, k, draw);
    let s = 0;
    for (const x of C.data) s += x;
    for (let p = 0; p < C.data.length; p++) C.data[p] = C.data[p]! / s;
  }
  rescale(B, C, l1Guarded(B));
  return [B, C];
}

/**
 * Column ℓ1 norms of the basis for NMF.m's normalisation, which divides without a floor: a zero
 * column (0/0 there) is left as it is here (norm taken as 1).
 */
function l1Guarded(B: Mat): Float64Array {
  const s = colAbsSums(B);
  for (let c = 0; c < s.length; c++) if (s[c] === 0) s[c] = 1;
  return s;
}

/**
 * NMF.m as MIC's start calls it, on X̂ᵀ (d, n) ≈ B·Cᵀ: `restarts` starts of `restartIter`
 * iterations, the lowest final ‖X̂ᵀ − B·Cᵀ‖² kept (first on ties), then `refineIter` more
 * iterations from it; with one restart, `refineIter` iterations from the single start. Returns
 * the ℓ1-normalised basis (d, k), the coefficients (n, k) and the best restart's objective.
 */
function* nmfStartCall(
  w: ViewWork,
  k: number,
  s: MicSettings,
  coefStart: Mat | null,
  draw: () => number,
  call: number,
): Generator<SolverStep, { basis: Mat; coef: Mat; objective: number }, void> {
  let best: [Mat, Mat] | null = null;
  let bestObj = Infinity;
  if (s.restarts === 1) {
    best = nmfStart(w, k, coefStart, draw);
    for (let t = 0; t < s.refineIter; t++) nmfIteration(w, best[0], best[1]);
    bestObj = nmfObjective(w, best[0], best[1]);
  } else {
    for (let r = 0; r < s.restarts; r++) {
      const [B, C] = nmfStart(w, k, coefStart, draw);
      for (let t = 0; t < s.restartIter; t++) nmfIteration(w, B, C);
      const obj = nmfObjective(w, B, C);
      if (best === null || obj < bestObj) {
        best = [B, C];
        bestObj = obj;
      }
      yield { stage: 'start', iteration: call, objective: null, values: { restart: r + 1, obj } };
    }
    // The refinement replaces the best start unless that start already fits exactly (NMF.m
    // compares its zeroed history, 0, with the best objective).
    if (bestObj > 0) {
      for (let t = 0; t < s.refineIter; t++) nmfIteration(w, best![0], best![1]);
    }
  }
  const [B, C] = best!;
  rescale(B, C, l1Guarded(B));
  return { basis: B, coef: C, objective: bestObj };
}

/** w² per sample of view v: 1 when present, the missing weight squared otherwise. */
function squaredWeights(op: MeanFilledOp, missingWeight: number): Float64Array {
  const w2 = new Float64Array(op.n).fill(1);
  for (const i of op.missing) w2[i] = missingWeight * missingWeight;
  return w2;
}

/** V's columns scaled to unit ℓ1 norm (floor 1e-30), U absorbing the scale. */
function normalizeBasis(U: Mat, V: Mat): void {
  const s = colAbsSums(V);
  for (let c = 0; c < s.length; c++) s[c] = Math.max(s[c]!, MIC_FLOOR);
  rescale(V, U, s);
}

/**
 * PerViewNMF_incomplete_original_l21.m: `iters` multiplicative iterations of view v's U and V
 * given U* (paper eqs. 9-10, square-rooted as coded), ℓ1-normalising V before and after each.
 * Returns how many zero rows of U had D set to 0.
 */
function perViewUpdate(
  w: ViewWork,
  U: Mat,
  V: Mat,
  Ustar: Mat,
  w2: Float64Array,
  alpha: number,
  beta: number,
  iters: number,
): number {
  const k = U.cols;
  const n = U.rows;
  const u = U.data;
  const A = w.A.data;
  const XV = w.XV.data;
  let guards = 0;
  normalizeBasis(U, V);
  for (let t = 0; t < iters; t++) {
    // U ← U ⊙ sqrt((W²X̂V + αW²U*) ⊘ (W²U·VᵀV + αW²U + ½βDU)).
    filledTimes(w.op, V, w.XV, w.scratch);
    gram(V, w.G);
    timesSmall(U, w.G, w.A);
    for (let i = 0; i < n; i++) {
      const o = i * k;
      let nr = 0;
      for (let c = 0; c < k; c++) nr += u[o + c]! * u[o + c]!;
      nr = Math.sqrt(nr);
      let d = 0;
      if (nr > 0) d = 1 / nr;
      else guards++;
      const wi = w2[i]!;
      for (let c = 0; c < k; c++) {
        const uc = u[o + c]!;
        const num = wi * XV[o + c]! + alpha * wi * Ustar.data[o + c]!;
        const den = wi * A[o + c]! + alpha * wi * uc + 0.5 * beta * d * uc;
        u[o + c] = uc * Math.sqrt(num / Math.max(den, MIC_FLOOR));
      }
    }
    // V ← V ⊙ sqrt(X̂ᵀW²U ⊘ V·(UᵀW²U)).
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) A[i * k + c] = w2[i]! * u[i * k + c]!;
    }
    filledTimesT(w.op, w.A, w.XU, w.scratch);
    weightedGram(w.A, U, w.G);
    multiplicative(V, w.XU, timesSmall(V, w.G, w.den), MIC_FLOOR, true);
    normalizeBasis(U, V);
  }
  normalizeBasis(U, V);
  return guards;
}

/**
 * out (k, k) = Uᵀ·diag(w2)·U from WU = diag(w2)·U already formed: (WU)ᵀ·U on GEMM, its upper
 * triangle mirrored so that out is exactly symmetric.
 */
function weightedGram(WU: Mat, U: Mat, out: Mat): Mat {
  const k = U.cols;
  const g = matmulTA(WU, U, out).data;
  for (let a = 1; a < k; a++) for (let b = 0; b < a; b++) g[a * k + b] = g[b * k + a]!;
  return out;
}

/** U* = (Σ_v α_v W_v²)⁻¹ Σ_v α_v W_v² U_v, row by row (a sample of zero total weight gets 0). */
function consensus(
  coef: readonly Mat[],
  w2: readonly Float64Array[],
  alpha: readonly number[],
  out: Mat,
): void {
  const k = out.cols;
  for (let i = 0; i < out.rows; i++) {
    let den = 0;
    for (let v = 0; v < coef.length; v++) den += alpha[v]! * w2[v]![i]!;
    for (let c = 0; c < k; c++) {
      let num = 0;
      for (let v = 0; v < coef.length; v++)
        num += alpha[v]! * w2[v]![i]! * coef[v]!.data[i * k + c]!;
      out.data[i * k + c] = den > 0 ? num / den : 0;
    }
  }
}

/**
 * O at (U_v, V_v, U*) (file comment), the ℓ2,1 term as coded: the sum of U_v's column norms.
 * The fit term is expanded, Σ_i w_i²(‖x̂_i‖² − 2u_i·(X̂V)_i + u_iᵀ(VᵀV)u_i), so no n × d residual
 * is formed.
 */
function objective(
  works: readonly ViewWork[],
  coef: readonly Mat[],
  basis: readonly Mat[],
  Ustar: Mat,
  w2: readonly Float64Array[],
  s: MicSettings,
): number {
  let total = 0;
  works.forEach((w, v) => {
    const U = coef[v]!;
    const k = U.cols;
    filledTimes(w.op, basis[v]!, w.XV, w.scratch);
    gram(basis[v]!, w.G);
    timesSmall(U, w.G, w.A);
    let fit = 0;
    let gap = 0;
    const colSq = new Float64Array(k);
    for (let i = 0; i < U.rows; i++) {
      const o = i * k;
      let r = w.op.rowSqNorms[i]!;
      let g = 0;
      for (let c = 0; c < k; c++) {
        const uc = U.data[o + c]!;
        r += uc * (w.A.data[o + c]! - 2 * w.XV.data[o + c]!);
        const e = uc - Ustar.data[o + c]!;
        g += e * e;
        colSq[c]! += uc * uc;
      }
      fit += w2[v]![i]! * r;
      gap += w2[v]![i]! * g;
    }
    let l21 = 0;
    for (const x of colSq) l21 += Math.sqrt(x);
    total += fit + s.alpha[v]! * gap + s.beta[v]! * l21;
  });
  return total;
}

/**
 * MultiNMF_incomplete_original_l21.m: the start (unless `start` is given), then `rounds` rounds
 * of U*, O and the per-view updates. The last round's per-view update is not run: the output
 * (that round's U*) and the objective log do not depend on it.
 */
export function* micSteps(
  ops: readonly MeanFilledOp[],
  k: number,
  s: MicSettings,
  init: { readonly draw: () => number } | { readonly start: MicStart },
): Generator<SolverStep, MicResult, void> {
  const n = ops[0]!.n;
  const V = ops.length;
  const works = ops.map((op) => viewWork(op, k));
  const coef: Mat[] = [];
  const basis: Mat[] = [];
  const startObjective: number[] = [];
  if ('start' in init) {
    for (let v = 0; v < V; v++) {
      coef.push({ rows: n, cols: k, data: Float64Array.from(init.start.coef[v]!.data) });
      basis.push({ rows: ops[v]!.d, cols: k, data: Float64Array.from(init.start.basis[v]!.data) });
    }
  } else {
    let call = 0;
    for (let pass = 0; pass < s.passes; pass++) {
      for (let v = 0; v < V; v++) {
        // View 1 of pass 1 starts from random coefficients; every other call from the previous
        // view's (view 1 of later passes: the last view's).
        const prev = pass === 0 && v === 0 ? null : coef[(v + V - 1) % V]!;
        const r = yield* nmfStartCall(works[v]!, k, s, prev, init.draw, ++call);
        coef[v] = r.coef;
        basis[v] = r.basis;
        startObjective.push(r.objective);
        yield { stage: 'start', iteration: call, objective: r.objective };
      }
    }
  }
  const w2 = ops.map((op, v) => squaredWeights(op, s.missingWeight[v]!));
  const Ustar = mat(n, k);
  const previous = mat(n, k);
  const objectives: number[] = [];
  const change: number[] = [];
  let guards = 0;
  for (let round = 1; round <= s.rounds; round++) {
    consensus(coef, w2, s.alpha, Ustar);
    const obj = objective(works, coef, basis, Ustar, w2, s);
    objectives.push(obj);
    let diff = 0;
    for (let p = 0; p < n * k; p++) diff += (previous.data[p]! - Ustar.data[p]!) ** 2;
    change.push(diff);
    previous.data.set(Ustar.data);
    yield { stage: 'solve', iteration: round, objective: obj, values: { change: diff } };
    if (round === s.rounds) break;
    for (let v = 0; v < V; v++) {
      guards += perViewUpdate(
        works[v]!,
        coef[v]!,
        basis[v]!,
        Ustar,
        w2[v]!,
        s.alpha[v]!,
        s.beta[v]!,
        s.inner,
      );
    }
  }
  return {
    consensus: Ustar,
    objective: objectives,
    change,
    coef,
    basis,
    startObjective,
    zeroRowGuards: guards,
  };
}
