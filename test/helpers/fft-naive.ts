/**
 * The O(n²) reference DFT the FFT tests compare against, plus small vector helpers.
 *
 * X_k = Σ_j x_j e^{∓2πijk/n} with the exponent jk reduced mod n (so every factor comes from a
 * table of n roots, each `Math.cos`/`Math.sin` of an angle < 2π), summed with Neumaier's
 * compensated summation: the reference's own error stays near one ulp of ‖x‖₁ whatever n is,
 * far below the tolerances it checks.
 */
import { prng } from './prng';

export interface Complex {
  re: Float64Array;
  im: Float64Array;
}

/** Compensated running sum (Neumaier). */
class Sum {
  s = 0;
  c = 0;
  add(v: number): void {
    const t = this.s + v;
    this.c += Math.abs(this.s) >= Math.abs(v) ? this.s - t + v : v - t + this.s;
    this.s = t;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/** Unnormalised DFT (sign −1) or unnormalised inverse (sign +1) of x. */
export function naiveDft(x: Complex, sign: -1 | 1 = -1): Complex {
  const n = x.re.length;
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / n);
    sin[k] = sign * Math.sin((2 * Math.PI * k) / n);
  }
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const sr = new Sum();
    const si = new Sum();
    for (let j = 0, q = 0; j < n; j++, q = (q + k) % n) {
      const c = cos[q]!;
      const s = sin[q]!;
      const a = x.re[j]!;
      const b = x.im[j]!;
      sr.add(a * c);
      sr.add(-b * s);
      si.add(a * s);
      si.add(b * c);
    }
    re[k] = sr.value;
    im[k] = si.value;
  }
  return { re, im };
}

/** A seeded complex signal with entries uniform in [−1, 1). */
export function randomComplex(n: number, seed: number): Complex {
  const r = prng(seed);
  return {
    re: Float64Array.from({ length: n }, () => 2 * r() - 1),
    im: Float64Array.from({ length: n }, () => 2 * r() - 1),
  };
}

/** A seeded real signal with entries uniform in [−1, 1). */
export function randomReal(n: number, seed: number): Float64Array {
  const r = prng(seed);
  return Float64Array.from({ length: n }, () => 2 * r() - 1);
}

export function copy(x: Complex): Complex {
  return { re: x.re.slice(), im: x.im.slice() };
}

/** max_k |a_k − b_k| over the first `count` elements (all by default). */
export function maxAbsDiff(a: Complex, b: Complex, count = a.re.length): number {
  let m = 0;
  for (let k = 0; k < count; k++) {
    m = Math.max(m, Math.hypot(a.re[k]! - b.re[k]!, a.im[k]! - b.im[k]!));
  }
  return m;
}

/** ‖x‖₁ = Σ |x_j|. */
export function norm1(x: Complex): number {
  let s = 0;
  for (let j = 0; j < x.re.length; j++) s += Math.hypot(x.re[j]!, x.im[j]!);
  return s;
}

/** ‖x‖₂². */
export function energy(x: Complex): number {
  let s = 0;
  for (let j = 0; j < x.re.length; j++) s += x.re[j]! ** 2 + x.im[j]! ** 2;
  return s;
}

/**
 * The FFT tolerance used throughout: ‖X̂ − X‖∞ ≤ TOL·max(1, log2 n)·‖x‖₁. Since |X_k| ≤ ‖x‖₁
 * this bounds the error relative to the largest possible coefficient; a stable FFT's error
 * grows like ε·log2 n (ε = 2.2e-16). Measured worst case over every tested length and both
 * algorithms: 2.0e-16·max(1, log2 n)·‖x‖₁, so TOL leaves a factor of 50.
 */
export const TOL = 1e-14;

export function tolerance(n: number, x: Complex): number {
  return TOL * Math.max(1, Math.log2(n)) * norm1(x);
}

/** Relative RMS error ‖X̂ − X‖₂ / ‖X‖₂, reported in the test names for the record. */
export function relRms(got: Complex, want: Complex, count = got.re.length): number {
  let num = 0;
  let den = 0;
  for (let k = 0; k < count; k++) {
    num += (got.re[k]! - want.re[k]!) ** 2 + (got.im[k]! - want.im[k]!) ** 2;
    den += want.re[k]! ** 2 + want.im[k]! ** 2;
  }
  return den === 0 ? Math.sqrt(num) : Math.sqrt(num / den);
}
