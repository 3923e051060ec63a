/**
 * A small convex quadratic programme over the probability simplex Δ_m = {x ≥ 0, Σx = 1}:
 *
 *   min ½·xᵀZx − fᵀx   over x ∈ Δ_m,   Z (m, m) symmetric positive semidefinite,
 *
 * the kernel-weight step of multiple kernel methods with a matrix-induced term (MKKM-IK-MKC's
 * γ-step). For m ≤ `EXACT_MAX` it is solved exactly through its KKT conditions: for each support
 * S ⊆ {0 … m−1} the equality-constrained problem
 *   Z_SS·x_S − f_S = ν·1,  1ᵀx_S = 1   (an (|S|+1) × (|S|+1) linear system)
 * is solved, and the support whose x_S ≥ 0 and whose gradient off the support is ≥ ν (no
 * coordinate would enter) is optimal; among several (Z singular) the lowest objective wins.
 * 2^m − 1 systems of order ≤ m + 1: O(2^m·m³), immediate for a handful of views. Larger m falls
 * back to projected gradient with Nesterov momentum and restarts (step 1/L, L the largest
 * absolute row sum of Z), run to a change below 1e-15 or 100 000 steps.
 */
import { projectSimplex } from '../linalg/simplex';

/** Largest m solved exactly by enumerating supports. */
export const EXACT_MAX = 12;

/** ½·xᵀZx − fᵀx for Z (m, m) row-major. */
export function simplexQpObjective(
  Z: Float64Array,
  f: ArrayLike<number>,
  x: ArrayLike<number>,
): number {
  const m = f.length;
  let s = 0;
  for (let i = 0; i < m; i++) {
    let zi = 0;
    for (let j = 0; j < m; j++) zi += Z[i * m + j]! * x[j]!;
    s += 0.5 * x[i]! * zi - f[i]! * x[i]!;
  }
  return s;
}

/** Solves A·y = b (order r, row-major, overwritten) by Gaussian elimination with pivoting; null if singular. */
function solve(A: Float64Array, b: Float64Array, r: number): Float64Array | null {
  let scale = 0;
  for (let i = 0; i < r * r; i++) scale = Math.max(scale, Math.abs(A[i]!));
  for (let c = 0; c < r; c++) {
    let piv = c;
    for (let i = c + 1; i < r; i++)
      if (Math.abs(A[i * r + c]!) > Math.abs(A[piv * r + c]!)) piv = i;
    if (!(Math.abs(A[piv * r + c]!) > 1e-13 * scale)) return null;
    if (piv !== c) {
      for (let j = 0; j < r; j++) [A[c * r + j], A[piv * r + j]] = [A[piv * r + j]!, A[c * r + j]!];
      [b[c], b[piv]] = [b[piv]!, b[c]!];
    }
    for (let i = c + 1; i < r; i++) {
      const l = A[i * r + c]! / A[c * r + c]!;
      if (l === 0) continue;
      for (let j = c; j < r; j++) A[i * r + j]! -= l * A[c * r + j]!;
      b[i]! -= l * b[c]!;
    }
  }
  const y = new Float64Array(r);
  for (let i = r - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let j = i + 1; j < r; j++) s -= A[i * r + j]! * y[j]!;
    y[i] = s / A[i * r + i]!;
  }
  return y;
}

function exact(Z: Float64Array, f: ArrayLike<number>, m: number): Float64Array {
  let best: Float64Array | null = null;
  let bestObj = Infinity;
  let zmax = 0;
  for (let i = 0; i < m * m; i++) zmax = Math.max(zmax, Math.abs(Z[i]!));
  let fmax = 0;
  for (let i = 0; i < m; i++) fmax = Math.max(fmax, Math.abs(f[i]!));
  const slack = 1e-12 * (zmax + fmax);
  for (let mask = 1; mask < 1 << m; mask++) {
    const S: number[] = [];
    for (let i = 0; i < m; i++) if (mask & (1 << i)) S.push(i);
    const s = S.length;
    const r = s + 1;
    const A = new Float64Array(r * r);
    const b = new Float64Array(r);
    S.forEach((i, a) => {
      S.forEach((j, c) => (A[a * r + c] = Z[i * m + j]!));
      A[a * r + s] = -1;
      A[s * r + a] = 1;
      b[a] = f[i]!;
    });
    b[s] = 1;
    const y = solve(A, b, r);
    if (!y || y.subarray(0, s).some((v) => v < 0)) continue;
    const nu = y[s]!;
    const x = new Float64Array(m);
    S.forEach((i, a) => (x[i] = y[a]!));
    let ok = true;
    for (let j = 0; j < m && ok; j++) {
      if (mask & (1 << j)) continue;
      let g = -f[j]!;
      for (let l = 0; l < m; l++) g += Z[j * m + l]! * x[l]!;
      if (g < nu - slack) ok = false;
    }
    if (!ok) continue;
    const obj = simplexQpObjective(Z, f, x);
    if (obj < bestObj) {
      bestObj = obj;
      best = x;
    }
  }
  if (!best) throw new Error('simplexQp: no support satisfies the KKT conditions (Z not PSD?)');
  return best;
}

function projectedGradient(Z: Float64Array, f: ArrayLike<number>, m: number): Float64Array {
  let L = 0;
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = 0; j < m; j++) s += Math.abs(Z[i * m + j]!);
    L = Math.max(L, s);
  }
  let x: Float64Array = new Float64Array(m).fill(1 / m);
  if (!(L > 0)) return x;
  let yk = x.slice();
  let t = 1;
  const step = new Float64Array(m);
  for (let it = 0; it < 100_000; it++) {
    for (let i = 0; i < m; i++) {
      let g = -f[i]!;
      for (let j = 0; j < m; j++) g += Z[i * m + j]! * yk[j]!;
      step[i] = yk[i]! - g / L;
    }
    const next = projectSimplex(step);
    let change = 0;
    for (let i = 0; i < m; i++) change = Math.max(change, Math.abs(next[i]! - x[i]!));
    const t1 = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
    const restart = simplexQpObjective(Z, f, next) > simplexQpObjective(Z, f, x);
    yk = next.map((v, i) => (restart ? v : v + ((t - 1) / t1) * (v - x[i]!)));
    t = restart ? 1 : t1;
    x = next;
    if (change <= 1e-15) break;
  }
  return x;
}

/** argmin over Δ_m of ½·xᵀZx − fᵀx (see the file comment). Z: (m, m) row-major. */
export function simplexQp(Z: Float64Array, f: ArrayLike<number>): Float64Array {
  const m = f.length;
  if (m < 1) throw new RangeError('simplexQp: empty problem');
  if (Z.length !== m * m)
    throw new RangeError(`simplexQp: Z has ${Z.length} entries, expected ${m * m}`);
  return m <= EXACT_MAX ? exact(Z, f, m) : projectedGradient(Z, f, m);
}
