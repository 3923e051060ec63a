/**
 * Real FFT plans (numpy's `np.fft.rfft` / `np.fft.irfft` conventions).
 *
 *   forward  X_k = Σ_{j<n} x_j · e^{−2πijk/n},  k = 0 … ⌊n/2⌋   (the non-redundant bins;
 *            X_{n−k} = conj(X_k) for real x)
 *   inverse  x_j = (1/n) · Σ_{k<n} X_k · e^{+2πijk/n}, the missing bins taken as
 *            X_{n−k} = conj(X_k); the imaginary parts of X_0 and (n even) X_{n/2} are ignored,
 *            as numpy's irfft does.
 *
 * Layout: the real signal is x[offset + j·stride]; the spectrum is split complex,
 * X_k = (re, im)[offset + k·stride], ⌊n/2⌋ + 1 bins.
 *
 * Even n = 2m (the packing trick): z_j = x_{2j} + i·x_{2j+1} (j < m), Z = DFT_m(z), then with
 * E_k = (Z_k + conj(Z_{m−k}))/2 and O_k = (Z_k − conj(Z_{m−k}))/(2i) (the DFTs of the even and
 * odd samples; Z_m ≡ Z_0),
 *
 *   X_k = E_k + ω_n^k · O_k,   ω_n = e^{−2πi/n},   k = 0 … m.
 *
 * The inverse runs this backwards: E_k = (X_k + conj(X_{m−k}))/2,
 * O_k = (X_k − conj(X_{m−k}))·conj(ω_n^k)/2, z = IDFT_m(E + i·O). One complex FFT of half the
 * length plus O(n): about half the work of a complex FFT of length n.
 *
 * Odd n: one complex FFT of length n on (x, 0) (forward), or on the Hermitian completion of the
 * spectrum (inverse).
 */
import { checkColumns, checkLength, checkStrided } from './check';
import type { FftCore, Real } from './core';
import { fftCore } from './plan';
import { unitRoots } from './roots';
import { panelBackend, SimdPanel, simdCore } from './panel-run';

export interface RealFftPlan {
  readonly n: number;
  /** Number of non-redundant bins, ⌊n/2⌋ + 1. */
  readonly bins: number;
  /**
   * X_k = Σ_j x_j e^{−2πijk/n}, k < bins, with x_j = x[xOffset + j·xStride] and X_k written
   * to (re, im)[yOffset + k·yStride].
   */
  forward(
    x: Real,
    re: Real,
    im: Real,
    xOffset?: number,
    xStride?: number,
    yOffset?: number,
    yStride?: number,
  ): void;
  /**
   * x_j = (1/n) Σ_{k<n} X_k e^{+2πijk/n} for the Hermitian spectrum whose first `bins` bins are
   * (re, im)[yOffset + k·yStride], written to x[xOffset + j·xStride]. The inputs are not
   * modified.
   */
  inverse(
    re: Real,
    im: Real,
    x: Real,
    yOffset?: number,
    yStride?: number,
    xOffset?: number,
    xStride?: number,
  ): void;
  /**
   * `forward` of `count` signals stored as adjacent columns of row-major matrices: signal b
   * (b < count) is x_j = x[xOffset + j·xRow + b], j < n, and its bins go to
   * (re, im)[yOffset + k·yRow + b], k < bins (rows ≥ count apart). Same bits as `count` calls
   * of `forward`. With `work`, the columns are transformed together on one panel held in it
   * (`panel.ts`; see `ColumnWork` for its size): every row of x and of the bins is read or
   * written once, as a run of `count` values, and each butterfly's twiddles serve all
   * columns. Without `work`, one column at a time (no extra memory).
   */
  forwardColumns(
    count: number,
    x: Real,
    xOffset: number,
    xRow: number,
    re: Real,
    im: Real,
    yOffset: number,
    yRow: number,
    work?: ColumnWork,
  ): void;
  /** `inverse` of `count` spectra stored as columns (the layout and `work` of `forwardColumns`). */
  inverseColumns(
    count: number,
    re: Real,
    im: Real,
    yOffset: number,
    yRow: number,
    x: Real,
    xOffset: number,
    xRow: number,
    work?: ColumnWork,
  ): void;
}

/**
 * Work buffers for the column transforms of real plans (`forwardColumns`, `inverseColumns`),
 * owned by the caller so that they live as long as its solve and not in the plan cache. They
 * grow to the largest panel asked for (two buffers of 2·coreLength·count values, coreLength =
 * n/2 for even n, n for odd n) and never shrink. Where WebAssembly SIMD is available and the
 * plan's core has only radices 2, 3, 4, 5 and 8, the buffers live in a WebAssembly memory and
 * the passes run there (`panel-run.ts`, the same bits); otherwise they are plain arrays and the
 * passes are `panel.ts`'.
 */
export class ColumnWork {
  a: Real = new Float64Array(0);
  b: Real = new Float64Array(0);
  /** The WebAssembly panel: undefined until a core could use one, null when unavailable. */
  private simd: SimdPanel | null | undefined;

  /**
   * Makes both buffers hold at least `length` values, for passes of `core` (when given, the
   * buffers move into the WebAssembly panel if it can run them; their contents are not kept).
   */
  reserve(length: number, core?: FftCore): void {
    if (core && panelBackend() === 'wasm' && simdCore(core)) {
      if (this.simd === undefined) this.simd = SimdPanel.create();
      if (this.simd?.reserve(length, core)) {
        this.a = this.simd.a;
        this.b = this.simd.b;
        return;
      }
    }
    if (this.a.length < length) {
      this.a = new Float64Array(length);
      this.b = new Float64Array(length);
    }
  }

  /**
   * `core.runPanel(a, b, count)`: on the WebAssembly panel when the last `reserve` put the
   * buffers there for this core, else the TypeScript passes. Returns a or b.
   */
  run(core: FftCore, count: number): Real {
    const simd = this.simd;
    if (simd && this.a === simd.a && simd.holds(core) && panelBackend() === 'wasm') {
      return simd.run(count);
    }
    return core.runPanel(this.a, this.b, count);
  }
}

abstract class RealPlanBase implements RealFftPlan {
  readonly n: number;
  readonly bins: number;
  protected readonly core: FftCore;
  /** Interleaved work buffers of the complex core. */
  protected readonly a: Real;
  protected readonly b: Real;
  private readonly coreLength: number;

  constructor(n: number, coreLength: number) {
    this.n = n;
    this.bins = (n >> 1) + 1;
    this.core = fftCore(coreLength);
    this.coreLength = coreLength;
    this.a = new Float64Array(2 * coreLength);
    this.b = new Float64Array(2 * coreLength);
  }

  forwardColumns(
    count: number,
    x: Real,
    xOffset: number,
    xRow: number,
    re: Real,
    im: Real,
    yOffset: number,
    yRow: number,
    work?: ColumnWork,
  ): void {
    if (count === 0) return;
    checkColumns('rfft', 'x', x.length, this.n, count, xOffset, xRow);
    checkColumns('rfft', 're', re.length, this.bins, count, yOffset, yRow);
    checkColumns('rfft', 'im', im.length, this.bins, count, yOffset, yRow);
    if (!work) {
      for (let b = 0; b < count; b++)
        this.forwardUnchecked(x, re, im, xOffset + b, xRow, yOffset + b, yRow);
      return;
    }
    work.reserve(2 * this.coreLength * count, this.core);
    this.panelForward(count, x, xOffset, xRow, re, im, yOffset, yRow, work);
  }

  inverseColumns(
    count: number,
    re: Real,
    im: Real,
    yOffset: number,
    yRow: number,
    x: Real,
    xOffset: number,
    xRow: number,
    work?: ColumnWork,
  ): void {
    if (count === 0) return;
    checkColumns('irfft', 're', re.length, this.bins, count, yOffset, yRow);
    checkColumns('irfft', 'im', im.length, this.bins, count, yOffset, yRow);
    checkColumns('irfft', 'x', x.length, this.n, count, xOffset, xRow);
    if (!work) {
      for (let b = 0; b < count; b++)
        this.inverseUnchecked(re, im, x, yOffset + b, yRow, xOffset + b, xRow);
      return;
    }
    work.reserve(2 * this.coreLength * count, this.core);
    this.panelInverse(count, re, im, yOffset, yRow, x, xOffset, xRow, work);
  }

  /** `forwardColumns` of w columns (checked) on the panel a, with b as work. */
  protected abstract panelForward(
    w: number,
    x: Real,
    xo: number,
    xr: number,
    re: Real,
    im: Real,
    yo: number,
    yr: number,
    work: ColumnWork,
  ): void;

  /** `inverseColumns` of w columns (checked) on the panel a, with b as work. */
  protected abstract panelInverse(
    w: number,
    re: Real,
    im: Real,
    yo: number,
    yr: number,
    x: Real,
    xo: number,
    xr: number,
    work: ColumnWork,
  ): void;

  forward(x: Real, re: Real, im: Real, xOffset = 0, xStride = 1, yOffset = 0, yStride = 1): void {
    checkStrided('rfft', 'x', x.length, this.n, xOffset, xStride);
    checkStrided('rfft', 're', re.length, this.bins, yOffset, yStride);
    checkStrided('rfft', 'im', im.length, this.bins, yOffset, yStride);
    this.forwardUnchecked(x, re, im, xOffset, xStride, yOffset, yStride);
  }

  inverse(re: Real, im: Real, x: Real, yOffset = 0, yStride = 1, xOffset = 0, xStride = 1): void {
    checkStrided('irfft', 're', re.length, this.bins, yOffset, yStride);
    checkStrided('irfft', 'im', im.length, this.bins, yOffset, yStride);
    checkStrided('irfft', 'x', x.length, this.n, xOffset, xStride);
    this.inverseUnchecked(re, im, x, yOffset, yStride, xOffset, xStride);
  }

  protected abstract forwardUnchecked(
    x: Real,
    re: Real,
    im: Real,
    xo: number,
    xs: number,
    yo: number,
    ys: number,
  ): void;

  protected abstract inverseUnchecked(
    re: Real,
    im: Real,
    x: Real,
    yo: number,
    ys: number,
    xo: number,
    xs: number,
  ): void;
}

/** Even n = 2m: one complex FFT of length m. */
class PackedRealPlan extends RealPlanBase {
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

/** Odd n: one complex FFT of length n. */
class OddRealPlan extends RealPlanBase {
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

const realPlans = new Map<number, RealFftPlan>();

/**
 * The plan for real transforms of length n (cached per n). Even n costs one complex FFT of
 * length n/2 plus O(n); odd n one complex FFT of length n. No allocation per call.
 */
export function createRealFftPlan(n: number): RealFftPlan {
  checkLength('createRealFftPlan', n);
  let plan = realPlans.get(n);
  if (!plan) {
    plan = n % 2 === 0 ? new PackedRealPlan(n) : new OddRealPlan(n);
    realPlans.set(n, plan);
  }
  return plan;
}

/** Drops the cached real plans. */
export function clearRealFftCache(): void {
  realPlans.clear();
}
