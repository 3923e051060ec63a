/**
 * The study's charts as self-contained SVG (no scripts, no external resources): a heatmap of a
 * metric over two parameters of a grid, and a line plot of a metric over one parameter or the
 * missing rate with one line per method and ±std error bars. Plus the reductions from StudyRow[]
 * to their data (means over seeds).
 */
import type { ParamValue } from '../../solvers/types';
import type { StudyMetric, StudyRow } from '../types';
import { meanStd } from './stats';
import { escapeXml, PALETTE, px, svgOpen } from './svg';

export interface HeatmapData {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xValues: readonly string[];
  readonly yValues: readonly string[];
  /** values[y][x]; null where the grid has no finished run. */
  readonly values: readonly (readonly (number | null)[])[];
  /** Decimals printed in the cells (default 2). */
  readonly digits?: number;
  /** Cells to outline with a tag, e.g. the oracle ('O') and label-free ('L') choices. */
  readonly marks?: readonly { readonly x: number; readonly y: number; readonly tag: string }[];
}

/** Viridis-like stops, dark (low) to bright (high). */
const STOPS = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of t ∈ [0, 1] on the scale, as '#rrggbb'. */
export function colourAt(t: number): string {
  const u = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(u));
  const f = u - i;
  const c = STOPS[i]!.map((a, j) => Math.round(a + f * (STOPS[i + 1]![j]! - a)));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The heatmap: one `<rect class="cell">` per grid point (grey when null) with its value printed
 * (white on dark colours), x values along the bottom, y values up the left, a colour bar with the
 * minimum and maximum, and marked cells outlined with their tag.
 */
export function heatmapSvg(h: HeatmapData): string {
  const digits = h.digits ?? 2;
  const cw = 64;
  const ch = 30;
  const left = 90;
  const top = 36;
  const nx = h.xValues.length;
  const ny = h.yValues.length;
  const width = left + nx * cw + 90;
  const height = top + ny * ch + 50;
  const finite = h.values.flat().filter((v): v is number => v !== null && Number.isFinite(v));
  const lo = finite.length ? Math.min(...finite) : 0;
  const hi = finite.length ? Math.max(...finite) : 1;
  const norm = (v: number): number => (hi > lo ? (v - lo) / (hi - lo) : 0.5);
  const out = svgOpen(width, height, h.title);
  h.yValues.forEach((yv, j) => {
    // Rows from the top in the order given.
    const y = top + j * ch;
    out.push(
      `<text x="${left - 6}" y="${px(y + ch / 2)}" text-anchor="end" dominant-baseline="middle">${escapeXml(yv)}</text>`,
    );
    h.xValues.forEach((_, i) => {
      const v = h.values[j]?.[i] ?? null;
      const x = left + i * cw;
      const fill = v === null ? '#dddddd' : colourAt(norm(v));
      const ink = v !== null && norm(v) < 0.55 ? '#fff' : '#000';
      out.push(
        `<rect class="cell" x="${x}" y="${y}" width="${cw}" height="${ch}" fill="${fill}" stroke="#fff"/>`,
        `<text class="value" x="${px(x + cw / 2)}" y="${px(y + ch / 2)}" text-anchor="middle" dominant-baseline="middle" fill="${ink}">${v === null ? '—' : v.toFixed(digits)}</text>`,
      );
    });
  });
  for (const m of h.marks ?? []) {
    const x = left + m.x * cw;
    const y = top + m.y * ch;
    out.push(
      // A white inner line keeps the outline visible on dark and bright cells alike.
      `<rect class="mark" x="${x + 1}" y="${y + 1}" width="${cw - 2}" height="${ch - 2}" fill="none" stroke="#e4007c" stroke-width="2"/>`,
      `<rect x="${x + 3}" y="${y + 3}" width="${cw - 6}" height="${ch - 6}" fill="none" stroke="#fff" stroke-width="1"/>`,
      `<text x="${x + cw - 4}" y="${y + 10}" text-anchor="end" font-size="9" font-weight="bold" fill="#e4007c">${escapeXml(m.tag)}</text>`,
    );
  }
  h.xValues.forEach((xv, i) => {
    out.push(
      `<text x="${px(left + i * cw + cw / 2)}" y="${top + ny * ch + 14}" text-anchor="middle">${escapeXml(xv)}</text>`,
    );
  });
  out.push(
    `<text x="${px(left + (nx * cw) / 2)}" y="${top + ny * ch + 34}" text-anchor="middle">${escapeXml(h.xLabel)}</text>`,
    `<text transform="translate(16 ${px(top + (ny * ch) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(h.yLabel)}</text>`,
  );
  // Colour bar: ten steps from the minimum (bottom) to the maximum (top).
  const bx = left + nx * cw + 24;
  const bh = Math.max(ch * ny, 60);
  for (let s = 0; s < 10; s++) {
    out.push(
      `<rect x="${bx}" y="${px(top + bh - ((s + 1) * bh) / 10)}" width="14" height="${px(bh / 10)}" fill="${colourAt((s + 0.5) / 10)}"/>`,
    );
  }
  out.push(
    `<text x="${bx + 18}" y="${top + 4}" dominant-baseline="middle">${hi.toFixed(digits)}</text>`,
    `<text x="${bx + 18}" y="${px(top + bh - 4)}" dominant-baseline="middle">${lo.toFixed(digits)}</text>`,
    '</svg>',
  );
  return out.join('\n') + '\n';
}

/**
 * The heatmap as a Markdown table (what `sweep` prints): y values down the first column, x values
 * across, each mean at `digits` decimals, marked cells followed by their tags in brackets, e.g.
 * `0.71 [oracle]`, and a line naming the axes.
 */
export function heatmapMarkdown(h: HeatmapData): string {
  const digits = h.digits ?? 2;
  const tags = new Map<string, string[]>();
  for (const m of h.marks ?? [])
    tags.set(`${m.x},${m.y}`, [...(tags.get(`${m.x},${m.y}`) ?? []), m.tag]);
  const esc = (s: string): string => s.replace(/[|\\]/g, (c) => `\\${c}`);
  const lines = [
    `**${esc(h.title)}** (rows ${esc(h.yLabel)}, columns ${esc(h.xLabel)})`,
    '',
    `| ${esc(h.yLabel)} \\ ${esc(h.xLabel)} | ${h.xValues.map(esc).join(' | ')} |`,
    `| --- | ${h.xValues.map(() => '---:').join(' | ')} |`,
  ];
  h.yValues.forEach((yv, j) => {
    const cells = h.xValues.map((_, i) => {
      const v = h.values[j]?.[i] ?? null;
      const t = tags.get(`${i},${j}`);
      return `${v === null ? '—' : v.toFixed(digits)}${t ? ` [${t.map(esc).join(', ')}]` : ''}`;
    });
    lines.push(`| ${esc(yv)} | ${cells.join(' | ')} |`);
  });
  return lines.join('\n') + '\n';
}

export interface LinePoint {
  readonly x: number;
  readonly mean: number;
  readonly std: number;
}

export interface LineData {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly { readonly name: string; readonly points: readonly LinePoint[] }[];
  /** Place the x values evenly as categories (e.g. λ ∈ {0.001, 0.1, 1, 10}) instead of linearly. */
  readonly categorical?: boolean;
}

/** Up to six "nice" ticks (1, 2, 5 × 10^e steps) covering [lo, hi]. */
export function niceTicks(lo: number, hi: number): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / 5;
  const e = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * e).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/**
 * The line plot: per series a `<polyline>`, a `<circle class="point">` per point and a vertical
 * `<line class="err">` from mean − std to mean + std (when std > 0), a legend on the right.
 */
export function lineSvg(l: LineData): string {
  const width = 560;
  const height = 320;
  const [x0, x1, y0, y1] = [60, width - 150, height - 44, 30];
  const pts = l.series.flatMap((s) => s.points);
  const xsAll = [...new Set(pts.map((p) => p.x))].sort((a, b) => a - b);
  const ylo0 = pts.length ? Math.min(...pts.map((p) => p.mean - p.std)) : 0;
  const yhi0 = pts.length ? Math.max(...pts.map((p) => p.mean + p.std)) : 1;
  const pad = yhi0 > ylo0 ? 0.05 * (yhi0 - ylo0) : 0.5;
  const [ylo, yhi] = [ylo0 - pad, yhi0 + pad];
  const xlo = xsAll[0] ?? 0;
  const xhi = xsAll[xsAll.length - 1] ?? 1;
  const sx = l.categorical
    ? (x: number): number => x0 + ((xsAll.indexOf(x) + 0.5) / Math.max(1, xsAll.length)) * (x1 - x0)
    : (x: number): number =>
        xhi > xlo ? x0 + ((x - xlo) / (xhi - xlo)) * (x1 - x0) : (x0 + x1) / 2;
  const sy = (y: number): number => y0 - ((y - ylo) / (yhi - ylo)) * (y0 - y1);
  const out = svgOpen(width, height, l.title);
  out.push(
    `<rect x="${x0}" y="${y1}" width="${x1 - x0}" height="${y0 - y1}" fill="none" stroke="#444"/>`,
  );
  for (const t of niceTicks(ylo, yhi)) {
    const y = px(sy(t));
    out.push(
      `<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#e4e4e4"/>`,
      `<text x="${x0 - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${t}</text>`,
    );
  }
  const xTicks = l.categorical || xsAll.length <= 8 ? xsAll : niceTicks(xlo, xhi);
  for (const t of xTicks) {
    out.push(
      `<text x="${px(sx(t))}" y="${y0 + 16}" text-anchor="middle">${escapeXml(String(t))}</text>`,
    );
  }
  out.push(
    `<text x="${px((x0 + x1) / 2)}" y="${height - 8}" text-anchor="middle">${escapeXml(l.xLabel)}</text>`,
    `<text transform="translate(16 ${px((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(l.yLabel)}</text>`,
  );
  l.series.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const sorted = [...s.points].sort((a, b) => a.x - b.x);
    if (sorted.length > 1) {
      const poly = sorted.map((p) => `${px(sx(p.x))},${px(sy(p.mean))}`).join(' ');
      out.push(`<polyline points="${poly}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
    }
    for (const p of sorted) {
      const x = px(sx(p.x));
      if (p.std > 0) {
        out.push(
          `<line class="err" x1="${x}" y1="${px(sy(p.mean - p.std))}" x2="${x}" y2="${px(sy(p.mean + p.std))}" stroke="${colour}"/>`,
        );
      }
      out.push(`<circle class="point" cx="${x}" cy="${px(sy(p.mean))}" r="3" fill="${colour}"/>`);
    }
    const ly = y1 + 8 + 16 * i;
    out.push(
      `<line x1="${x1 + 12}" y1="${ly}" x2="${x1 + 30}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${x1 + 35}" y="${ly}" dominant-baseline="middle">${escapeXml(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

const valueText = (v: ParamValue | undefined): string =>
  v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** Distinct values in order of appearance, sorted numerically when every one is a number. */
function distinct(values: readonly string[]): string[] {
  const out = [...new Set(values)];
  return out.every((v) => v !== '' && Number.isFinite(Number(v)))
    ? out.sort((a, b) => Number(a) - Number(b))
    : out;
}

/**
 * The mean of `metric` over the seeds for each (x, y) grid point of `rows` (one method × dataset;
 * x, y name grid parameters): the axis values (numeric ones sorted) and values[y][x].
 */
export function gridMeans(
  rows: readonly StudyRow[],
  metric: StudyMetric,
  x: string,
  y: string,
): { xValues: string[]; yValues: string[]; values: (number | null)[][] } {
  const done = rows.filter((r) => r.status === 'done' && r.metrics[metric] !== undefined);
  for (const r of done) {
    if (!(x in r.grid) || !(y in r.grid)) {
      throw new Error(`row ${r.cell}: grid has no parameter '${x in r.grid ? y : x}'`);
    }
  }
  const xValues = distinct(done.map((r) => valueText(r.grid[x])));
  const yValues = distinct(done.map((r) => valueText(r.grid[y])));
  const acc = new Map<string, number[]>();
  for (const r of done) {
    const key = `${valueText(r.grid[x])}\u0000${valueText(r.grid[y])}`;
    acc.set(key, [...(acc.get(key) ?? []), r.metrics[metric]!]);
  }
  const values = yValues.map((yv) =>
    xValues.map((xv) => {
      const xs = acc.get(`${xv}\u0000${yv}`);
      return xs ? meanStd(xs)[0] : null;
    }),
  );
  return { xValues, yValues, values };
}

/**
 * One series per method label: the mean and std of `metric` over the seeds at each value of
 * `by` (a numeric grid parameter, or 'missingRate').
 */
export function lineSeries(
  rows: readonly StudyRow[],
  metric: StudyMetric,
  by: string,
): { name: string; points: LinePoint[] }[] {
  const groups = new Map<string, Map<number, number[]>>();
  for (const r of rows) {
    const v = r.metrics[metric];
    if (r.status !== 'done' || v === undefined) continue;
    const x = by === 'missingRate' ? r.missingRate : r.grid[by];
    if (typeof x !== 'number') {
      throw new Error(`row ${r.cell}: '${by}' is not a number (${valueText(x ?? undefined)})`);
    }
    const g = groups.get(r.label) ?? new Map<number, number[]>();
    g.set(x, [...(g.get(x) ?? []), v]);
    groups.set(r.label, g);
  }
  return [...groups].map(([name, g]) => ({
    name,
    points: [...g]
      .map(([x, xs]) => {
        const [mean, std] = meanStd(xs);
        return { x, mean, std };
      })
      .sort((a, b) => a.x - b.x),
  }));
}
