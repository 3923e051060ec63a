/** The theme choice: what a stored value means and whether a choice shows dark. */
import { describe, expect, it } from 'vitest';
import { parseChoice, resolveDark } from '../../../../src/renderer/src/lib/theme';

describe('theme', () => {
  it('reads back light and dark; anything else is the system scheme', () => {
    expect(parseChoice('light')).toBe('light');
    expect(parseChoice('dark')).toBe('dark');
    for (const raw of [null, '', 'system', 'Dark', '{"x":1}'])
      expect(parseChoice(raw)).toBe('system');
  });

  it('shows dark for dark, light for light, and the system scheme for system', () => {
    expect(resolveDark('dark', false)).toBe(true);
    expect(resolveDark('light', true)).toBe(false);
    expect(resolveDark('system', true)).toBe(true);
    expect(resolveDark('system', false)).toBe(false);
  });
});
