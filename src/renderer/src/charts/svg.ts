/**
 * A chart as an SVG document with a title, for export. chart.js draws on a canvas, so the SVG
 * is written from the chart's own layout: each scale's ticks at `getPixelForTick`, the axis
 * titles, the datasets' points at the scales' `getPixelForValue` (scatter, line) or the bars
 * as laid out, and the legend's items. Canvases drawn by hand (the heat maps) have no such
 * layout: their pixels go into the SVG as an image, under the same title.
 */
import type { Chart as ChartJs, Scale } from 'chart.js';
import { Chart, theme, type Theme } from './setup';

/** Room above the chart for the title, in CSS pixels. */
export const TITLE_BAND = 32;

const esc = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const num = (v: number): string => (Math.round(v * 100) / 100).toString();

/** A colour option's value for item `i` (chart.js allows one colour or one per item). */
function colorAt(option: unknown, i: number, fallback: string): string {
  const c = Array.isArray(option) ? (option[i] as unknown) : option;
  return typeof c === 'string' ? c : fallback;
}

function attr(name: string, value: string | number): string {
  return ` ${name}="${typeof value === 'number' ? num(value) : esc(value)}"`;
}

/** One point marker, shaped as chart.js's pointStyle names it, centred at (x, y). */
function marker(
  style: string,
  x: number,
  y: number,
  r: number,
  fill: string,
  stroke: string,
): string {
  // Hollow (the sample misses a view) is told by a class as well, whatever the shape.
  const cls = ` class="mark${fill === 'transparent' ? ' hollow' : ''}"`;
  const paint = `${attr('fill', fill === 'transparent' ? 'none' : fill)}${attr('stroke', stroke)}`;
  const poly = (pts: [number, number][]): string =>
    `<polygon${cls}${attr('points', pts.map(([a, b]) => `${num(x + a)},${num(y + b)}`).join(' '))}${paint}/>`;
  switch (style) {
    case 'triangle':
      return poly([
        [0, -r * 1.15],
        [r, r * 0.6],
        [-r, r * 0.6],
      ]);
    case 'rect':
    case 'rectRounded':
      return `<rect${cls}${attr('x', x - r)}${attr('y', y - r)}${attr('width', 2 * r)}${attr('height', 2 * r)}${paint}/>`;
    case 'rectRot':
      return poly([
        [0, -r * 1.3],
        [r * 1.3, 0],
        [0, r * 1.3],
        [-r * 1.3, 0],
      ]);
    case 'star':
    case 'cross':
    case 'crossRot': {
      const d = style === 'crossRot' ? r * 0.8 : r;
      const lines =
        style === 'cross'
          ? `M${num(x - r)} ${num(y)}H${num(x + r)}M${num(x)} ${num(y - r)}V${num(y + r)}`
          : `M${num(x - d)} ${num(y - d)}L${num(x + d)} ${num(y + d)}M${num(x - d)} ${num(y + d)}L${num(x + d)} ${num(y - d)}` +
            (style === 'star'
              ? `M${num(x - r)} ${num(y)}H${num(x + r)}M${num(x)} ${num(y - r)}V${num(y + r)}`
              : '');
      return `<path${cls}${attr('d', lines)} fill="none"${attr('stroke', stroke)}/>`;
    }
    default:
      return `<circle${cls}${attr('cx', x)}${attr('cy', y)}${attr('r', r)}${paint}/>`;
  }
}

/** A scale's axis line, tick labels, grid lines and title. */
function axis(
  scale: Scale,
  area: { left: number; right: number; top: number; bottom: number },
  t: Theme,
): string {
  const out: string[] = [];
  const horizontal = scale.isHorizontal();
  const options = scale.options as {
    display?: unknown;
    title?: { display?: boolean; text?: string | string[] };
  };
  if (options.display === false) return '';
  scale.ticks.forEach((tick, i) => {
    const p = scale.getPixelForTick(i);
    const label = Array.isArray(tick.label) ? tick.label.join(' ') : (tick.label ?? '');
    if (horizontal) {
      out.push(
        `<line${attr('x1', p)}${attr('x2', p)}${attr('y1', area.top)}${attr('y2', area.bottom)}${attr('stroke', t.grid)}/>`,
      );
      out.push(
        `<text class="tick"${attr('x', p)}${attr('y', scale.top + 14)} text-anchor="middle">${esc(label)}</text>`,
      );
    } else {
      out.push(
        `<line${attr('x1', area.left)}${attr('x2', area.right)}${attr('y1', p)}${attr('y2', p)}${attr('stroke', t.grid)}/>`,
      );
      out.push(
        `<text class="tick"${attr('x', scale.right - 6)}${attr('y', p + 4)} text-anchor="end">${esc(label)}</text>`,
      );
    }
  });
  const title = options.title;
  const text = title?.display ? [title.text ?? ''].flat().join(' ') : '';
  if (text !== '') {
    if (horizontal) {
      out.push(
        `<text class="axis-title"${attr('x', (scale.left + scale.right) / 2)}${attr('y', scale.bottom - 4)} text-anchor="middle">${esc(text)}</text>`,
      );
    } else {
      const x = scale.left + 12;
      const y = (scale.top + scale.bottom) / 2;
      out.push(
        `<text class="axis-title"${attr('x', x)}${attr('y', y)} text-anchor="middle"${attr('transform', `rotate(-90 ${num(x)} ${num(y)})`)}>${esc(text)}</text>`,
      );
    }
  }
  return out.join('');
}

/** The datasets' marks: a bar per value, a marker per point, a line through a line's points. */
function marks(chart: ChartJs, t: Theme): string {
  const out: string[] = [];
  const area = chart.chartArea;
  chart.data.datasets.forEach((dataset, di) => {
    const meta = chart.getDatasetMeta(di);
    if (meta.hidden) return;
    const ds = dataset as unknown as Record<string, unknown>;
    if (meta.type === 'bar') {
      meta.data.forEach((el, i) => {
        const b = el.getProps(['x', 'y', 'base', 'width', 'height', 'horizontal'], true) as {
          x: number;
          y: number;
          base: number;
          width: number;
          height: number;
          horizontal: boolean;
        };
        const [x, y, w, h] = b.horizontal
          ? [Math.min(b.base, b.x), b.y - b.height / 2, Math.abs(b.x - b.base), b.height]
          : [b.x - b.width / 2, Math.min(b.base, b.y), b.width, Math.abs(b.base - b.y)];
        const fill = colorAt(ds['backgroundColor'], i, t.accent);
        out.push(
          `<rect class="mark"${attr('x', x)}${attr('y', y)}${attr('width', w)}${attr('height', h)}${attr('fill', fill)}/>`,
        );
      });
      return;
    }
    const xs = chart.scales[meta.xAxisID ?? 'x'];
    const ys = chart.scales[meta.yAxisID ?? 'y'];
    if (!xs || !ys) return;
    const points = (dataset.data as unknown[])
      .map((p, i) => {
        const q = p as { x?: unknown; y?: unknown } | null;
        const [vx, vy] = [Number(q?.x), Number(q?.y)];
        return {
          i,
          x: xs.getPixelForValue(vx),
          y: ys.getPixelForValue(vy),
          ok: Number.isFinite(vx) && Number.isFinite(vy),
        };
      })
      .filter((p) => p.ok && Number.isFinite(p.x) && Number.isFinite(p.y));
    const stroke = colorAt(ds['borderColor'], 0, t.accent);
    if (meta.type === 'line' && points.length > 1) {
      const d = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${num(p.x)} ${num(p.y)}`).join('');
      out.push(
        `<path class="line"${attr('d', d)} fill="none"${attr('stroke', stroke)}${attr('stroke-width', Number(ds['borderWidth'] ?? 2))}/>`,
      );
    }
    const radius = Number(ds['pointRadius'] ?? 3);
    if (radius <= 0) return;
    for (const p of points) {
      if (
        p.x < area.left - 1 ||
        p.x > area.right + 1 ||
        p.y < area.top - 1 ||
        p.y > area.bottom + 1
      )
        continue;
      const style = colorAt(ds['pointStyle'], p.i, 'circle');
      out.push(
        marker(
          style,
          p.x,
          p.y,
          radius,
          colorAt(ds['backgroundColor'], p.i, stroke),
          colorAt(ds['borderColor'], p.i, stroke),
        ),
      );
    }
  });
  return out.join('');
}

/** The legend's items (a swatch and the text each), where chart.js placed the legend. */
function legend(chart: ChartJs): string {
  const box = chart.legend;
  const items = box?.legendItems ?? [];
  const options = chart.options.plugins?.legend;
  if (!box || items.length === 0 || options?.display === false) return '';
  const vertical = box.options.position === 'left' || box.options.position === 'right';
  const out: string[] = [];
  let x = box.left + 8;
  let y = box.top + 10;
  for (const item of items) {
    const fill = typeof item.fillStyle === 'string' ? item.fillStyle : 'none';
    const stroke = typeof item.strokeStyle === 'string' ? item.strokeStyle : 'none';
    out.push(
      `<g class="legend-item"><rect${attr('x', x)}${attr('y', y - 5)} width="10" height="10"${attr('fill', fill === 'transparent' ? 'none' : fill)}${attr('stroke', stroke)}/>`,
    );
    out.push(`<text${attr('x', x + 14)}${attr('y', y + 4)}>${esc(item.text)}</text></g>`);
    if (vertical) y += 18;
    else x += 24 + item.text.length * 7;
  }
  return `<g class="legend">${out.join('')}</g>`;
}

/** A title's font size that fits `width` (about 0.56 em a character in a sans-serif face). */
export function titleSize(title: string, width: number): number {
  return Math.max(9, Math.min(15, Math.floor((width - 16) / (0.56 * Math.max(1, title.length)))));
}

function frame(width: number, height: number, title: string, body: string, t: Theme): string {
  const h = height + TITLE_BAND;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"${attr('width', width)}${attr('height', h)}${attr('viewBox', `0 0 ${num(width)} ${num(h)}`)} font-family="sans-serif" font-size="12">` +
    `<title>${esc(title)}</title>` +
    `<rect width="100%" height="100%"${attr('fill', t.bg)}/>` +
    `<text class="chart-title"${attr('x', width / 2)} y="21" text-anchor="middle"${attr('font-size', titleSize(title, width))} font-weight="600"${attr('fill', t.fg)}>${esc(title)}</text>` +
    `<g${attr('transform', `translate(0 ${TITLE_BAND})`)}${attr('fill', t.muted)}>${body}</g></svg>`
  );
}

/** The chart drawn on `canvas` as a standalone SVG document headed by `title`. */
export function chartSvg(canvas: HTMLCanvasElement, title: string): string {
  const t = theme();
  const chart = Chart.getChart(canvas);
  if (!chart) {
    const rect = canvas.getBoundingClientRect();
    const image = `<image${attr('width', rect.width)}${attr('height', rect.height)}${attr('href', canvas.toDataURL('image/png'))}/>`;
    return frame(rect.width, rect.height, title, image, t);
  }
  const area = chart.chartArea;
  const axes = Object.values(chart.scales)
    .map((s) => axis(s, area, t))
    .join('');
  return frame(chart.width, chart.height, title, axes + marks(chart, t) + legend(chart), t);
}

/**
 * The canvas as a PNG data URL with `title` above it on the theme's background (the canvas
 * alone is transparent and untitled).
 */
export function titledPng(canvas: HTMLCanvasElement, title: string): string {
  const t = theme();
  const scale = canvas.width / Math.max(1, canvas.getBoundingClientRect().width || canvas.width);
  const band = Math.round(TITLE_BAND * scale);
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height + band;
  const ctx = out.getContext('2d');
  if (!ctx) return canvas.toDataURL('image/png');
  ctx.fillStyle = t.bg;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = t.fg;
  let size = titleSize(title, out.width / scale);
  ctx.font = `600 ${Math.round(size * scale)}px sans-serif`;
  // The face may be wider than assumed: shrink until the title fits.
  while (size > 8 && ctx.measureText(title).width > out.width - 16 * scale) {
    size -= 1;
    ctx.font = `600 ${Math.round(size * scale)}px sans-serif`;
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(title, out.width / 2, band / 2);
  ctx.drawImage(canvas, 0, band);
  return out.toDataURL('image/png');
}
