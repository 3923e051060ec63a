/** The one number formatter of the views: en-US grouping, and nouns that agree with the count. */
import { describe, expect, it } from 'vitest';
import { fmtCount, plural } from '../../../../src/renderer/src/lib/format';

describe('fmtCount', () => {
  it('groups thousands the en-US way', () => {
    expect(fmtCount(50000)).toBe('50,000');
    expect(fmtCount(1234567)).toBe('1,234,567');
    expect(fmtCount(999)).toBe('999');
    expect(fmtCount(0)).toBe('0');
  });
  it('says – for a count that is not a number', () => {
    expect(fmtCount(Number.NaN)).toBe('–');
  });
});

describe('plural', () => {
  it('uses the singular for exactly one', () => {
    expect(plural(1, 'view')).toBe('1 view');
    expect(plural(2, 'view')).toBe('2 views');
    expect(plural(0, 'view')).toBe('0 views');
  });
  it('groups the count and takes an irregular plural', () => {
    expect(plural(50000, 'sample')).toBe('50,000 samples');
    expect(plural(1, 'class', 'classes')).toBe('1 class');
    expect(plural(10, 'class', 'classes')).toBe('10 classes');
  });
});
