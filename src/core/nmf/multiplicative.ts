/**
 * Weighted non-negative matrix factorisation by multiplicative updates (Lee & Seung, NIPS 2000,
 * with the per-entry weights MIC, Shao et al. 2015, puts on missing samples):
 *
 *   min_{U ≥ 0, V ≥ 0}  f(U, V) = Σ_ij Ω_ij (X − U·Vᵀ)_ij²   X: (m, n) ≥ 0, U: (m, k), V: (n, k)
 *
 *   U ← U ⊙ ((Ω⊙X)·V)   / max((Ω⊙(U·Vᵀ))·V,   ε)
 *   V ← V ⊙ ((Ω⊙X)ᵀ·U)  / max((Ω⊙(U·Vᵀ))ᵀ·U,  ε)
 *
 * Each update does not increase f (the auxiliary-function argument; the floor ε only keeps
 * 0/0 out, where a row of U or V is 0). The papers write X ≈ U·Vᵀ with the samples as the rows
 * of one factor, so V is stored (n, k) rather than as Vᵀ. Ω ≥ 0 is a 0/1 mask of observed
 * entries or weights: for the objective ‖W⊙(X − U·Vᵀ)‖² pass Ω = W⊙W (equal for a 0/1 mask).
 *
 * Ω is given per entry (m, n), per row (m,) or per column (n,). With a row or column weight
 * (or none) the denominators are formed through a k × k Gram matrix,
 *   (Ω⊙(U·Vᵀ))·V = diag(ω)·U·(VᵀV)  (rows),   U·(Vᵀ·diag(ω)·V)  (columns),
 * O((m + n)·k²) instead of O(m·n·k), and the steps form nothing of size m × n but Ω⊙X (the
 * objective needs one m × n buffer, made on its first call). `createNmfWork` allocates every
 * buffer once; the steps allocate no array.
 */
import { matmul, matmulTA, matmulTB, syrk } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

export type NmfWeights =
  | { readonly kind: 'entries'; readonly omega: Mat }
  | { readonly kind: 'rows'; readonly omega: Float64Array }
  | { readonly kind: 'cols'; readonly omega: Float64Array };

/** MIC's floor: it keeps 0/0 out and is far below any denominator that carries information. */
export const NMF_EPS = 1e-30;

export interface NmfWork {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly weights: NmfWeights | null;
  readonly eps: number;
  /** (m, n) the data, as given (not copied). */
  readonly X: Mat;
  /** (m, n) Ω⊙X. */
  readonly WX: Mat;
  /** (m, k) and (n, k): numerators and denominators of the two updates. */
  readonly numU: Mat;
  readonly denU: Mat;
  readonly numV: Mat;
  readonly denV: Mat;
  /** (k, k) Gram matrix of the weighted denominators. */
  readonly G: Mat;
  /** (max(m, n), k) a factor with its rows scaled by ω. */
  readonly scaled: Float64Array;
  /** (m, n) U·Vᵀ: per-entry weights and the objective; allocated on first use. */
  R: Mat | null;
}

const mat = (rows: number, cols: number): Mat => ({
  rows,
  cols,
  data: new Float64Array(rows * cols),
});

function checkNonNegative(what: string, x: Float64Array): void {
  for (let i = 0; i < x.length; i++) {
    if (!(x[i]! >= 0)) throw new RangeError(`nmf: ${what} has entry ${i} = ${x[i]}, not ≥ 0`);
  }
}

/** Buffers for factorising X (m, n) ≥ 0 with k components under `weights` (none: Ω = 1). */
export function createNmfWork(
  X: Mat,
  k: number,
  options: { readonly weights?: NmfWeights; readonly eps?: number } = {},
): NmfWork {
  const { rows: m, cols: n } = X;
  if (!Number.isInteger(k) || k < 1)
    throw new RangeError(`nmf: k = ${k} must be a positive integer`);
  checkNonNegative('X', X.data.subarray(0, m * n));
  const weights = options.weights ?? null;
  const WX = mat(m, n);
  WX.data.set(X.data.subarray(0, m * n));
  if (weights) {
    const len = weights.kind === 'entries' ? m * n : weights.kind === 'rows' ? m : n;
    const om = weights.kind === 'entries' ? weights.omega.data : weights.omega;
    if (weights.kind === 'entries' && (weights.omega.rows !== m || weights.omega.cols !== n)) {
      throw new RangeError(`nmf: Ω is ${weights.omega.rows}x${weights.omega.cols}, X is ${m}x${n}`);
    }
    if (om.length < len) throw new RangeError(`nmf: ${om.length} weights, expected ${len}`);
    checkNonNegative('Ω', om.subarray(0, len));
    applyWeights(weights, WX.data, m, n);
  }
  return {
    m,
    n,
    k,
    weights,
    eps: options.eps ?? NMF_EPS,
    X,
    WX,
    numU: mat(m, k),
    denU: mat(m, k),
    numV: mat(n, k),
    denV: mat(n, k),
    G: mat(k, k),
    scaled: new Float64Array(Math.max(m, n) * k),
    R: weights?.kind === 'entries' ? mat(m, n) : null,
  };
}

/** A ⊙= Ω for an (m, n) A. */
function applyWeights(w: NmfWeights, a: Float64Array, m: number, n: number): void {
  if (w.kind === 'entries') {
    for (let p = 0; p < m * n; p++) a[p] = a[p]! * w.omega.data[p]!;
  } else if (w.kind === 'rows') {
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) a[i * n + j] = a[i * n + j]! * w.omega[i]!;
  } else {
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) a[i * n + j] = a[i * n + j]! * w.omega[j]!;
  }
}

/** Rows of F (r, k) times ω (r,), into a view of `buf`. */
function scaleRows(F: Mat, omega: Float64Array, buf: Float64Array): Mat {
  const { rows: r, cols: k } = F;
  for (let i = 0; i < r; i++)
    for (let j = 0; j < k; j++) buf[i * k + j] = F.data[i * k + j]! * omega[i]!;
  return { rows: r, cols: k, data: buf.subarray(0, r * k) };
}

/** F ← F ⊙ num / max(den, ε). */
function multiply(F: Mat, num: Mat, den: Mat, eps: number): void {
  const f = F.data;
  for (let p = 0; p < F.rows * F.cols; p++)
    f[p] = (f[p]! * num.data[p]!) / Math.max(den.data[p]!, eps);
}

/** Ω⊙(U·Vᵀ) into w.R. */
function weightedProduct(w: NmfWork, U: Mat, V: Mat): Mat {
  const R = matmulTB(U, V, w.R ?? undefined);
  applyWeights(w.weights!, R.data, w.m, w.n);
  return R;
}

/** The U update of the file comment, in place. U: (m, k), V: (n, k). */
export function nmfUpdateU(w: NmfWork, U: Mat, V: Mat): void {
  matmul(w.WX, V, w.numU);
  const om = w.weights;
  if (om?.kind === 'entries') {
    matmul(weightedProduct(w, U, V), V, w.denU);
  } else {
    if (om?.kind === 'cols') matmulTA(scaleRows(V, om.omega, w.scaled), V, w.G);
    else syrk(V, w.G);
    matmul(U, w.G, w.denU);
    if (om?.kind === 'rows') scaleRows(w.denU, om.omega, w.denU.data);
  }
  multiply(U, w.numU, w.denU, w.eps);
}

/** The V update of the file comment, in place. U: (m, k), V: (n, k). */
export function nmfUpdateV(w: NmfWork, U: Mat, V: Mat): void {
  matmulTA(w.WX, U, w.numV);
  const om = w.weights;
  if (om?.kind === 'entries') {
    matmulTA(weightedProduct(w, U, V), U, w.denV);
  } else {
    if (om?.kind === 'rows') matmulTA(scaleRows(U, om.omega, w.scaled), U, w.G);
    else syrk(U, w.G);
    matmul(V, w.G, w.denV);
    if (om?.kind === 'cols') scaleRows(w.denV, om.omega, w.denV.data);
  }
  multiply(V, w.numV, w.denV, w.eps);
}

/** One sweep: U, then V from the new U. */
export function nmfStep(w: NmfWork, U: Mat, V: Mat): void {
  nmfUpdateU(w, U, V);
  nmfUpdateV(w, U, V);
}

/** f(U, V) = Σ_ij Ω_ij (X − U·Vᵀ)_ij², entry by entry (no expansion, so no cancellation). */
export function nmfObjective(w: NmfWork, U: Mat, V: Mat): number {
  const R = (w.R ??= mat(w.m, w.n));
  matmulTB(U, V, R);
  const { m, n } = w;
  const x = w.X.data;
  const r = R.data;
  const om = w.weights;
  let f = 0;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const p = i * n + j;
      const e = x[p]! - r[p]!;
      const o =
        om === null
          ? 1
          : om.kind === 'entries'
            ? om.omega.data[p]!
            : om.kind === 'rows'
              ? om.omega[i]!
              : om.omega[j]!;
      f += o * e * e;
    }
  }
  return f;
}
