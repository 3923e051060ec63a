/** The presence panel in a DOM (happy-dom): the patterns table says what it leaves out. */
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import PresencePanel from '../../../../src/renderer/src/components/PresencePanel.svelte';
import { presenceBits, type Presence } from '../../../../src/shared/contract';

// happy-dom has no 2-D canvas; the chart itself is tested in the browser (test/e2e).
vi.mock('../../../../src/renderer/src/charts/charts', () => ({
  presenceChart: () => () => undefined,
}));

/** 50,000 samples over 5 views, each of the 31 non-empty patterns (pattern i mod 31 + 1). */
function presence(V: number, n: number): Presence {
  const present: number[][] = Array.from({ length: V }, () => []);
  for (let i = 0; i < n; i++) {
    const m = (i % (2 ** V - 1)) + 1;
    for (let v = 0; v < V; v++) if ((m >> v) & 1) present[v]!.push(i);
  }
  return {
    n,
    views: present.map((_, v) => `v${v + 1}`),
    bits: present.map((p) => presenceBits(n, p)),
  };
}

const rows = (): number => screen.queryAllByTestId('pattern-row').length;

describe('PresencePanel', () => {
  it('says 8 of 31 patterns are shown, covering how many samples, and shows all on demand', async () => {
    render(PresencePanel, { presence: presence(5, 50000), dark: false });
    expect(rows()).toBe(8);
    // 50,000 = 1,612·31 + 28: every one of the 8 most frequent has 1,613 samples.
    expect(screen.getByTestId('patterns-shown').textContent).toContain(
      '8 of 31 patterns shown (the 8 most frequent, covering 12,904 samples of 50,000)',
    );
    expect(screen.getByText(/50,000 samples, merged into pixel columns/)).toBeTruthy();
    await fireEvent.click(screen.getByTestId('patterns-toggle'));
    flushSync();
    expect(rows()).toBe(31);
    expect(screen.getByTestId('patterns-shown').textContent).toContain('All 31 patterns shown');
    await fireEvent.click(screen.getByTestId('patterns-toggle'));
    flushSync();
    expect(rows()).toBe(8);
  });

  it('says nothing more when every pattern fits', () => {
    render(PresencePanel, { presence: presence(2, 10), dark: false });
    expect(rows()).toBe(3);
    expect(screen.queryByTestId('patterns-shown')).toBeNull();
    expect(screen.getByText(/10 samples\)/)).toBeTruthy();
  });
});
