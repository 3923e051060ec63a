/**
 * The secular equation of the bidiagonal divide and conquer (bidiag-dc.ts; Gu & Eisenstat,
 * SIMAX 1995; LAPACK dlasd4 and dlasd3's Löwner step): for the core M = [z; diag(d)] with
 * 0 = d₀ < d₁ < …, the singular values are the roots of f(σ) = 1 + Σⱼ zⱼ²/(dⱼ² − σ²), and ẑ
 * recomputed from the computed roots makes the singular vectors orthogonal. Written for this
 * solver (the symmetric tridiagonal divide and conquer has its own; they may be unified).
 */
import { NumericalError } from './errors';

const EPS = Number.EPSILON;
/** Iterations allowed per secular root (quadratic convergence: ~5 are used). */
const MAX_ITER = 100;

/**
 * Roots of 1 + Σⱼ Zⱼ²/(Dⱼ² − σ²) = 0 for 0 = D₀ < D₁ < … (gaps > tol, |Zⱼ| > tol): σᵢ ∈
 * (Dᵢ, Dᵢ₊₁), the last in (D_{K−1}, (D_{K−1}² + ‖Z‖²)^½). Each is returned as σᵢ² = D_o² + μᵢ
 * with o = origin[i] ∈ {i, i+1} the pole nearer to it (in σ²). The iteration keeps a bracket
 * and solves, at each step, the model R + R'·(μ' − μ) − Z_o²/μ' = 0 (the pole at the origin
 * kept exactly, the rest linearised), bisecting when the model's root leaves the bracket.
 */
export function secularRoots(
  D: Float64Array,
  Z: Float64Array,
): { mu: Float64Array; origin: Int32Array } {
  const K = D.length;
  const mu = new Float64Array(K);
  const origin = new Int32Array(K);
  const delta = new Float64Array(K);
  let zsq = 0;
  for (let j = 0; j < K; j++) zsq += Z[j]! * Z[j]!;
  for (let i = 0; i < K; i++) {
    let o = i;
    let lo: number;
    let hi: number;
    if (i < K - 1) {
      const gap = (D[i + 1]! - D[i]!) * (D[i + 1]! + D[i]!);
      // f at the midpoint (in σ²) between the poles decides the nearer one.
      let f = 1;
      for (let j = 0; j < K; j++)
        f += (Z[j]! * Z[j]!) / ((D[j]! - D[i]!) * (D[j]! + D[i]!) - gap / 2);
      if (f >= 0) {
        lo = 0;
        hi = gap / 2;
      } else {
        o = i + 1;
        lo = -gap / 2;
        hi = 0;
      }
    } else {
      lo = 0;
      hi = zsq;
    }
    for (let j = 0; j < K; j++) delta[j] = (D[j]! - D[o]!) * (D[j]! + D[o]!);
    const zo2 = Z[o]! * Z[o]!;
    let x = (lo + hi) / 2;
    let iter = 0;
    for (; iter < MAX_ITER; iter++) {
      let rest = 1;
      let drest = 0;
      let err = 1;
      for (let j = 0; j < K; j++) {
        if (j === o) continue;
        const den = delta[j]! - x;
        const t = (Z[j]! * Z[j]!) / den;
        rest += t;
        drest += t / den;
        err += Math.abs(t);
      }
      const po = zo2 / x;
      const f = rest - po;
      err += Math.abs(po);
      if (f > 0) hi = x;
      else lo = x;
      if (
        Math.abs(f) <= 4 * EPS * K * err ||
        hi - lo <= 2 * EPS * Math.max(Math.abs(lo), Math.abs(hi))
      )
        break;
      // drest·x'² + (rest − drest·x)·x' − Z_o² = 0, root of the sign of the bracket.
      const a = drest;
      const b = rest - drest * x;
      let xn: number;
      if (a === 0) xn = zo2 / b;
      else {
        const disc = Math.sqrt(b * b + 4 * a * zo2);
        if (o === i) xn = b > 0 ? (2 * zo2) / (b + disc) : (-b + disc) / (2 * a);
        else xn = b < 0 ? (-2 * zo2) / (disc - b) : (-b - disc) / (2 * a);
      }
      if (!(xn > lo && xn < hi)) xn = (lo + hi) / 2;
      if (Math.abs(xn - x) <= EPS * Math.abs(xn)) {
        x = xn;
        break;
      }
      x = xn;
    }
    if (iter === MAX_ITER) throw new NumericalError('svd: the secular equation did not converge');
    mu[i] = x;
    origin[i] = o;
  }
  return { mu, origin };
}

/**
 * ẑ from the computed roots (Gu & Eisenstat's formula): ẑⱼ² = (σ_{K−1}² − Dⱼ²)·
 * Πᵢ₍ᵢ₌₀…ⱼ₋₁₎ (σᵢ² − Dⱼ²)/(Dᵢ² − Dⱼ²) · Πᵢ₍ᵢ₌ⱼ…K₋₂₎ (σᵢ² − Dⱼ²)/(Dᵢ₊₁² − Dⱼ²), with the
 * sign of Zⱼ: the roots are then exact for the z they return, so the vectors are orthogonal.
 */
export function loewner(
  D: Float64Array,
  Z: Float64Array,
  mu: Float64Array,
  origin: Int32Array,
): Float64Array {
  const K = D.length;
  const zh = new Float64Array(K);
  // σᵢ² − Dⱼ² = μᵢ + (D_o − Dⱼ)(D_o + Dⱼ).
  const diff = (i: number, j: number): number => {
    const o = origin[i]!;
    return mu[i]! + (D[o]! - D[j]!) * (D[o]! + D[j]!);
  };
  for (let j = 0; j < K; j++) {
    let p = diff(K - 1, j);
    for (let i = 0; i < j; i++) p *= diff(i, j) / ((D[i]! - D[j]!) * (D[i]! + D[j]!));
    for (let i = j; i < K - 1; i++) p *= diff(i, j) / ((D[i + 1]! - D[j]!) * (D[i + 1]! + D[j]!));
    const a = Math.sqrt(Math.abs(p));
    zh[j] = Z[j]! >= 0 ? a : -a;
  }
  return zh;
}
