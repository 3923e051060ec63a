/**
 * The bandwidth rules against numpy (test/fixtures/kernels/make.py): σ and h to 1e-14
 * relative (the mean and median are of the same distances up to the rounding of the
 * expansion); a hand-checked toy for the median of an even count and the error messages.
 */
import { describe, expect, it } from 'vitest';
import { resolveBandwidth, type Bandwidth } from '../../../src/core/kernels/bandwidth';
import { jsonMat, readFixture, type JsonMat } from '../../helpers/json-fixture';

interface GaussCase {
  name: string;
  bandwidth: Bandwidth;
  cross: boolean;
  sigma: number;
  h: number;
}
const ref = readFixture<{ Dxx: JsonMat; Dxy: JsonMat; gaussian: GaussCase[] }>(
  'kernels',
  'kernels.json',
);

describe('kernels/bandwidth', () => {
  it.each(ref.gaussian.map((c) => [c.name, c] as const))('%s rule as numpy', (_, c) => {
    const D = jsonMat(c.cross ? ref.Dxy : ref.Dxx);
    const { sigma, h } = resolveBandwidth(D, c.bandwidth);
    expect(Math.abs(sigma - c.sigma)).toBeLessThanOrEqual(1e-14 * c.sigma);
    expect(Math.abs(h - c.h)).toBeLessThanOrEqual(1e-14 * c.h);
  });

  it('takes the median over every entry, the zero diagonal included', () => {
    // √D = [0 3; 3 0] → sorted 0 0 3 3, median (0 + 3)/2.
    const D = { rows: 2, cols: 2, data: Float64Array.from([0, 9, 9, 0]) };
    expect(resolveBandwidth(D, { rule: 'median' }).sigma).toBe(1.5);
    expect(resolveBandwidth(D, { rule: 'mean', scale: 2 }).sigma).toBe(3);
    expect(resolveBandwidth(D, { rule: 'meanSquared', scale: 4 }).h).toBe(18);
    expect(resolveBandwidth(D, { rule: 'fixed', sigma: 2 }).h).toBe(8);
  });

  it('refuses a zero or non-finite width with the rule named', () => {
    const Z = { rows: 2, cols: 2, data: new Float64Array(4) };
    expect(() => resolveBandwidth(Z, { rule: 'median' })).toThrow(/σ = 0 by the 'median' rule/);
    expect(() => resolveBandwidth(Z, { rule: 'meanSquared' })).toThrow(/h = 0/);
    expect(() => resolveBandwidth(Z, { rule: 'fixed', sigma: -1 })).toThrow(/'fixed'/);
    expect(() => resolveBandwidth(Z, { rule: 'mean', scale: 0 })).toThrow(/scale = 0/);
  });
});
