/** The "Views present" table: the most frequent patterns and what the rest leave out. */
import { describe, expect, it } from 'vitest';
import { presenceBits, type Presence } from '../../../../src/shared/contract';
import { patternCounts, patternTable } from '../../../../src/renderer/src/lib/presence';

/** n samples over V views where sample i holds the views of pattern (i mod 2^V − 1) + 1. */
function allPatterns(V: number, n: number): Presence {
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

describe('patternTable', () => {
  it('lists the 8 most frequent of 31 patterns and the samples they cover', () => {
    const p = allPatterns(5, 100);
    const counts = patternCounts(p);
    expect(counts).toHaveLength(31);
    const t = patternTable(counts, 8);
    expect(t.rows).toHaveLength(8);
    expect(t.total).toBe(31);
    // 100 = 3·31 + 7: the first seven patterns have 4 samples, the others 3.
    expect(t.rows.map((r) => r.count)).toEqual([4, 4, 4, 4, 4, 4, 4, 3]);
    expect(t.covered).toBe(31);
  });
  it('lists every pattern when asked, covering every sample', () => {
    const t = patternTable(patternCounts(allPatterns(5, 100)), null);
    expect(t.rows).toHaveLength(31);
    expect(t.covered).toBe(100);
  });
});
