/**
 * Complex FFT against the O(n²) DFT (test/helpers/fft-naive.ts) for every length 1 … 64,
 * primes and composite sizes, with both algorithms; plus identities (inverse, Parseval,
 * linearity, shift), hand checkable transforms, strides, caching and error messages.
 */
import { describe, expect, it } from 'vitest';
import { createFftPlan, type FftAlgorithm } from '../../../src/core/fft';
import { bluesteinCost, chooseAlgorithm, mixedRadixCost } from '../../../src/core/fft/plan';
import { factorize } from '../../../src/core/fft/mixed-radix';
import {
  type Complex,
  copy,
  energy,
  maxAbsDiff,
  naiveDft,
  randomComplex,
  relRms,
  tolerance,
} from '../../helpers/fft-naive';

const SMALL = Array.from({ length: 64 }, (_, i) => i + 1);
const PRIMES = [97, 101, 127, 257, 1009, 2003];
const COMPOSITES = [169, 1000, 1600, 2000, 2187, 4096];

function fft(x: Complex, algorithm?: FftAlgorithm): Complex {
  const y = copy(x);
  createFftPlan(x.re.length, algorithm).forward(y.re, y.im);
  return y;
}

function ifft(x: Complex, algorithm?: FftAlgorithm): Complex {
  const y = copy(x);
  createFftPlan(x.re.length, algorithm).inverse(y.re, y.im);
  return y;
}

/** Checks X̂ against the naive DFT and inverse(X̂) against x; returns the relative RMS error. */
function checkLength(n: number, algorithm?: FftAlgorithm): number {
  const x = randomComplex(n, 1000 + n);
  const got = fft(x, algorithm);
  const want = naiveDft(x);
  expect(maxAbsDiff(got, want)).toBeLessThan(tolerance(n, x));
  const back = ifft(got, algorithm);
  // inverse(FFT(x)) = x: the same bound relative to ‖x‖₁ / n (the scale of one x_j).
  expect(maxAbsDiff(back, x)).toBeLessThan(tolerance(n, x) / n);
  return relRms(got, want);
}

describe('complex FFT against the naive DFT', () => {
  it('every length 1 … 64 (automatic choice of algorithm)', () => {
    let worst = 0;
    for (const n of SMALL) worst = Math.max(worst, checkLength(n));
    expect(worst).toBeLessThan(1e-15);
  });

  it.each(['mixed-radix', 'bluestein'] as const)('every length 1 … 64 with %s forced', (alg) => {
    for (const n of SMALL) checkLength(n, alg);
  });

  it.each(PRIMES)('prime n = %i, both algorithms', (n) => {
    expect(checkLength(n)).toBeLessThan(2e-15);
    checkLength(n, 'mixed-radix');
    checkLength(n, 'bluestein');
  });

  it.each(COMPOSITES)('composite n = %i', (n) => {
    expect(checkLength(n)).toBeLessThan(2e-15);
  });

  it('Bluestein on composite lengths agrees with mixed radix', () => {
    for (const n of [169, 1000, 2000]) {
      const x = randomComplex(n, n);
      const a = fft(x, 'mixed-radix');
      const b = fft(x, 'bluestein');
      expect(maxAbsDiff(a, b)).toBeLessThan(tolerance(n, x));
    }
  });
});

describe('identities', () => {
  it.each([1, 2, 12, 97, 360, 2003])('Parseval: Σ|x|² = (1/n)·Σ|X|² (n = %i)', (n) => {
    const x = randomComplex(n, 7 * n);
    const X = fft(x);
    expect(Math.abs(energy(X) / n - energy(x))).toBeLessThan(1e-14 * energy(x));
  });

  it.each([15, 64, 1009])('linearity: F(a·x + b·y) = a·F(x) + b·F(y) (n = %i)', (n) => {
    const x = randomComplex(n, 1);
    const y = randomComplex(n, 2);
    const [a, b] = [0.75, -2.5];
    const z = {
      re: x.re.map((v, j) => a * v + b * y.re[j]!),
      im: x.im.map((v, j) => a * v + b * y.im[j]!),
    };
    const X = fft(x);
    const Y = fft(y);
    const Z = fft(z);
    const sum = {
      re: X.re.map((v, k) => a * v + b * Y.re[k]!),
      im: X.im.map((v, k) => a * v + b * Y.im[k]!),
    };
    expect(maxAbsDiff(Z, sum)).toBeLessThan(tolerance(n, z) * 4);
  });

  it('shift theorem: x_{j−s} ↦ e^{−2πiks/n}·X_k (n = 210, s = 37)', () => {
    const [n, s] = [210, 37];
    const x = randomComplex(n, 3);
    const shifted = {
      re: x.re.map((_, j) => x.re[(j - s + n) % n]!),
      im: x.im.map((_, j) => x.im[(j - s + n) % n]!),
    };
    const X = fft(x);
    const expected = {
      re: X.re.map((v, k) => {
        const t = (-2 * Math.PI * ((k * s) % n)) / n;
        return v * Math.cos(t) - X.im[k]! * Math.sin(t);
      }),
      im: X.im.map((v, k) => {
        const t = (-2 * Math.PI * ((k * s) % n)) / n;
        return v * Math.cos(t) + X.re[k]! * Math.sin(t);
      }),
    };
    expect(maxAbsDiff(fft(shifted), expected)).toBeLessThan(tolerance(n, x));
  });
});

describe('hand-checkable transforms', () => {
  it('n = 4: [1, 2, 3, 4] ↦ [10, −2 + 2i, −2, −2 − 2i]', () => {
    const y = fft({ re: Float64Array.of(1, 2, 3, 4), im: new Float64Array(4) });
    expect(Array.from(y.re)).toEqual([10, -2, -2, -2]);
    expect(Array.from(y.im)).toEqual([0, 2, 0, -2]);
  });

  it.each([1, 7, 8, 97, 2003])(
    'an impulse has a flat spectrum, a constant an impulse (n = %i)',
    (n) => {
      const delta = { re: new Float64Array(n), im: new Float64Array(n) };
      delta.re[0] = 1;
      const D = fft(delta);
      const flat = { re: new Float64Array(n).fill(1), im: new Float64Array(n) };
      expect(maxAbsDiff(D, flat)).toBeLessThan(1e-14);
      const C = fft(flat);
      expect(C.re[0]).toBeCloseTo(n, 10);
      let rest = 0;
      for (let k = 1; k < n; k++) rest = Math.max(rest, Math.hypot(C.re[k]!, C.im[k]!));
      expect(rest).toBeLessThan(1e-11);
    },
  );

  it('a pure tone e^{2πi·5j/n} is n at bin 5 (n = 1000)', () => {
    const n = 1000;
    const x = {
      re: Float64Array.from({ length: n }, (_, j) => Math.cos((2 * Math.PI * ((5 * j) % n)) / n)),
      im: Float64Array.from({ length: n }, (_, j) => Math.sin((2 * Math.PI * ((5 * j) % n)) / n)),
    };
    const X = fft(x);
    for (let k = 0; k < n; k++) {
      expect(Math.abs(X.re[k]! - (k === 5 ? n : 0))).toBeLessThan(1e-10);
      expect(Math.abs(X.im[k]!)).toBeLessThan(1e-10);
    }
  });
});

describe('layout: offsets, strides, out of place', () => {
  it('transforms a strided vector in place and leaves the other elements alone', () => {
    const [n, offset, stride] = [30, 5, 3];
    const x = randomComplex(n, 11);
    const size = offset + (n - 1) * stride + 4;
    const re = new Float64Array(size).fill(7);
    const im = new Float64Array(size).fill(-7);
    for (let j = 0; j < n; j++) {
      re[offset + j * stride] = x.re[j]!;
      im[offset + j * stride] = x.im[j]!;
    }
    createFftPlan(n).forward(re, im, offset, stride);
    const want = naiveDft(x);
    const got = {
      re: Float64Array.from({ length: n }, (_, k) => re[offset + k * stride]!),
      im: Float64Array.from({ length: n }, (_, k) => im[offset + k * stride]!),
    };
    expect(maxAbsDiff(got, want)).toBeLessThan(tolerance(n, x));
    for (let q = 0; q < size; q++) {
      if (q >= offset && (q - offset) % stride === 0 && (q - offset) / stride < n) continue;
      expect([re[q], im[q]]).toEqual([7, -7]);
    }
  });

  it('negative strides read the vector backwards', () => {
    const n = 16;
    const x = randomComplex(n, 12);
    const rev = { re: x.re.slice().reverse(), im: x.im.slice().reverse() };
    const y = { re: new Float64Array(n), im: new Float64Array(n) };
    createFftPlan(n).transform(false, rev.re, rev.im, y.re, y.im, n - 1, -1, 0, 1);
    expect(maxAbsDiff(y, naiveDft(x))).toBeLessThan(tolerance(n, x));
  });

  it('out of place leaves the input untouched; inverse out of place returns it', () => {
    const n = 45;
    const x = randomComplex(n, 13);
    const saved = copy(x);
    const y = { re: new Float64Array(n), im: new Float64Array(n) };
    const z = { re: new Float64Array(n), im: new Float64Array(n) };
    const plan = createFftPlan(n);
    plan.transform(false, x.re, x.im, y.re, y.im);
    expect(x).toEqual(saved);
    plan.transform(true, y.re, y.im, z.re, z.im);
    expect(maxAbsDiff(z, x)).toBeLessThan(1e-15 * n);
  });
});

describe('plans', () => {
  it('are cached per length and algorithm', () => {
    expect(createFftPlan(360)).toBe(createFftPlan(360));
    expect(createFftPlan(360, 'bluestein')).not.toBe(createFftPlan(360));
    expect(createFftPlan(360, 'bluestein').algorithm).toBe('bluestein');
  });

  it('factor lengths into radices 8, 4, 2 then odd primes', () => {
    expect(factorize(1)).toEqual([]);
    expect(factorize(2000)).toEqual([4, 4, 5, 5, 5]);
    expect(factorize(4096)).toEqual([8, 8, 8, 8]);
    expect(factorize(1000)).toEqual([8, 5, 5, 5]);
    expect(factorize(2 * 3 * 3 * 7 * 101)).toEqual([2, 3, 3, 7, 101]);
    expect(factorize(2003)).toEqual([2003]);
  });

  it('use Bluestein for a large prime factor, mixed radix otherwise', () => {
    expect(chooseAlgorithm(2003)).toBe('bluestein');
    expect(chooseAlgorithm(2 * 1009)).toBe('bluestein');
    expect(chooseAlgorithm(2000)).toBe('mixed-radix');
    expect(chooseAlgorithm(169)).toBe('mixed-radix');
    expect(chooseAlgorithm(7)).toBe('mixed-radix');
    expect(bluesteinCost(2003)).toBeLessThan(mixedRadixCost(2003));
  });
});

describe('errors', () => {
  it.each([0, -3, 1.5, NaN, Infinity])('createFftPlan(%s) is a RangeError', (n) => {
    expect(() => createFftPlan(n)).toThrow(/createFftPlan: the length must be a positive integer/);
  });

  it('an unknown algorithm is refused', () => {
    expect(() => createFftPlan(8, 'radix-2' as FftAlgorithm)).toThrow(
      "createFftPlan: unknown algorithm 'radix-2'",
    );
  });

  it('an array too short for the strided vector is refused before anything is written', () => {
    const plan = createFftPlan(8);
    const re = new Float64Array(10).fill(1);
    const im = new Float64Array(10);
    expect(() => plan.forward(re, im, 0, 2)).toThrow(
      'fft: xRe[0 + j·2], j < 8, reaches index 14; xRe has 10 elements',
    );
    expect(() => plan.forward(re, im, 3)).toThrow(/reaches index 10/);
    expect(() => plan.forward(re, new Float64Array(4))).toThrow(/xIm has 4 elements/);
    expect(re.every((v) => v === 1)).toBe(true);
  });
});
