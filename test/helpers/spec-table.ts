/**
 * Parses the expectations of ../shared/specs/datasets.md (the measured facts of every shared
 * file) so that the loader is checked against the spec itself, not against numbers copied by
 * hand. Only the fields the tests need are read: n, k, per-view d, per-view counts of all-NaN
 * and all-zero samples, class-size range, and whether the file holds views at all.
 */
import { readFileSync } from 'node:fs';

export interface SpecRow {
  /** Path under ../shared/datasets. */
  file: string;
  /** Null for files without views (mask-only files, precomputed graphs). */
  views: { d: number; allNaN: number; allZero: number }[] | null;
  n: number | null;
  k: number | null;
  classSizeRange: [number, number] | null;
  /** The missingness column mentions a presence matrix `ind`: zero rows are missing samples. */
  zeroRowsMissing: boolean;
  missingness: string;
}

function cells(line: string): string[] {
  return line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

function parseViews(text: string): SpecRow['views'] {
  if (text === '—' || text === '-') return null;
  const m = /d = (.*)$/.exec(text);
  if (!m) throw new Error(`cannot parse views: ${text}`);
  return m[1]!.split(' / ').map((part) => {
    const dm = /^(\d+)(?:x(\d+))?/.exec(part.trim());
    if (!dm) throw new Error(`cannot parse view d: ${part}`);
    const d = Number(dm[2] ?? dm[1]);
    const nan = /\[(\d+) all-NaN samples\]/.exec(part);
    const zero = /\[(\d+) all-zero samples\]/.exec(part);
    return { d, allNaN: nan ? Number(nan[1]) : 0, allZero: zero ? Number(zero[1]) : 0 };
  });
}

export function readSpecTable(path: string): SpecRow[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const rows: SpecRow[] = [];
  for (const line of lines) {
    const c = cells(line);
    // Main table: | # | File | Size | Source | MAT version | Variables | Views | Labels | NaN | Missingness | Notes |
    if (c.length === 11 && /^\d+$/.test(c[0]!)) {
      const labels = c[7]!;
      const nk = /expected n=(\d+),k=(\d+)/.exec(labels);
      const sizes = /class sizes (\d+)-(\d+)/.exec(labels);
      rows.push({
        file: c[1]!,
        views: parseViews(c[6]!),
        n: nk ? Number(nk[1]) : null,
        k: nk ? Number(nk[2]) : null,
        classSizeRange: sizes ? [Number(sizes[1]), Number(sizes[2])] : null,
        zeroRowsMissing: /\bind\b \(n×/.test(c[9]!),
        missingness: c[9]!,
      });
    }
    // CGL-benchmark table: | File | MAT version | Variables | Views | Labels |
    if (c.length === 5 && c[0]!.startsWith('CGL-benchmark/')) {
      const n = /y: (\d+)x1/.exec(c[2]!);
      const ds = c[3]!
        .replace(/^n x d; /, '')
        .split(' / ')
        .map((p) => ({ d: Number(/^(\d+)/.exec(p.trim())![1]), allNaN: 0, allZero: 0 }));
      const of = /(\d+) classes of (\d+)/.exec(c[4]!);
      const range = /class sizes (\d+)-(\d+)/.exec(c[4]!);
      const yRange = /y 1\.\.(\d+)/.exec(c[4]!);
      rows.push({
        file: c[0]!,
        views: ds,
        n: n ? Number(n[1]) : null,
        k: of ? Number(of[1]) : yRange ? Number(yRange[1]) : null,
        classSizeRange: of
          ? [Number(of[2]), Number(of[2])]
          : range
            ? [Number(range[1]), Number(range[2])]
            : null,
        zeroRowsMissing: false,
        missingness: 'complete',
      });
    }
  }
  return rows;
}
