/** Number and time formatting shared by the views. */

export function fmtSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return '–';
  if (s < 1) return `${(s * 1000).toFixed(0)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}

export function fmtMetric(mean: number, std?: number): string {
  if (!Number.isFinite(mean)) return '–';
  return std === undefined ? mean.toFixed(4) : `${mean.toFixed(4)} ± ${std.toFixed(4)}`;
}

export function fmtBytes(b: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) {
    b /= 1024;
    i++;
  }
  return `${b.toFixed(b < 10 && i > 0 ? 1 : 0)} ${units[i]}`;
}

/** One grouping for every count the views show (50,000), so screens agree with each other. */
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A whole count with en-US thousands separators: 50000 → "50,000". */
export function fmtCount(n: number): string {
  return Number.isFinite(n) ? COUNT.format(n) : '–';
}

/**
 * A count with its noun, singular for exactly one: (1, 'view') → "1 view", (2000, 'sample')
 * → "2,000 samples". `many` for nouns whose plural is not noun + "s".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtCount(n)} ${n === 1 ? one : many}`;
}
