/**
 * What the real plans (real.ts) share: the caller-owned column work buffers, and the base class
 * that checks every argument and sends single, strided and column transforms to a subclass.
 */
import { checkColumns, checkStrided } from './check';
import type { FftCore, Real } from './core';
import { panelBackend, SimdPanel, simdCore } from './panel-run';
import { fftCore } from './plan';
import type { RealFftPlan } from './real';

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

export abstract class RealPlanBase implements RealFftPlan {
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
