/**
 * Real FFT (⌊n/2⌋ + 1 bins) against the naive DFT for every length 1 … 64, primes and
 * composites; irfft(rfft(x)) = x; Hermitian details of the inverse; strides.
 */
import { describe, expect, it } from 'vitest';
import { createRealFftPlan } from '../../../src/core/fft';
import {
  type Complex,
  maxAbsDiff,
  naiveDft,
  randomReal,
  relRms,
  tolerance,
} from '../../helpers/fft-naive';

const LENGTHS = [
  ...Array.from({ length: 64 }, (_, i) => i + 1),
  ...[97, 101, 127, 257, 1009, 2003],
  ...[169, 1000, 1600, 2000, 2187, 4096],
];

function rfft(x: Float64Array): Complex {
  const plan = createRealFftPlan(x.length);
  const y = { re: new Float64Array(plan.bins), im: new Float64Array(plan.bins) };
  plan.forward(x, y.re, y.im);
  return y;
}

function irfft(y: Complex, n: number): Float64Array {
  const x = new Float64Array(n);
  createRealFftPlan(n).inverse(y.re, y.im, x);
  return x;
}

const asComplex = (x: Float64Array): Complex => ({ re: x, im: new Float64Array(x.length) });

describe('real FFT against the naive DFT', () => {
  it('lengths 1 … 64, the primes and the composites', () => {
    let worst = 0;
    for (const n of LENGTHS) {
      const x = randomReal(n, 500 + n);
      const got = rfft(x);
      const bins = (n >> 1) + 1;
      expect(got.re.length).toBe(bins);
      const want = naiveDft(asComplex(x));
      expect(maxAbsDiff(got, want, bins), `n = ${n}`).toBeLessThan(tolerance(n, asComplex(x)));
      expect(got.im[0]).toBe(0);
      if (n % 2 === 0) expect(got.im[n / 2]).toBe(0);
      worst = Math.max(worst, relRms(got, want, bins));
      // irfft(rfft(x)) = x
      const back = irfft(got, n);
      expect(maxAbsDiff(asComplex(back), asComplex(x)), `n = ${n}`).toBeLessThan(
        tolerance(n, asComplex(x)) / n,
      );
    }
    expect(worst).toBeLessThan(2e-15);
  });
});

describe('inverse real FFT', () => {
  it.each([12, 13, 2000, 2003])(
    'of a Hermitian spectrum equals the complex inverse (n = %i)',
    (n) => {
      // Random bins 0 … ⌊n/2⌋, completed by X_{n−k} = conj(X_k); bins 0 and n/2 real.
      const x = randomReal(n, n);
      const spectrum = naiveDft(asComplex(x));
      const bins = (n >> 1) + 1;
      const got = irfft({ re: spectrum.re.slice(0, bins), im: spectrum.im.slice(0, bins) }, n);
      const back = naiveDft(spectrum, 1);
      for (let j = 0; j < n; j++) expect(Math.abs(got[j]! - back.re[j]! / n)).toBeLessThan(1e-13);
    },
  );

  it.each([10, 11])('ignores the imaginary parts of X_0 and X_{n/2}, as numpy (n = %i)', (n) => {
    const x = randomReal(n, 99);
    const y = rfft(x);
    const bins = y.re.length;
    y.im[0] = 5;
    if (n % 2 === 0) y.im[bins - 1] = -3;
    const back = irfft(y, n);
    for (let j = 0; j < n; j++) expect(back[j]).toBeCloseTo(x[j]!, 14);
  });

  it('does not modify its input spectrum', () => {
    const y = rfft(randomReal(20, 4));
    const saved = { re: y.re.slice(), im: y.im.slice() };
    irfft(y, 20);
    expect(y).toEqual(saved);
  });
});

describe('layout', () => {
  it.each([16, 15])('strided real input and strided spectrum (n = %i)', (n) => {
    const plan = createRealFftPlan(n);
    const x = randomReal(n, 21);
    const [xo, xs, yo, ys] = [3, 4, 1, 3];
    const big = new Float64Array(xo + (n - 1) * xs + 1).fill(9);
    for (let j = 0; j < n; j++) big[xo + j * xs] = x[j]!;
    const re = new Float64Array(yo + (plan.bins - 1) * ys + 1);
    const im = new Float64Array(re.length);
    plan.forward(big, re, im, xo, xs, yo, ys);
    const want = rfft(x);
    for (let k = 0; k < plan.bins; k++) {
      expect(re[yo + k * ys]).toBeCloseTo(want.re[k]!, 13);
      expect(im[yo + k * ys]).toBeCloseTo(want.im[k]!, 13);
    }
    const out = new Float64Array(big.length).fill(9);
    plan.inverse(re, im, out, yo, ys, xo, xs);
    for (let q = 0; q < big.length; q++) expect(out[q]).toBeCloseTo(big[q]!, 13);
  });

  it('plans are cached per length and report their bins', () => {
    expect(createRealFftPlan(2000)).toBe(createRealFftPlan(2000));
    expect(createRealFftPlan(2000).bins).toBe(1001);
    expect(createRealFftPlan(2003).bins).toBe(1002);
    expect(createRealFftPlan(1).bins).toBe(1);
  });

  it('errors name the array and the indices', () => {
    expect(() => createRealFftPlan(0)).toThrow(/createRealFftPlan: the length must be a positive/);
    const plan = createRealFftPlan(8);
    expect(() =>
      plan.forward(new Float64Array(8), new Float64Array(4), new Float64Array(5)),
    ).toThrow('re[0 + j·1], j < 5, reaches index 4; re has 4 elements');
    expect(() =>
      plan.inverse(new Float64Array(5), new Float64Array(5), new Float64Array(7)),
    ).toThrow(/irfft: x\[0 \+ j·1\], j < 8, reaches index 7; x has 7 elements/);
  });
});
