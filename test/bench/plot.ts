/**
 * Log-log plots of time against size for the benchmarks, written as small hand-made SVG: a
 * frame, decade ticks (with unlabelled 2…9 minor ticks) on both axes, one polyline with markers
 * per series, a legend. No dependencies and no scripts, so the file renders anywhere markdown
 * shows an image. Also the growth exponent: the least-squares slope of log t against log n.
 */
import { escapeXml, px } from '../../src/core/study/report/svg';

/** One curve: (x, y) points with x, y > 0 (others are dropped), drawn in the order given. */
export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  /** Stroke colour; default the palette's entry for the series' index. */
  readonly colour?: string;
}

export interface LogLogPlot {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  /** Labels of the y decades; default `formatMs` (the y values are milliseconds). */
  readonly yTick?: (value: number) => string;
  /** Labels of the x decades; default `formatCount`. */
  readonly xTick?: (value: number) => string;
}

/** Pixel layout of every plot: the frame's box inside the picture. */
export const LAYOUT = { width: 480, height: 320, left: 64, right: 16, top: 28, bottom: 44 };

/** Default colours of the series, in order. */
export const COLOURS = ['#1f5fbf', '#c0392b', '#2e8b57', '#8e44ad'];

/**
 * Least-squares slope of log t against log n over the points with n, t > 0: the p of t ≈ c·nᵖ.
 * null when fewer than two distinct n remain.
 */
export function growthExponent(points: readonly (readonly [number, number])[]): number | null {
  const logs = points
    .filter(([x, y]) => x > 0 && y > 0)
    .map(([x, y]) => [Math.log(x), Math.log(y)]);
  if (logs.length < 2) return null;
  const mx = logs.reduce((s, [x]) => s + x!, 0) / logs.length;
  const my = logs.reduce((s, [, y]) => s + y!, 0) / logs.length;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of logs) {
    sxy += (x! - mx) * (y! - my);
    sxx += (x! - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : null;
}

/**
 * The decades [lo, hi] (integer powers of ten) spanning values in [min, max], at least one
 * decade wide.
 */
export function decadeRange(min: number, max: number): [number, number] {
  // The small slack keeps an exact power of ten (whose log10 may round to just above or below
  // an integer) on its own decade instead of opening a new one.
  const lo = Math.floor(Math.log10(min) + 1e-9);
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(max) - 1e-9));
  return [lo, hi];
}

/** Maps v in [10^lo, 10^hi] linearly in log10 onto [p0, p1] (pixels). */
export function logScale(lo: number, hi: number, p0: number, p1: number): (v: number) => number {
  return (v) => p0 + ((Math.log10(v) - lo) / (hi - lo)) * (p1 - p0);
}

/** Milliseconds as a tick label: 1 ms, 10 ms, 100 ms, 1 s, 10 s, 100 s; µs below 1 ms. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${trim(ms / 1000)} s`;
  if (ms >= 1) return `${trim(ms)} ms`;
  return `${trim(ms * 1000)} µs`;
}

/** A count as a tick label: 100, 1k, 10k, 100k, 1M. */
export function formatCount(n: number): string {
  if (n >= 1e6) return `${trim(n / 1e6)}M`;
  if (n >= 1e3) return `${trim(n / 1e3)}k`;
  return trim(n);
}

const trim = (x: number): string => String(Number(x.toPrecision(6)));

export { escapeXml };

/** The SVG document of `p`; an empty frame with the title when no series has a point. */
export function logLogSvg(p: LogLogPlot): string {
  const { width, height, left, right, top, bottom } = LAYOUT;
  const xTick = p.xTick ?? formatCount;
  const yTick = p.yTick ?? formatMs;
  const series = p.series.map((s, i) => ({
    name: s.name,
    colour: s.colour ?? COLOURS[i % COLOURS.length]!,
    points: s.points.filter(([x, y]) => x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y)),
  }));
  const all = series.flatMap((s) => s.points);
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const [xlo, xhi] = all.length ? decadeRange(Math.min(...xs), Math.max(...xs)) : [0, 1];
  const [ylo, yhi] = all.length ? decadeRange(Math.min(...ys), Math.max(...ys)) : [0, 1];
  const [x0, x1, y0, y1] = [left, width - right, height - bottom, top];
  const sx = logScale(xlo, xhi, x0, x1);
  const sy = logScale(ylo, yhi, y0, y1);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${px((x0 + x1) / 2)}" y="16" text-anchor="middle" font-size="13">${escapeXml(p.title)}</text>`,
    `<rect x="${x0}" y="${y1}" width="${px(x1 - x0)}" height="${px(y0 - y1)}" fill="none" stroke="#444"/>`,
  ];
  // Decade ticks with a faint grid line and a label; minor ticks at 2…9 times each decade.
  for (let e = xlo; e <= xhi; e++) {
    const x = px(sx(10 ** e));
    out.push(
      `<line class="grid" x1="${x}" y1="${y0}" x2="${x}" y2="${y1}" stroke="#ddd"/>`,
      `<line class="tick-x" x1="${x}" y1="${y0}" x2="${x}" y2="${y0 + 5}" stroke="#444"/>`,
      `<text x="${x}" y="${y0 + 17}" text-anchor="middle">${escapeXml(xTick(10 ** e))}</text>`,
    );
    for (let m = 2; m <= 9 && e < xhi; m++) {
      const xm = px(sx(m * 10 ** e));
      out.push(`<line x1="${xm}" y1="${y0}" x2="${xm}" y2="${y0 + 3}" stroke="#888"/>`);
    }
  }
  for (let e = ylo; e <= yhi; e++) {
    const y = px(sy(10 ** e));
    out.push(
      `<line class="grid" x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#ddd"/>`,
      `<line class="tick-y" x1="${x0 - 5}" y1="${y}" x2="${x0}" y2="${y}" stroke="#444"/>`,
      `<text x="${x0 - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${escapeXml(yTick(10 ** e))}</text>`,
    );
    for (let m = 2; m <= 9 && e < yhi; m++) {
      const ym = px(sy(m * 10 ** e));
      out.push(`<line x1="${x0 - 3}" y1="${ym}" x2="${x0}" y2="${ym}" stroke="#888"/>`);
    }
  }
  out.push(
    `<text x="${px((x0 + x1) / 2)}" y="${height - 8}" text-anchor="middle">${escapeXml(p.xLabel)}</text>`,
    `<text transform="translate(14 ${px((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(p.yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const colour = escapeXml(s.colour);
    const pts = s.points.map(([x, y]) => `${px(sx(x))},${px(sy(y))}`);
    if (pts.length) {
      out.push(
        `<polyline points="${pts.join(' ')}" fill="none" stroke="${colour}" stroke-width="1.5"/>`,
      );
      for (const pt of pts) {
        const [cx, cy] = pt.split(',');
        out.push(`<circle cx="${cx}" cy="${cy}" r="2.5" fill="${colour}"/>`);
      }
    }
    // Legend, top left inside the frame; a series without points is listed as such.
    const ly = y1 + 14 + 15 * i;
    out.push(
      `<line x1="${x0 + 8}" y1="${ly}" x2="${x0 + 26}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${x0 + 31}" y="${ly}" dominant-baseline="middle">${escapeXml(pts.length ? s.name : `${s.name} (no data)`)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
