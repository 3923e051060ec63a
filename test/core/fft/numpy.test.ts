/**
 * Reference test against numpy's pocketfft: np.fft.fft and np.fft.rfft of seeded signals,
 * made by test/fixtures/fft/make.py (lengths 1, 2, 5, 12, 97 (prime), 360, 2000).
 * Tolerance: ‖X̂ − X_numpy‖∞ ≤ 1e-14·max(1, log2 n)·‖x‖₁ and relative RMS error < 2e-15 (the
 * fixture holds 16 significant digits).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFftPlan, createRealFftPlan } from '../../../src/core/fft';
import { REPO } from '../../helpers/paths';
import { type Complex, maxAbsDiff, relRms, tolerance } from '../../helpers/fft-naive';

interface Case {
  n: number;
  re: number[];
  im: number[];
  fft_re: number[];
  fft_im: number[];
  rfft_re: number[];
  rfft_im: number[];
}

const fixture = JSON.parse(
  readFileSync(join(REPO, 'test/fixtures/fft/numpy-fft.json'), 'utf8'),
) as { numpy: string; cases: Case[] };

const f64 = (a: number[]): Float64Array => Float64Array.from(a);

describe(`against numpy ${fixture.numpy}`, () => {
  it.each(fixture.cases.map((c) => [c.n, c] as const))('fft and ifft, n = %i', (n, c) => {
    const x: Complex = { re: f64(c.re), im: f64(c.im) };
    const y: Complex = { re: f64(c.re), im: f64(c.im) };
    const plan = createFftPlan(n);
    plan.forward(y.re, y.im);
    const want = { re: f64(c.fft_re), im: f64(c.fft_im) };
    expect(maxAbsDiff(y, want)).toBeLessThan(tolerance(n, x));
    expect(relRms(y, want)).toBeLessThan(2e-15);
    plan.inverse(y.re, y.im);
    expect(maxAbsDiff(y, x)).toBeLessThan(tolerance(n, x) / n);
  });

  it.each(fixture.cases.map((c) => [c.n, c] as const))('rfft and irfft, n = %i', (n, c) => {
    const x = f64(c.re);
    const plan = createRealFftPlan(n);
    const y: Complex = { re: new Float64Array(plan.bins), im: new Float64Array(plan.bins) };
    plan.forward(x, y.re, y.im);
    const want = { re: f64(c.rfft_re), im: f64(c.rfft_im) };
    const asComplex = { re: x, im: new Float64Array(n) };
    expect(maxAbsDiff(y, want)).toBeLessThan(tolerance(n, asComplex));
    expect(relRms(y, want)).toBeLessThan(2e-15);
    const back = new Float64Array(n);
    plan.inverse(y.re, y.im, back);
    for (let j = 0; j < n; j++) expect(Math.abs(back[j]! - x[j]!)).toBeLessThan(1e-15);
  });
});
