/**
 * Complex FFT plans of any length n ≥ 1.
 *
 * Conventions (numpy's `np.fft.fft` / `np.fft.ifft`):
 *
 *   forward  X_k = Σ_{j<n} x_j · e^{−2πijk/n}            (unnormalised)
 *   inverse  x_j = (1/n) · Σ_{k<n} X_k · e^{+2πijk/n}     (scaled by 1/n)
 *
 * so inverse(forward(x)) = x. Layout: split complex, element j of a vector is
 * (re[offset + j·stride], im[offset + j·stride]).
 *
 * A plan precomputes its tables once (O(n) memory) and owns two interleaved scratch vectors of
 * n complex numbers: a call copies the input into scratch (this is where strides and offsets
 * are resolved, and split re/im becomes interleaved), runs the passes there, and writes the
 * output, so input and output may alias freely and nothing is allocated per call. Plans are cached per (n, algorithm); plans are not re-entrant, which is
 * harmless in single-threaded JavaScript (each worker has its own cache).
 *
 * Algorithm: mixed radix (`mixed-radix.ts`, O(n·Σ p_t)) unless n has a prime factor so large
 * that Bluestein (`bluestein.ts`, two power-of-two FFTs of length M ≈ 2n … 4n) is cheaper; see
 * `chooseAlgorithm`. The inverse runs the forward passes on (im, re) swapped:
 * DFT(swap z) = swap(n · IDFT(z)) with swap(a + ib) = b + ia, so it costs the same.
 */
import { BluesteinCore, bluesteinLength } from './bluestein';
import { checkLength, checkStrided } from './check';
import type { FftCore, Real } from './core';
import { MixedRadixCore, factorize } from './mixed-radix';

export type FftAlgorithm = 'mixed-radix' | 'bluestein';

export interface FftPlan {
  readonly n: number;
  readonly algorithm: FftAlgorithm;
  /** Radices of the passes in order (Bluestein: of its inner power-of-two transform). */
  readonly factors: readonly number[];
  /** In place: X_k = Σ_j x_j e^{−2πijk/n} on x_j = (re, im)[offset + j·stride]. */
  forward(re: Real, im: Real, offset?: number, stride?: number): void;
  /** In place: x_j = (1/n) Σ_k X_k e^{+2πijk/n} on X_k = (re, im)[offset + k·stride]. */
  inverse(re: Real, im: Real, offset?: number, stride?: number): void;
  /**
   * Out of place (or in place, any aliasing): y = DFT(x), or IDFT(x) when `inverse`, with
   * x_j = (xRe, xIm)[xOffset + j·xStride] and y_k = (yRe, yIm)[yOffset + k·yStride].
   */
  transform(
    inverse: boolean,
    xRe: Real,
    xIm: Real,
    yRe: Real,
    yIm: Real,
    xOffset?: number,
    xStride?: number,
    yOffset?: number,
    yStride?: number,
  ): void;
}

/**
 * Cost model, in ns per point per pass, measured on Node 20 (2-core AMD EPYC; the "threshold"
 * table of `npm run bench -- fft` reprints it): radix 8 covers three factors of 2 for about the
 * price of one radix-4 pass; a generic odd radix p costs ≈ 0.8·p + 10 (its butterfly is O(p²)
 * for p points); Bluestein adds ≈ 4 ns per point of M to its two power-of-two transforms.
 * Measured crossover on primes: up to ~100 the generic kernel wins; 127 (M = 256) is faster with
 * Bluestein, 131 (M = 512: M doubles at powers of two) again with the generic kernel, and every
 * prime from 257 on with Bluestein.
 */
const PASS_NS: Readonly<Record<number, number>> = { 2: 4, 3: 5, 4: 5, 5: 6, 8: 6 };
const ODD_NS_PER_P = 0.8;
const ODD_NS = 10;
const BLUESTEIN_NS = 4;

/** Modelled time (ns) of the mixed-radix transform of length n. */
export function mixedRadixCost(n: number): number {
  let perPoint = 0;
  for (const p of factorize(n)) perPoint += PASS_NS[p] ?? ODD_NS_PER_P * p + ODD_NS;
  return n * perPoint;
}

/** Modelled time (ns) of Bluestein for length n: two power-of-two FFTs of M plus products. */
export function bluesteinCost(n: number): number {
  const m = bluesteinLength(n);
  return 2 * mixedRadixCost(m) + BLUESTEIN_NS * m;
}

/** The cheaper algorithm for length n under the cost model above. */
export function chooseAlgorithm(n: number): FftAlgorithm {
  return bluesteinCost(n) < mixedRadixCost(n) ? 'bluestein' : 'mixed-radix';
}

const cores = new Map<string, FftCore>();

/** The shared (table-only) core of length n; Bluestein's inner cores are shared too. */
export function fftCore(n: number, algorithm: FftAlgorithm = chooseAlgorithm(n)): FftCore {
  const key = `${algorithm}:${n}`;
  let core = cores.get(key);
  if (!core) {
    core =
      algorithm === 'bluestein'
        ? new BluesteinCore(n, fftCore(bluesteinLength(n), 'mixed-radix'))
        : new MixedRadixCore(n);
    cores.set(key, core);
  }
  return core;
}

class ComplexPlan implements FftPlan {
  readonly n: number;
  readonly algorithm: FftAlgorithm;
  readonly factors: readonly number[];
  private readonly core: FftCore;
  /** Interleaved work buffers, 2n each. */
  private readonly a: Real;
  private readonly b: Real;

  constructor(n: number, algorithm: FftAlgorithm) {
    this.n = n;
    this.algorithm = algorithm;
    this.core = fftCore(n, algorithm);
    this.factors = this.core.factors;
    this.a = new Float64Array(2 * n);
    this.b = new Float64Array(2 * n);
  }

  forward(re: Real, im: Real, offset = 0, stride = 1): void {
    this.transform(false, re, im, re, im, offset, stride, offset, stride);
  }

  inverse(re: Real, im: Real, offset = 0, stride = 1): void {
    this.transform(true, re, im, re, im, offset, stride, offset, stride);
  }

  transform(
    inverse: boolean,
    xRe: Real,
    xIm: Real,
    yRe: Real,
    yIm: Real,
    xOffset = 0,
    xStride = 1,
    yOffset = 0,
    yStride = 1,
  ): void {
    const { n, a, b } = this;
    checkStrided('fft', 'xRe', xRe.length, n, xOffset, xStride);
    checkStrided('fft', 'xIm', xIm.length, n, xOffset, xStride);
    checkStrided('fft', 'yRe', yRe.length, n, yOffset, yStride);
    checkStrided('fft', 'yIm', yIm.length, n, yOffset, yStride);
    // The inverse is the forward transform of the swapped signal, swapped back and scaled.
    if (inverse) interleave(n, xIm, xRe, xOffset, xStride, a);
    else interleave(n, xRe, xIm, xOffset, xStride, a);
    const r = this.core.run(a, 0, a, b);
    if (inverse) deinterleave(n, r, 1 / n, yIm, yRe, yOffset, yStride);
    else deinterleave(n, r, 1, yRe, yIm, yOffset, yStride);
  }
}

/** v[2j] = re[offset + j·stride], v[2j + 1] = im[offset + j·stride], j < n. */
function interleave(n: number, re: Real, im: Real, offset: number, stride: number, v: Real): void {
  for (let j = 0, q = offset; j < n; j++, q += stride) {
    v[2 * j] = re[q]!;
    v[2 * j + 1] = im[q]!;
  }
}

/** re[offset + j·stride] = scale·v[2j], im[offset + j·stride] = scale·v[2j + 1], j < n. */
function deinterleave(
  n: number,
  v: Real,
  scale: number,
  re: Real,
  im: Real,
  offset: number,
  stride: number,
): void {
  if (scale === 1) {
    for (let j = 0, q = offset; j < n; j++, q += stride) {
      re[q] = v[2 * j]!;
      im[q] = v[2 * j + 1]!;
    }
  } else {
    for (let j = 0, q = offset; j < n; j++, q += stride) {
      re[q] = scale * v[2 * j]!;
      im[q] = scale * v[2 * j + 1]!;
    }
  }
}

const plans = new Map<string, FftPlan>();

/**
 * The plan for complex transforms of length n (cached: the same object for the same n).
 * `algorithm` forces mixed radix or Bluestein (for tests and benchmarks); by default the
 * cheaper one is chosen. O(n) tables and scratch, built in O(n) (plus O(M) for Bluestein).
 */
export function createFftPlan(n: number, algorithm?: FftAlgorithm): FftPlan {
  checkLength('createFftPlan', n);
  if (algorithm !== undefined && algorithm !== 'mixed-radix' && algorithm !== 'bluestein') {
    throw new RangeError(`createFftPlan: unknown algorithm '${String(algorithm)}'`);
  }
  const alg = algorithm ?? chooseAlgorithm(n);
  const key = `${alg}:${n}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = new ComplexPlan(n, alg);
    plans.set(key, plan);
  }
  return plan;
}

/** Drops the cached complex plans and cores (they are rebuilt on demand). */
export function clearComplexFftCache(): void {
  plans.clear();
  cores.clear();
}
