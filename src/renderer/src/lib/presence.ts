/** Sample orders for the presence chart. */
import { isPresent, type Presence } from '../../../shared/contract';

/** Each sample's presence pattern as a bit mask (bit v set when view v holds it). */
export function patterns(p: Presence): Uint32Array {
  const mask = new Uint32Array(p.n);
  p.bits.forEach((bits, v) => {
    for (let i = 0; i < p.n; i++) if (isPresent(bits, i)) mask[i]! |= 1 << (v % 32);
  });
  return mask;
}

/**
 * Samples in file order, or grouped by pattern: the most complete patterns first (more views
 * present), equal patterns together, file order within a group.
 */
export function sampleOrder(p: Presence, byPattern: boolean): number[] {
  const order = Array.from({ length: p.n }, (_, i) => i);
  if (!byPattern) return order;
  const mask = patterns(p);
  const count = (m: number): number => {
    let c = 0;
    for (let x = m; x; x &= x - 1) c++;
    return c;
  };
  return order.sort((a, b) => count(mask[b]!) - count(mask[a]!) || mask[b]! - mask[a]! || a - b);
}

/** Distinct patterns and how many samples have each, most frequent first. */
export function patternCounts(p: Presence): { views: number[]; count: number }[] {
  const mask = patterns(p);
  const counts = new Map<number, number>();
  for (const m of mask) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .map(([m, count]) => ({
      views: p.views.map((_, v) => v).filter((v) => (m >> v) & 1),
      count,
    }));
}

/** The patterns the "Views present" table lists, and what it leaves out. */
export interface PatternTable {
  readonly rows: readonly { views: number[]; count: number }[];
  /** Distinct patterns in the dataset. */
  readonly total: number;
  /** Samples the listed rows cover. */
  readonly covered: number;
}

/** The `limit` most frequent patterns (all when `limit` is null), with the totals to state. */
export function patternTable(
  counts: readonly { views: number[]; count: number }[],
  limit: number | null,
): PatternTable {
  const rows = limit === null ? counts : counts.slice(0, limit);
  return { rows, total: counts.length, covered: rows.reduce((s, r) => s + r.count, 0) };
}
