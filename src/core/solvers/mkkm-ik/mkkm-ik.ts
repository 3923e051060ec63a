/**
 * MKKM-IK (Liu et al., "Multiple kernel k-means clustering with incomplete kernels", AAAI 2017;
 * the public code of MKKM-IK-MKC, TPAMI 2020): multiple kernel k-means whose kernels lack the
 * rows and columns of the samples a view misses, imputed jointly with the clustering. With
 * K_p (n, n) the imputed kernel of view p, γ the weights (Σγ = 1) and H (n, k), HᵀH = I:
 *
 *   min  Σ_p γ_p^q · tr(K_p·(I − HHᵀ))   s.t. K_p(c, c) = the observed block, K_p ⪰ 0,
 *
 * by the reference's alternation (`myabsentmultikernelclustering.m`), from the kernels filled
 * with zeros and γ = 1/V:
 *   1. H = the top-k eigenvectors of KC = Σ_p γ_p^q·K_p;
 *   2. each incomplete kernel, from U = I − HHᵀ split into observed (c) and missing (m) samples:
 *        T = −U_cm·(U_mm + α₀I)⁻¹,  K_cm = K_cc·T,  K_mm = Tᵀ·K_cc·T,  K_p += 1e-12·I;
 *   3. γ_p ∝ a_p^(−1/(q−1)) with a_p = tr(K_p·U) (entries below eps set to 0, renormalised);
 *   4. J = Σ_p γ_p²·a_p; stop at t > 2 when |ΔJ|/J < tol, or at the iteration cap.
 * The output is H with unit rows.
 *
 * Linear-algebra route (README "Where our arithmetic departs"): U_cm = −H_c·H_mᵀ and
 * U_mm = I − H_m·H_mᵀ, so by Woodbury T = H_c·M·H_mᵀ with M = ((1 + α₀)·I_k − H_mᵀH_m)⁻¹ (k × k).
 * The imputed kernel is then Qᵀ·K_cc·Q with Q = [I_c, T] (rank-k completion): it is never formed.
 * Its traces come from S = H_cᵀ·K_cc·H_c (k × k), and KC is applied to a block X as
 * Σ_p γ_p^q·Q_pᵀ·K_cc,p·(Q_p·X), for the block eigensolver started from the previous H.
 * Per iteration O(Σ_p n_p²·(k + products)) time instead of O(V·n³); memory Σ_p n_p² (the
 * observed blocks) instead of V·n².
 */
import type { View } from '../../dataset';
import { centreKernel, normaliseKernel } from '../../kernels/transform';
import { presentKernel } from '../../kernels/incomplete';
import { blockEig } from '../../linalg/blockeig';
import { gemmPacked, matmul, matmulTA, packLhs, type PackedLhs } from '../../linalg/kernels';
import { gatherRows } from '../../linalg/rows';
import type { Mat } from '../../linalg/types';
import { missingIndex } from '../../views/present';
import type { SolverStep } from '../types';

/** The reference's jitter on every imputed kernel (`absentKernelImputation.m`). */
export const JITTER = 1e-12;
/**
 * Relative residual the block eigensolver is run to: the recorded traces are then matched to
 * ~1e-12 (1e-13 costs a third more products for no visible gain).
 */
const EIG_TOL = 1e-11;

/** One view's observed kernel and its samples. */
export interface ObservedKernel {
  /** (n_p,) the samples the view holds (c), sorted. */
  readonly present: Int32Array;
  /** (n − n_p,) the samples it misses (m), sorted. */
  readonly missing: Int32Array;
  /** K_cc (n_p, n_p): linear kernel, centred, normalised to a unit diagonal. */
  readonly K: Mat;
}

/**
 * K_cc of a unit-L2 view: X_c·X_cᵀ on its present samples, centred (`kcenter`, the 2-D case: no
 * jitter) and normalised (`knorm`), as the spec's kernels. Throws (from `normaliseKernel`) when
 * a sample equals the view's mean, whose normalised row the reference makes NaN.
 */
export function observedKernel(view: View, n: number): ObservedKernel {
  const K = presentKernel(view, { type: 'linear' }).K;
  centreKernel(K, K);
  normaliseKernel(K, K);
  return { present: view.present, missing: missingIndex(view.present, n), K };
}

export interface MkkmIkOptions {
  readonly iterations: number;
  readonly tol: number;
  readonly qnorm: number;
  readonly alpha0: number;
}

/** What the loop needs of a kernel store: the H step and the kernel step. */
export interface KernelEngine {
  /** H (n, k): top-k eigenvectors of Σ_p c_p·K_p over the current kernels. */
  top(c: Float64Array, k: number, previous: Mat | null): Mat;
  /** Imputes every incomplete kernel from H; returns a_p = tr(K_p·(I − HHᵀ)) per view. */
  impute(H: Mat): Float64Array;
}

export interface MkkmIkResult {
  /** (n, k) the last H (orthonormal columns), before row normalisation. */
  readonly H: Mat;
  readonly gamma: Float64Array;
  readonly objective: number[];
  /** gammaTrace[t]: γ after iteration t + 1. */
  readonly gammaTrace: number[][];
  readonly converged: boolean;
}

/**
 * γ_p ∝ a_p^(−1/(q−1)), entries below eps set to 0, renormalised (`updateabsentkernelweightsV2`).
 * A view with a_p ≤ 0 (its kernel wholly inside span(H), e.g. of rank below k) makes the
 * reference's weights Inf/NaN; here such views share the weight equally, the limit of the rule
 * as a_p → 0⁺.
 */
export function kernelWeights(a: Float64Array, q: number): Float64Array {
  if (a.some((x) => !(x > 0))) {
    const zero = a.map((x) => (x > 0 ? 0 : 1));
    const count = zero.reduce((u, x) => u + x, 0);
    return zero.map((x) => x / count);
  }
  const g = a.map((x) => Math.pow(x, -1 / (q - 1)));
  let s = g.reduce((u, x) => u + x, 0);
  for (let p = 0; p < g.length; p++) g[p] = g[p]! / s;
  for (let p = 0; p < g.length; p++) if (g[p]! < Number.EPSILON) g[p] = 0;
  s = g.reduce((u, x) => u + x, 0);
  for (let p = 0; p < g.length; p++) g[p] = g[p]! / s;
  return g;
}

/** The trace of a run: J and γ per iteration, and whether the tolerance stopped it. */
export interface IterationLog {
  readonly objective: number[];
  readonly gammaTrace: number[][];
  converged: boolean;
}

/**
 * Records iteration t (J, γ), yields its step and returns true when the run stops: at t > 2
 * when |J(t−1) − J(t)| / J(t−1) < tol (converged), or at the cap.
 */
export function* recordIteration(
  log: IterationLog,
  t: number,
  J: number,
  gamma: Float64Array,
  o: MkkmIkOptions,
): Generator<SolverStep, boolean, void> {
  const previous = log.objective.at(-1);
  log.objective.push(J);
  log.gammaTrace.push([...gamma]);
  yield { stage: 'solve', iteration: t, objective: J };
  if (t > 2 && previous !== undefined && Math.abs((previous - J) / previous) < o.tol) {
    log.converged = true;
    return true;
  }
  return t >= o.iterations;
}

/** The reference's alternation over any kernel store (see the file comment). */
export function* mkkmIkLoop(
  engine: KernelEngine,
  V: number,
  k: number,
  o: MkkmIkOptions,
): Generator<SolverStep, MkkmIkResult, void> {
  let gamma: Float64Array = new Float64Array(V).fill(1 / V);
  const log: IterationLog = { objective: [], gammaTrace: [], converged: false };
  let H: Mat | null = null;
  for (let t = 1; ; t++) {
    H = engine.top(
      gamma.map((g) => Math.pow(g, o.qnorm)),
      k,
      H,
    );
    const a = engine.impute(H);
    gamma = kernelWeights(a, o.qnorm);
    let J = 0;
    for (let p = 0; p < V; p++) J += gamma[p]! * gamma[p]! * a[p]!;
    if (yield* recordIteration(log, t, J, gamma, o)) break;
  }
  return { H, gamma, ...log };
}

/** H with unit rows (a zero row stays 0; the count is returned). */
export function normaliseRows(H: Mat): { readonly Hn: Mat; readonly zeroRows: number } {
  const { rows, cols } = H;
  const data = new Float64Array(rows * cols);
  let zeroRows = 0;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += H.data[i * cols + j]! ** 2;
    if (s === 0) zeroRows++;
    const r = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < cols; j++) data[i * cols + j] = H.data[i * cols + j]! * r;
  }
  return { Hn: { rows, cols, data }, zeroRows };
}

// ---------------------------------------------------------------------------------------------
// k × k helpers (row-major)

/** ((1 + α)·I − G)⁻¹ for symmetric G (k × k) with eigenvalues in [0, 1]: by Gauss–Jordan. */
export function woodburyCore(G: Float64Array, k: number, alpha: number): Float64Array {
  const A = new Float64Array(k * k);
  for (let i = 0; i < k * k; i++) A[i] = -G[i]!;
  for (let i = 0; i < k; i++) A[i * k + i]! += 1 + alpha;
  const inv = new Float64Array(k * k);
  for (let i = 0; i < k; i++) inv[i * k + i] = 1;
  // Symmetric positive definite (eigenvalues ≥ α): no pivoting needed.
  for (let c = 0; c < k; c++) {
    const d = 1 / A[c * k + c]!;
    for (let j = 0; j < k; j++) {
      A[c * k + j]! *= d;
      inv[c * k + j]! *= d;
    }
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = A[r * k + c]!;
      if (f === 0) continue;
      for (let j = 0; j < k; j++) {
        A[r * k + j]! -= f * A[c * k + j]!;
        inv[r * k + j]! -= f * inv[c * k + j]!;
      }
    }
  }
  symmetrise(inv, k);
  return inv;
}

/** (A + Aᵀ)/2 in place for A (n, n) row-major. */
export function symmetrise(a: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const s = (a[i * n + j]! + a[j * n + i]!) / 2;
      a[i * n + j] = s;
      a[j * n + i] = s;
    }
  }
}

function mul(A: Float64Array, B: Float64Array, k: number): Float64Array {
  const C = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let l = 0; l < k; l++) {
      const a = A[i * k + l]!;
      for (let j = 0; j < k; j++) C[i * k + j]! += a * B[l * k + j]!;
    }
  }
  return C;
}

const trace = (A: Float64Array, k: number): number => {
  let s = 0;
  for (let i = 0; i < k; i++) s += A[i * k + i]!;
  return s;
};

/** tr(Aᵀ·B) for two k × k matrices. */
const traceTA = (A: Float64Array, B: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < A.length; i++) s += A[i]! * B[i]!;
  return s;
};

// ---------------------------------------------------------------------------------------------
// The operator path

/** One view in the operator path: its packed K_cc and its current rank-k completion. */
interface OperatorView {
  readonly present: Int32Array;
  readonly missing: Int32Array;
  readonly packed: PackedLhs;
  readonly trace: number;
  /** T = H_c·M·H_mᵀ in factors, from the last imputation; null while zero-filled. */
  completion: { readonly Hc: Mat; readonly Hm: Mat; readonly M: Mat } | null;
}

/** Grows-on-demand scratch of n_p × b and k × b blocks. */
class Scratch {
  private bufs = new Map<string, Float64Array>();
  get(name: string, rows: number, cols: number): Mat {
    let b = this.bufs.get(name);
    if (!b || b.length < rows * cols) {
      b = new Float64Array(rows * cols);
      this.bufs.set(name, b);
    }
    return { rows, cols, data: b.subarray(0, rows * cols) };
  }
}

function gatherInto(X: Mat, index: Int32Array, out: Mat): Mat {
  const b = X.cols;
  for (let r = 0; r < index.length; r++) {
    out.data.set(X.data.subarray(index[r]! * b, index[r]! * b + b), r * b);
  }
  return out;
}

function scatterAdd(Y: Mat, index: Int32Array, c: number, Z: Mat): void {
  const b = Y.cols;
  for (let r = 0; r < index.length; r++) {
    const o = index[r]! * b;
    for (let j = 0; j < b; j++) Y.data[o + j]! += c * Z.data[r * b + j]!;
  }
}

/**
 * The operator path (file comment): kernels as packed observed blocks plus rank-k
 * completions, H by `blockEig` on KC applied blockwise. Takes ownership of the kernels' K
 * (packed, then dropped).
 */
export function operatorEngine(kernels: readonly ObservedKernel[], n: number, alpha0: number) {
  const views: OperatorView[] = kernels.map((v) => {
    let tr = 0;
    for (let i = 0; i < v.K.rows; i++) tr += v.K.data[i * v.K.cols + i]!;
    return {
      present: v.present,
      missing: v.missing,
      packed: packLhs(v.K),
      trace: tr,
      completion: null,
    };
  });
  const scratch = new Scratch();
  let weights: Float64Array = new Float64Array(views.length);

  /** Y ← Σ_p c_p·K_p·X, K_p = Q_pᵀ·K_cc·Q_p (+ jitter once imputed). */
  function apply(X: Mat, Y: Mat): void {
    const b = X.cols;
    Y.data.fill(0);
    views.forEach((v, p) => {
      const c = weights[p]!;
      if (c === 0) return;
      const nc = v.present.length;
      const Xc = gatherInto(X, v.present, scratch.get('xc', nc, b));
      const t = v.completion;
      if (t) {
        const Xm = gatherInto(X, v.missing, scratch.get('xm', v.missing.length, b));
        const hx = matmulTA(t.Hm, Xm, scratch.get('k1', t.M.rows, b));
        const u = matmul(t.M, hx, scratch.get('k2', t.M.rows, b));
        const add = matmul(t.Hc, u, scratch.get('t', nc, b));
        for (let i = 0; i < Xc.data.length; i++) Xc.data[i]! += add.data[i]!;
      }
      const Yc = gemmPacked(v.packed, Xc, scratch.get('yc', nc, b));
      scatterAdd(Y, v.present, c, Yc);
      if (t) {
        const hy = matmulTA(t.Hc, Yc, scratch.get('k1', t.M.rows, b));
        const u = matmul(t.M, hy, scratch.get('k2', t.M.rows, b));
        const Ym = matmul(t.Hm, u, scratch.get('ym', v.missing.length, b));
        scatterAdd(Y, v.missing, c, Ym);
        for (let i = 0; i < Y.data.length; i++) Y.data[i]! += c * JITTER * X.data[i]!;
      }
    });
  }

  const engine: KernelEngine = {
    top(c, k, previous) {
      weights = c;
      const r = blockEig({ n, apply }, k, {
        tol: EIG_TOL,
        maxIter: 1000,
        ...(previous ? { X0: previous } : {}),
      });
      return r.vectors;
    },
    impute(H) {
      const k = H.cols;
      let hh = 0;
      for (let i = 0; i < H.data.length; i++) hh += H.data[i]! * H.data[i]!;
      return Float64Array.from(views, (v) => {
        const Hc = gatherRows(H, v.present);
        const KH: Mat = { rows: Hc.rows, cols: k, data: new Float64Array(Hc.data.length) };
        gemmPacked(v.packed, Hc, KH);
        const S = matmulTA(Hc, KH).data;
        if (v.missing.length === 0) return v.trace - trace(S, k);
        const Hm = gatherRows(H, v.missing);
        const G = matmulTA(Hm, Hm).data;
        const M = woodburyCore(G, k, alpha0);
        v.completion = { Hc, Hm, M: { rows: k, cols: k, data: M } };
        // tr K = tr K_cc + tr(M·S·M·G) + n·ε;  Hᵀ K H = Wᵀ S W + ε·HᵀH with W = I + M·G.
        const MG = mul(M, G, k);
        const trK = v.trace + trace(mul(mul(M, S, k), MG, k), k) + n * JITTER;
        const W = MG;
        for (let i = 0; i < k; i++) W[i * k + i]! += 1;
        const SW = mul(S, W, k);
        const trHKH = traceTA(W, SW) + JITTER * hh;
        return trK - trHKH;
      });
    },
  };
  return engine;
}
