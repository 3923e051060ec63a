/**
 * Comparing methods over datasets (Demšar, "Statistical comparisons of classifiers over multiple
 * data sets", JMLR 7, 2006): average ranks, the Friedman test with the Iman–Davenport F, the
 * Nemenyi critical difference, and pairwise Wilcoxon signed-rank tests.
 *
 * Scores are "higher is better" (every study metric is); rank 1 is the best, tied scores share
 * the average of their ranks. `scores[d][m]`: (n_datasets, n_methods).
 */
import { chiSquareSf, fSf, normalSf, rangeQuantile } from './distributions';

/** Mean and sample standard deviation (n − 1 in the denominator; 0 for one value) of `xs`. */
export function meanStd(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  if (xs.length < 2) return [mean, 0];
  const ss = xs.reduce((s, x) => s + (x - mean) ** 2, 0);
  return [mean, Math.sqrt(ss / (xs.length - 1))];
}

/** Ranks of `values` (1 = largest), ties given the average of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let t = i; t <= j; t++) ranks[order[t]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/** Sizes of the groups of equal values (only groups of two or more matter to tie corrections). */
function tieSizes(values: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()];
}

function checkMatrix(scores: readonly (readonly number[])[], minMethods: number): number {
  const k = scores[0]?.length ?? 0;
  if (scores.length < 2 || k < minMethods) {
    throw new Error(
      `scores: expected at least 2 datasets × ${minMethods} methods, got ${scores.length} × ${k}`,
    );
  }
  scores.forEach((row, d) => {
    if (row.length !== k) throw new Error(`scores[${d}]: expected ${k} methods, got ${row.length}`);
    row.forEach((v, m) => {
      if (!Number.isFinite(v)) throw new Error(`scores[${d}][${m}]: expected a finite number`);
    });
  });
  return k;
}

export interface FriedmanResult {
  /** Methods (k) and datasets (N). */
  readonly k: number;
  readonly n: number;
  /** Average rank of each method over the datasets. */
  readonly avgRanks: readonly number[];
  /** Friedman's χ²_F (with the tie correction), df = k − 1, and its p-value. */
  readonly chiSquare: number;
  readonly pChiSquare: number;
  /** Iman–Davenport F_F = (N − 1)χ² / (N(k − 1) − χ²), df (k − 1, (k − 1)(N − 1)), and its p-value. */
  readonly f: number;
  readonly df1: number;
  readonly df2: number;
  readonly pF: number;
}

/**
 * The Friedman test of `scores` (n_datasets, n_methods): χ²_F = 12N/(k(k+1)) [Σ_j R_j² −
 * k(k+1)²/4] (Demšar eq. 3), divided by 1 − Σ(t³ − t)/(N k (k² − 1)) over the tie groups t of
 * each dataset (as scipy.stats.friedmanchisquare does), then Iman–Davenport's F (Demšar eq. 4).
 */
export function friedman(scores: readonly (readonly number[])[]): FriedmanResult {
  const k = checkMatrix(scores, 3);
  const n = scores.length;
  const sums = new Array<number>(k).fill(0);
  let ties = 0;
  for (const row of scores) {
    averageRanks(row).forEach((r, m) => (sums[m]! += r));
    for (const t of tieSizes(row)) ties += t ** 3 - t;
  }
  const avgRanks = sums.map((s) => s / n);
  const ssq = avgRanks.reduce((s, r) => s + r * r, 0);
  const c = 1 - ties / (n * k * (k * k - 1));
  const chiSquare = c > 0 ? (((12 * n) / (k * (k + 1))) * (ssq - (k * (k + 1) ** 2) / 4)) / c : 0;
  const df1 = k - 1;
  const df2 = (k - 1) * (n - 1);
  const denom = n * (k - 1) - chiSquare;
  const f = denom > 0 ? ((n - 1) * chiSquare) / denom : Infinity;
  return {
    k,
    n,
    avgRanks,
    chiSquare,
    pChiSquare: chiSquareSf(chiSquare, k - 1),
    f,
    df1,
    df2,
    pF: Number.isFinite(f) ? fSf(f, df1, df2) : 0,
  };
}

/** The significance levels with a Nemenyi q table. */
export type Alpha = 0.05 | 0.1;

const Q_CACHE = new Map<string, number>();

/**
 * Nemenyi's q_α for k methods (Demšar Table 5a): the (1 − α) quantile of the range of k standard
 * normals divided by √2. Computed (and remembered) for 2 ≤ k ≤ 50.
 */
export function nemenyiQ(k: number, alpha: Alpha): number {
  if (!Number.isInteger(k) || k < 2 || k > 50) {
    throw new Error(`k: expected an integer number of methods in 2…50, got ${k}`);
  }
  if (alpha !== 0.05 && alpha !== 0.1) throw new Error(`alpha: expected 0.05 or 0.1, got ${alpha}`);
  const key = `${k}:${alpha}`;
  let q = Q_CACHE.get(key);
  if (q === undefined) {
    q = rangeQuantile(1 - alpha, k) / Math.SQRT2;
    Q_CACHE.set(key, q);
  }
  return q;
}

/** The Nemenyi critical difference CD = q_α √(k(k + 1)/(6N)) (Demšar eq. 5). */
export const nemenyiCd = (k: number, n: number, alpha: Alpha): number =>
  nemenyiQ(k, alpha) * Math.sqrt((k * (k + 1)) / (6 * n));

/**
 * The maximal runs of methods, sorted by average rank, whose ranks lie within `cd` of each other
 * (the bars of a critical-difference diagram): each an array of method indices, best first.
 * Runs contained in an earlier one, and single methods, are left out.
 */
export function cdCliques(avgRanks: readonly number[], cd: number): number[][] {
  const order = avgRanks.map((r, i) => [r, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cliques: number[][] = [];
  let lastEnd = -1;
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] - order[i]![0] <= cd + 1e-12) j++;
    if (j > i && j > lastEnd) {
      cliques.push(order.slice(i, j + 1).map(([, m]) => m));
      lastEnd = j;
    }
  }
  return cliques;
}

export interface WilcoxonResult {
  /** Pairs with a non-zero difference (zeros are dropped, scipy's zero_method 'wilcox'). */
  readonly n: number;
  /** Sums of the ranks of |d| over positive and negative differences; statistic = min of both. */
  readonly rPlus: number;
  readonly rMinus: number;
  readonly statistic: number;
  /** Two-sided p-value. */
  readonly p: number;
  /** 'exact': the null distribution of R+ by enumeration; 'normal': the normal approximation. */
  readonly method: 'exact' | 'normal';
  /** The normal approximation's z (method 'normal'), else null. */
  readonly z: number | null;
}

/**
 * Number of sign assignments giving each value of 2·R+ (index = doubled rank sum), for the
 * doubled ranks `r2` (integers: average ranks are multiples of 1/2).
 */
function signedRankCounts(r2: readonly number[]): number[] {
  const total = r2.reduce((s, r) => s + r, 0);
  let counts = new Array<number>(total + 1).fill(0);
  counts[0] = 1;
  for (const r of r2) {
    const next = counts.slice();
    for (let s = 0; s + r <= total; s++) if (counts[s]) next[s + r]! += counts[s]!;
    counts = next;
  }
  return counts;
}

/**
 * The two-sided Wilcoxon signed-rank test of the paired samples x, y (d = x − y; zeros dropped).
 * Like scipy.stats.wilcoxon's method 'auto': with at most 50 pairs and neither ties nor zeros,
 * the exact null distribution; with ties or zeros and at most 13 pairs, the exact distribution of
 * R+ over all sign flips of the average ranks (scipy's permutation test); otherwise the normal
 * approximation z = (R+ − n(n+1)/4) / σ, σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48, no continuity
 * correction. Exact p = 2 min(P(R+ ≤ r), P(R+ ≥ r)), capped at 1.
 */
export function wilcoxon(x: readonly number[], y: readonly number[]): WilcoxonResult {
  if (x.length !== y.length) {
    throw new Error(`wilcoxon: x and y must pair up, got ${x.length} and ${y.length} values`);
  }
  const all = x.map((v, i) => v - y[i]!);
  if (all.some((v) => !Number.isFinite(v))) throw new Error('wilcoxon: expected finite values');
  const d = all.filter((v) => v !== 0);
  const n = d.length;
  const zeros = all.length - n;
  // Ranks of |d| from the smallest: averageRanks ranks from the largest, so negate.
  const ranks = averageRanks(d.map((v) => -Math.abs(v)));
  let rPlus = 0;
  let rMinus = 0;
  d.forEach((v, i) => (v > 0 ? (rPlus += ranks[i]!) : (rMinus += ranks[i]!)));
  const statistic = Math.min(rPlus, rMinus);
  const tieTerm = tieSizes(d.map(Math.abs)).reduce((s, t) => s + t ** 3 - t, 0);
  const hasTies = tieTerm > 0;
  if (n === 0) return { n, rPlus, rMinus, statistic, p: 1, method: 'exact', z: null };
  const exact = all.length <= 50 && (!(hasTies || zeros > 0) || all.length <= 13);
  if (exact) {
    const counts = signedRankCounts(ranks.map((r) => Math.round(2 * r)));
    const total = 2 ** n;
    const r2 = Math.round(2 * rPlus);
    let le = 0;
    let ge = 0;
    counts.forEach((c, s) => {
      if (s <= r2) le += c;
      if (s >= r2) ge += c;
    });
    const p = Math.min(1, (2 * Math.min(le, ge)) / total);
    return { n, rPlus, rMinus, statistic, p, method: 'exact', z: null };
  }
  const mean = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  const z = sd > 0 ? (rPlus - mean) / sd : 0;
  return {
    n,
    rPlus,
    rMinus,
    statistic,
    p: Math.min(1, 2 * normalSf(Math.abs(z))),
    method: 'normal',
    z,
  };
}
