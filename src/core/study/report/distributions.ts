/**
 * The distribution functions the study statistics need, in double precision: the regularised
 * incomplete gamma and beta functions (and from them the χ², F and normal tails), and the
 * studentized range distribution with infinite degrees of freedom behind Nemenyi's q_α.
 */

// Lanczos approximation (g = 7, nine coefficients): relative error below 1e-15 for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_TERMS = 10000;

/** Regularised lower incomplete gamma P(a, x) by its power series (converges fast for x < a + 1). */
function gammaPSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Regularised upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz), x ≥ a + 1. */
function gammaQFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** Q(a, x) = Γ(a, x) / Γ(a), the upper tail; a > 0, x ≥ 0. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaPSeries(a, x) : gammaQFraction(a, x);
}

/** The continued fraction of I_x(a, b) (modified Lentz), accurate for x < (a + 1)/(a + b + 2). */
function betaFraction(a: number, b: number, x: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_TERMS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b); a, b > 0, 0 ≤ x ≤ 1. */
export function betaI(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x),
  );
  // The fraction converges quickly on one side of the mean; use the symmetry I_x(a,b) = 1 − I_{1−x}(b,a).
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(X > x) for X ~ χ²(df). */
export const chiSquareSf = (x: number, df: number): number => gammaQ(df / 2, x / 2);

/** P(X > x) for X ~ F(d1, d2). */
export function fSf(x: number, d1: number, d2: number): number {
  if (x <= 0) return 1;
  return betaI(d2 / 2, d1 / 2, d2 / (d2 + d1 * x));
}

/** P(Z > z) for a standard normal Z (via erfc(t) = Q(1/2, t²)). */
export function normalSf(z: number): number {
  const q = 0.5 * gammaQ(0.5, (z * z) / 2);
  return z >= 0 ? q : 1 - q;
}

/** P(Z ≤ z) for a standard normal Z. */
export const normalCdf = (z: number): number => normalSf(-z);

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/**
 * P(R ≤ q) for the range R of k independent standard normals (the studentized range with
 * infinite degrees of freedom): k ∫ φ(z) [Φ(z) − Φ(z − q)]^(k−1) dz, by composite Simpson over
 * z ∈ [−9, 9 + q] (the integrand is below 1e-17 outside).
 */
export function rangeCdf(q: number, k: number): number {
  if (q <= 0) return 0;
  const lo = -9;
  const hi = 9 + q;
  const steps = 1200;
  const h = (hi - lo) / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const z = lo + i * h;
    const f = (Math.exp(-0.5 * z * z) / SQRT_2PI) * (normalCdf(z) - normalCdf(z - q)) ** (k - 1);
    sum += (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2) * f;
  }
  return Math.min(1, ((k * h) / 3) * sum);
}

/** The p-quantile of the range of k standard normals, by bisection on rangeCdf (to 1e-10). */
export function rangeQuantile(p: number, k: number): number {
  let lo = 0;
  let hi = 12;
  while (hi - lo > 1e-10) {
    const mid = (lo + hi) / 2;
    if (rangeCdf(mid, k) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
