/**
 * APMC's bookkeeping of who is present where (spec baselines-incomplete.md §4): samples grouped
 * by their presence pattern, the view pairs, and the averaging counts of the total similarity.
 *
 * Groups. A sample's pattern is the set of views it is present in, written as a V-bit number
 * with view 1 the most significant bit. Groups are ordered by the number of views (most first),
 * then by that number (largest first): for 3 views 111, 110, 101, 011, 100, 010, 001, the
 * reference's `idx(:, 1:7)` order (all three; 1&2; 1&3; 2&3; 1 only; 2 only; 3 only); for 2
 * views 11, 10, 01 (`TwoViewDataAdjust`). Inside a group samples keep increasing index. This
 * order decides which anchor wins a distance tie, so it is the reference's for V = 2 and 3.
 *
 * Pairs. Every pair of views (a, b), a < b, in the order (1,2), (1,3), …, (2,3), …. A sample
 * belongs to pair (a, b) when it is present in a or in b. In pair (a, b) the anchors are the
 * samples present in both; view a's rows are [anchors; present in a but not b], view b's
 * [anchors; present in b but not a], each part in group order.
 *
 * Averaging. The total similarity of samples i and j is the mean of the pair similarities of
 * the pairs that contain both: t(g, h) = #{pairs containing groups g and h} (for 3 views: 3
 * among the groups seen in two or three views, 2 or 1 with a single-view group), the reference's
 * weight matrix `t`. Any two samples share a pair, so t ≥ 1.
 */
import type { SolverInput } from '../types';

/** Presence groups and view pairs of one dataset. */
export interface Groups {
  readonly n: number;
  readonly V: number;
  /** (G,) the groups' patterns, in group order. */
  readonly patterns: readonly number[];
  /** (n,) each sample's group (0..G−1). */
  readonly group: Int32Array;
  /** (n,) the samples in group order (group by group, increasing index inside a group). */
  readonly order: Int32Array;
  /** (G + 1,) group g is order[start[g] .. start[g + 1]). */
  readonly start: Int32Array;
  /** The view pairs [a, b] (0-based, a < b), in the order above. */
  readonly pairs: readonly (readonly [number, number])[];
  /** (G·G) 1 / t(g, h), row-major. */
  readonly invCount: Float64Array;
}

/** The bit of view v (0-based) in a pattern: view 1 is the most significant. */
export function viewBit(V: number, v: number): number {
  return 2 ** (V - 1 - v);
}

/** Number of views in a pattern. */
function popcount(pattern: number, V: number): number {
  let c = 0;
  for (let v = 0; v < V; v++) if (Math.floor(pattern / viewBit(V, v)) % 2 === 1) c++;
  return c;
}

/** Whether the pattern has view v. */
export function hasView(pattern: number, V: number, v: number): boolean {
  return Math.floor(pattern / viewBit(V, v)) % 2 === 1;
}

/**
 * Groups and pairs of the input. Throws `Error` naming the first sample present in no view
 * (APMC has no similarity for it: the caller checks first and words the refusal).
 */
export function presenceGroups(input: SolverInput): Groups {
  const { n } = input;
  const V = input.views.length;
  const pattern = new Float64Array(n);
  input.views.forEach((view, v) => {
    const bit = viewBit(V, v);
    for (const i of view.present) pattern[i]! += bit;
  });
  const distinct = [...new Set(pattern)].sort((x, y) => {
    const c = popcount(y, V) - popcount(x, V);
    return c !== 0 ? c : y - x;
  });
  const rank = new Map(distinct.map((p, g) => [p, g]));
  const G = distinct.length;
  const group = new Int32Array(n);
  const count = new Int32Array(G + 1);
  for (let i = 0; i < n; i++) {
    const g = rank.get(pattern[i]!)!;
    group[i] = g;
    count[g + 1]!++;
  }
  const start = new Int32Array(G + 1);
  for (let g = 0; g < G; g++) start[g + 1] = start[g]! + count[g + 1]!;
  const fill = start.slice(0, G);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[fill[group[i]!]!++] = i;
  const pairs: [number, number][] = [];
  for (let a = 0; a < V; a++) for (let b = a + 1; b < V; b++) pairs.push([a, b]);
  const inPair = (p: number, [a, b]: readonly [number, number]): boolean =>
    hasView(p, V, a) || hasView(p, V, b);
  const invCount = new Float64Array(G * G);
  for (let g = 0; g < G; g++) {
    for (let h = 0; h < G; h++) {
      let t = 0;
      for (const pair of pairs) if (inPair(distinct[g]!, pair) && inPair(distinct[h]!, pair)) t++;
      invCount[g * G + h] = t > 0 ? 1 / t : 0;
    }
  }
  return { n, V, patterns: distinct, group, order, start, pairs, invCount };
}

/** The samples of the groups whose pattern satisfies `keep`, in group order. */
export function samplesWhere(groups: Groups, keep: (pattern: number) => boolean): Int32Array {
  const out: number[] = [];
  groups.patterns.forEach((p, g) => {
    if (!keep(p)) return;
    for (let s = groups.start[g]!; s < groups.start[g + 1]!; s++) out.push(groups.order[s]!);
  });
  return Int32Array.from(out);
}
