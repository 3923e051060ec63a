/**
 * Bluestein's chirp-z algorithm: a DFT of any length n as a cyclic convolution of length
 * M = 2^⌈log2(2n − 1)⌉, computed with power-of-two FFTs.
 *
 * With the chirp b_j = e^{iπj²/n}, jk = (j² + k² − (k − j)²)/2 gives
 *
 *   X_k = conj(b_k) · Σ_{j<n} (x_j · conj(b_j)) · b_{k−j},
 *
 * a convolution of u_j = x_j·conj(b_j) (zero-padded to M) with the filter h (h_j = b_j for
 * |j| < n, indices mod M). Per call: two FFTs of length M (forward of u, then the unnormalised
 * inverse of U·H through the swap identity Σ_k z_k e^{+2πijk/M} = swap(DFT(swap z)), where
 * swap(a + ib) = b + ia), plus O(M) products. The spectrum H = DFT_M(h)/M is computed once.
 * Cost ≈ 2·cost(M) + O(M), with 2n − 1 ≤ M < 4n.
 *
 * Accuracy: the chirp phase πj²/n is reduced as j² mod 2n with exact integer recurrences, so
 * b_j is accurate to about an ulp for every j (the plain angle πj²/n grows like n and loses
 * digits in proportion).
 */
import type { FftCore, Real } from './core';
import { MixedRadixCore } from './mixed-radix';
import { unitRoot } from './roots';

/** Complex points per sub-panel of `runPanel` (two buffers of 1 MiB). */
const PANEL_POINTS = 1 << 16;

/** Smallest power of two ≥ 2n − 1. */
export function bluesteinLength(n: number): number {
  let m = 1;
  while (m < 2 * n - 1) m *= 2;
  return m;
}

export class BluesteinCore implements FftCore {
  readonly n: number;
  readonly factors: readonly number[];
  /** The convolution length M. */
  readonly m: number;
  private readonly inner: FftCore;
  /** conj(b_j) = e^{−iπj²/n}, j < n, interleaved. */
  private readonly chirp: Real;
  /** H = DFT_M(h) / M, interleaved. */
  private readonly filter: Real;
  private readonly p: Real;
  private readonly q: Real;
  /** Sub-panel work buffers (2M·group), grown on demand by `runPanel`. */
  private pp: Real = new Float64Array(0);
  private pq: Real = new Float64Array(0);

  /** `inner` must be a core of length `bluesteinLength(n)`; by default a new mixed-radix one. */
  constructor(n: number, inner: FftCore = new MixedRadixCore(bluesteinLength(n))) {
    const m = bluesteinLength(n);
    if (inner.n !== m) throw new Error(`BluesteinCore(${n}): inner length ${inner.n}, need ${m}`);
    this.n = n;
    this.m = m;
    this.inner = inner;
    this.factors = inner.factors;
    this.chirp = new Float64Array(2 * n);
    // conj(b_j) = e^{−2πi·(j² mod 2n)/(2n)}; (j + 1)² = j² + 2j + 1 keeps the residue exact.
    const w = new Float64Array(2);
    let sq = 0;
    for (let j = 0; j < n; j++) {
      unitRoot(sq, 2 * n, w);
      this.chirp[2 * j] = w[0]!;
      this.chirp[2 * j + 1] = w[1]!;
      sq = (sq + 2 * j + 1) % (2 * n);
    }
    this.p = new Float64Array(2 * m);
    this.q = new Float64Array(2 * m);
    this.filter = this.makeFilter();
  }

  /** H = DFT_M(h)/M with h_j = h_{M−j} = b_j = conj(chirp_j) for j < n, 0 elsewhere. */
  private makeFilter(): Real {
    const { n, m, p, q, chirp } = this;
    p.fill(0);
    for (let j = 0; j < n; j++) {
      p[2 * j] = chirp[2 * j]!;
      p[2 * j + 1] = -chirp[2 * j + 1]!;
      if (j > 0) {
        p[2 * (m - j)] = p[2 * j]!;
        p[2 * (m - j) + 1] = p[2 * j + 1]!;
      }
    }
    const spectrum = this.inner.run(p, 0, p, q);
    const filter = new Float64Array(2 * m);
    for (let k = 0; k < 2 * m; k++) filter[k] = spectrum[k]! / m;
    return filter;
  }

  run(src: Real, so: number, a: Real): Real {
    const { n, m, chirp, filter, p, q } = this;
    // u = x · conj(b), zero-padded to M.
    for (let j = 0; j < n; j++) {
      const xr = src[so + 2 * j]!;
      const xi = src[so + 2 * j + 1]!;
      const cr = chirp[2 * j]!;
      const ci = chirp[2 * j + 1]!;
      p[2 * j] = xr * cr - xi * ci;
      p[2 * j + 1] = xr * ci + xi * cr;
    }
    p.fill(0, 2 * n);
    // U = DFT(u); Z = U·H stored swapped, (Im Z, Re Z), for the inverse.
    const u = this.inner.run(p, 0, p, q);
    for (let k = 0; k < 2 * m; k += 2) {
      const xr = u[k]!;
      const xi = u[k + 1]!;
      const hr = filter[k]!;
      const hi = filter[k + 1]!;
      u[k] = xr * hi + xi * hr;
      u[k + 1] = xr * hr - xi * hi;
    }
    // u ⊛ h = M·IDFT_M(Z) = swap(DFT_M(swap Z)): read the result back swapped.
    const v = this.inner.run(u, 0, u, u === p ? q : p);
    // X = conj(b) · (u ⊛ h).
    for (let k = 0; k < n; k++) {
      const xr = v[2 * k + 1]!;
      const xi = v[2 * k]!;
      const cr = chirp[2 * k]!;
      const ci = chirp[2 * k + 1]!;
      a[2 * k] = xr * cr - xi * ci;
      a[2 * k + 1] = xr * ci + xi * cr;
    }
    return a;
  }

  /**
   * `run` on a panel of `count` signals (core.ts): the same products, signal by signal, on
   * sub-panels of at most PANEL_POINTS / M signals so that the core's own buffers stay small.
   */
  runPanel(a: Real, _b: Real, count: number): Real {
    const { n, m, chirp, filter } = this;
    const group = Math.max(1, Math.min(count, Math.floor(PANEL_POINTS / m)));
    if (this.pp.length < 2 * m * group) {
      this.pp = new Float64Array(2 * m * group);
      this.pq = new Float64Array(2 * m * group);
    }
    const p = this.pp;
    const q = this.pq;
    const w = 2 * count;
    for (let c0 = 0; c0 < count; c0 += group) {
      const g = Math.min(group, count - c0);
      const wg = 2 * g;
      // u = x · conj(b), zero-padded to M, for signals c0 … c0 + g − 1.
      for (let j = 0; j < n; j++) {
        const cr = chirp[2 * j]!;
        const ci = chirp[2 * j + 1]!;
        for (let o = j * wg, e = o + wg, i = j * w + 2 * c0; o < e; o += 2, i += 2) {
          const xr = a[i]!;
          const xi = a[i + 1]!;
          p[o] = xr * cr - xi * ci;
          p[o + 1] = xr * ci + xi * cr;
        }
      }
      p.fill(0, n * wg, m * wg);
      const u = this.inner.runPanel(p, q, g);
      for (let k = 0; k < m; k++) {
        const hr = filter[2 * k]!;
        const hi = filter[2 * k + 1]!;
        for (let o = k * wg, e = o + wg; o < e; o += 2) {
          const xr = u[o]!;
          const xi = u[o + 1]!;
          u[o] = xr * hi + xi * hr;
          u[o + 1] = xr * hr - xi * hi;
        }
      }
      const v = this.inner.runPanel(u, u === p ? q : p, g);
      for (let k = 0; k < n; k++) {
        const cr = chirp[2 * k]!;
        const ci = chirp[2 * k + 1]!;
        for (let o = k * wg, e = o + wg, i = k * w + 2 * c0; o < e; o += 2, i += 2) {
          const xr = v[o + 1]!;
          const xi = v[o]!;
          a[i] = xr * cr - xi * ci;
          a[i + 1] = xr * ci + xi * cr;
        }
      }
    }
    return a;
  }
}
