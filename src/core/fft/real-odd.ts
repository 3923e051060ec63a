/** The real plan of odd n (see real.ts): one complex FFT of length n. */
import type { Real } from './core';
import { RealPlanBase, type ColumnWork } from './real-base';

/** Odd n: one complex FFT of length n. */
export class OddRealPlan extends RealPlanBase {
  constructor(n: number) {
    super(n, n);
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
    const { n, bins, a, b } = this;
    for (let j = 0; j < n; j++) {
      a[2 * j] = x[xo + j * xs]!;
      a[2 * j + 1] = 0;
    }
    const z = this.core.run(a, 0, a, b);
    for (let k = 0; k < bins; k++) {
      re[yo + k * ys] = z[2 * k]!;
      im[yo + k * ys] = z[2 * k + 1]!;
    }
    im[yo] = 0;
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
    const { n, bins, a, b } = this;
    // The Hermitian completion Y (Y_{n−k} = conj Y_k), stored swapped: (Im Y, Re Y).
    a[0] = 0;
    a[1] = re[yo]!;
    for (let k = 1; k < bins; k++) {
      const yr = re[yo + k * ys]!;
      const yi = im[yo + k * ys]!;
      a[2 * k] = yi;
      a[2 * k + 1] = yr;
      a[2 * (n - k)] = -yi;
      a[2 * (n - k) + 1] = yr;
    }
    const z = this.core.run(a, 0, a, b);
    const s = 1 / n;
    for (let j = 0; j < n; j++) x[xo + j * xs] = s * z[2 * j + 1]!; // Re = Im(result)
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
    const { n, bins } = this;
    const w2 = 2 * w;
    for (let j = 0; j < n; j++) {
      const e = xo + j * xr;
      const d = j * w2;
      for (let c = 0; c < w; c++) {
        a[d + 2 * c] = x[e + c]!;
        a[d + 2 * c + 1] = 0;
      }
    }
    const z = work.run(this.core, w);
    for (let k = 0; k < bins; k++) {
      const o = yo + k * yr;
      const d = k * w2;
      for (let c = 0; c < w; c++) {
        re[o + c] = z[d + 2 * c]!;
        im[o + c] = z[d + 2 * c + 1]!;
      }
    }
    for (let c = 0; c < w; c++) im[yo + c] = 0;
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
    const { n, bins } = this;
    const w2 = 2 * w;
    for (let c = 0; c < w; c++) {
      a[2 * c] = 0;
      a[2 * c + 1] = re[yo + c]!;
    }
    for (let k = 1; k < bins; k++) {
      const o = yo + k * yr;
      const dk = k * w2;
      const dn = (n - k) * w2;
      for (let c = 0; c < w; c++) {
        const yr0 = re[o + c]!;
        const yi0 = im[o + c]!;
        a[dk + 2 * c] = yi0;
        a[dk + 2 * c + 1] = yr0;
        a[dn + 2 * c] = -yi0;
        a[dn + 2 * c + 1] = yr0;
      }
    }
    const z = work.run(this.core, w);
    const s = 1 / n;
    for (let j = 0; j < n; j++) {
      const e = xo + j * xr;
      const d = j * w2;
      for (let c = 0; c < w; c++) x[e + c] = s * z[d + 2 * c + 1]!;
    }
  }
}
