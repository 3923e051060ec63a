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
 *
 * Files: this one declares the plan and caches one per n; real-even.ts and real-odd.ts are the
 * two plans, real-base.ts their shared argument checks and the column work buffers.
 */
import { checkLength } from './check';
import type { Real } from './core';
import { ColumnWork } from './real-base';
import { PackedRealPlan } from './real-even';
import { OddRealPlan } from './real-odd';

export { ColumnWork };

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
