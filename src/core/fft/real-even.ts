/** The real plan of even n = 2m (the packing trick, see real.ts): one complex FFT of length m. */
import type { Real } from './core';
import { RealPlanBase, type ColumnWork } from './real-base';
import { unitRoots } from './roots';

/** Even n = 2m: one complex FFT of length m. */
export class PackedRealPlan extends RealPlanBase {
  /** ω_n^k = e^{−2πik/n} = (wRe[k], wIm[k]), k ≤ m. */
  private readonly wRe: Real;
  private readonly wIm: Real;

  constructor(n: number) {
    super(n, n >> 1);
    const w = unitRoots((n >> 1) + 1, 1, n);
    this.wRe = w.re;
    this.wIm = w.im;
  }

  protected forwardUnchecked(
    x: Real,
    re: Real,
    im: Real,
    xo: number,
    xs: number,
    yo: number,
    ys: number,
  ): void {
    const { a, b, wRe, wIm } = this;
    const m = this.n >> 1;
    // z_j = x_{2j} + i·x_{2j+1} is x itself read as interleaved complex: with unit stride the
    // first pass reads x directly; otherwise gather it into a.
    let src = x;
    let so = xo;
    if (xs !== 1) {
      for (let j = 0; j < 2 * m; j++) a[j] = x[xo + j * xs]!;
      src = a;
      so = 0;
    }
    const z = this.core.run(src, so, a, b);
    re[yo] = z[0]! + z[1]!;
    im[yo] = 0;
    re[yo + m * ys] = z[0]! - z[1]!;
    im[yo + m * ys] = 0;
    // Bins k and m − k together: X_k = E + W and X_{m−k} = conj(E − W) with W = ω^k·O, since
    // E_{m−k} = conj E_k, O_{m−k} = conj O_k and ω^{m−k} = −conj ω^k.
    for (let k = 1; 2 * k <= m; k++) {
      const ar = z[2 * k]!;
      const ai = z[2 * k + 1]!;
      const br = z[2 * (m - k)]!;
      const bi = z[2 * (m - k) + 1]!;
      // E = (Z_k + conj Z_{m−k})/2, O = (Z_k − conj Z_{m−k})/(2i).
      const er = 0.5 * (ar + br);
      const ei = 0.5 * (ai - bi);
      const or = 0.5 * (ai + bi);
      const oi = -0.5 * (ar - br);
      const wr = wRe[k]!;
      const wi = wIm[k]!;
      const vr = wr * or - wi * oi;
      const vi = wr * oi + wi * or;
      re[yo + k * ys] = er + vr;
      im[yo + k * ys] = ei + vi;
      if (2 * k < m) {
        re[yo + (m - k) * ys] = er - vr;
        im[yo + (m - k) * ys] = vi - ei;
      }
    }
  }

  protected inverseUnchecked(
    re: Real,
    im: Real,
    x: Real,
    yo: number,
    ys: number,
    xo: number,
    xs: number,
  ): void {
    const { a, b, wRe, wIm } = this;
    const m = this.n >> 1;
    // Z = E + i·O, stored swapped, (Im Z, Re Z), so the forward core yields swap(m·IDFT_m(Z)).
    const x0 = re[yo]!;
    const xm = re[yo + m * ys]!;
    a[0] = 0.5 * (x0 - xm);
    a[1] = 0.5 * (x0 + xm);
    // Bins k and m − k together: Z_{m−k} = conj E_k + i·conj O_k.
    for (let k = 1; 2 * k <= m; k++) {
      const ar = re[yo + k * ys]!;
      const ai = im[yo + k * ys]!;
      const br = re[yo + (m - k) * ys]!;
      const bi = im[yo + (m - k) * ys]!;
      const er = 0.5 * (ar + br);
      const ei = 0.5 * (ai - bi);
      const dr = 0.5 * (ar - br);
      const di = 0.5 * (ai + bi);
      // O = (X_k − conj X_{m−k})/2 · conj(ω^k)
      const wr = wRe[k]!;
      const wi = wIm[k]!;
      const or = dr * wr + di * wi;
      const oi = di * wr - dr * wi;
      a[2 * k] = ei + or; // Im Z_k
      a[2 * k + 1] = er - oi; // Re Z_k
      a[2 * (m - k)] = or - ei; // Im Z_{m−k}
      a[2 * (m - k) + 1] = er + oi; // Re Z_{m−k}
    }
    const z = this.core.run(a, 0, a, b);
    // x_{2j} = Re z_j = (result)_{2j+1}/m, x_{2j+1} = Im z_j = (result)_{2j}/m.
    const s = 1 / m;
    for (let j = 0; j < m; j++) {
      x[xo + 2 * j * xs] = s * z[2 * j + 1]!;
      x[xo + (2 * j + 1) * xs] = s * z[2 * j]!;
    }
  }

  protected panelForward(
    w: number,
    x: Real,
    xo: number,
    xr: number,
    re: Real,
    im: Real,
    yo: number,
    yr: number,
    work: ColumnWork,
  ): void {
    const { a } = work;
    const { wRe, wIm } = this;
    const m = this.n >> 1;
    const w2 = 2 * w;
    // Signal c's z_j = x_{2j} + i·x_{2j+1} into the panel.
    for (let j = 0; j < m; j++) {
      const e = xo + 2 * j * xr;
      const f = e + xr;
      const d = j * w2;
      for (let c = 0; c < w; c++) {
        a[d + 2 * c] = x[e + c]!;
        a[d + 2 * c + 1] = x[f + c]!;
      }
    }
    const z = work.run(this.core, w);
    const ym = yo + m * yr;
    for (let c = 0; c < w; c++) {
      re[yo + c] = z[2 * c]! + z[2 * c + 1]!;
      im[yo + c] = 0;
      re[ym + c] = z[2 * c]! - z[2 * c + 1]!;
      im[ym + c] = 0;
    }
    // As forwardUnchecked, bins k and m − k together, for every signal.
    for (let k = 1; 2 * k <= m; k++) {
      const wr = wRe[k]!;
      const wi = wIm[k]!;
      const zk = k * w2;
      const zm = (m - k) * w2;
      const ok = yo + k * yr;
      const om = yo + (m - k) * yr;
      const both = 2 * k < m;
      for (let c = 0; c < w; c++) {
        const ar = z[zk + 2 * c]!;
        const ai = z[zk + 2 * c + 1]!;
        const br = z[zm + 2 * c]!;
        const bi = z[zm + 2 * c + 1]!;
        const er = 0.5 * (ar + br);
        const ei = 0.5 * (ai - bi);
        const or = 0.5 * (ai + bi);
        const oi = -0.5 * (ar - br);
        const vr = wr * or - wi * oi;
        const vi = wr * oi + wi * or;
        re[ok + c] = er + vr;
        im[ok + c] = ei + vi;
        if (both) {
          re[om + c] = er - vr;
          im[om + c] = vi - ei;
        }
      }
    }
  }

  protected panelInverse(
    w: number,
    re: Real,
    im: Real,
    yo: number,
    yr: number,
    x: Real,
    xo: number,
    xr: number,
    work: ColumnWork,
  ): void {
    const { a } = work;
    const { wRe, wIm } = this;
    const m = this.n >> 1;
    const w2 = 2 * w;
    // As inverseUnchecked, for every signal: Z = E + i·O stored swapped.
    const ym = yo + m * yr;
    for (let c = 0; c < w; c++) {
      const x0 = re[yo + c]!;
      const xm = re[ym + c]!;
      a[2 * c] = 0.5 * (x0 - xm);
      a[2 * c + 1] = 0.5 * (x0 + xm);
    }
    for (let k = 1; 2 * k <= m; k++) {
      const wr = wRe[k]!;
      const wi = wIm[k]!;
      const ik = yo + k * yr;
      const imk = yo + (m - k) * yr;
      const dk = k * w2;
      const dm = (m - k) * w2;
      for (let c = 0; c < w; c++) {
        const ar = re[ik + c]!;
        const ai = im[ik + c]!;
        const br = re[imk + c]!;
        const bi = im[imk + c]!;
        const er = 0.5 * (ar + br);
        const ei = 0.5 * (ai - bi);
        const dr = 0.5 * (ar - br);
        const di = 0.5 * (ai + bi);
        const or = dr * wr + di * wi;
        const oi = di * wr - dr * wi;
        a[dk + 2 * c] = ei + or;
        a[dk + 2 * c + 1] = er - oi;
        a[dm + 2 * c] = or - ei;
        a[dm + 2 * c + 1] = er + oi;
      }
    }
    const z = work.run(this.core, w);
    const s = 1 / m;
    for (let j = 0; j < m; j++) {
      const e = xo + 2 * j * xr;
      const f = e + xr;
      const d = j * w2;
      for (let c = 0; c < w; c++) {
        x[e + c] = s * z[d + 2 * c + 1]!;
        x[f + c] = s * z[d + 2 * c]!;
      }
    }
  }
}
