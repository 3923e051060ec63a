/**
 * The app's charts as Svelte attachments (`<canvas {@attach convergenceChart(...)}>`): each
 * factory returns a function that draws on the canvas and returns the cleanup. The factory's
 * arguments are read inside the attachment's effect, so a change of data, option or theme
 * redraws the chart. chart.js is used only here (STYLE.md rule 11).
 */
import type { Attachment } from 'svelte/attachments';
import type { ChartDataset, Plugin, ScatterDataPoint } from 'chart.js';
import { scatterLegendItems } from './legend';
import { Chart, baseOptions, colorOf, theme } from './setup';

/** Ends a chart and clears what it drew (the canvas may be reused by the next attachment). */
function mount(canvas: HTMLCanvasElement, make: () => Chart): () => void {
  const chart = make();
  return () => chart.destroy();
}

/** Objective per iteration; `log` puts the y axis on a log scale (values ≤ 0 dropped there). */
export function convergenceChart(
  objective: readonly number[],
  log: boolean,
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    void dark;
    const t = theme();
    const points = objective
      .map((y, i) => ({ x: i + 1, y }))
      .filter((p) => Number.isFinite(p.y) && (!log || p.y > 0));
    return mount(
      canvas,
      () =>
        new Chart(canvas, {
          type: 'line',
          data: {
            datasets: [
              {
                label: 'objective',
                data: points,
                borderColor: t.accent,
                backgroundColor: t.accent,
                pointRadius: points.length > 60 ? 0 : 2,
                borderWidth: 2,
              },
            ],
          },
          options: {
            ...baseOptions(t),
            parsing: false,
            plugins: { legend: { display: false } },
            scales: {
              x: { type: 'linear', title: { display: true, text: 'iteration' } },
              y: {
                type: log ? 'logarithmic' : 'linear',
                title: { display: true, text: 'objective' },
              },
            },
          },
        }),
    );
  };
}

/** Horizontal bars, one per label (stage timings, comparison times, spectra). */
export function barChart(
  labels: readonly string[],
  values: readonly number[],
  axis: string,
  dark: boolean,
  options: { horizontal?: boolean; errors?: readonly number[]; colors?: readonly string[] } = {},
): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    void dark;
    const t = theme();
    const horizontal = options.horizontal ?? true;
    const errors = options.errors;
    const errorBars: Plugin<'bar'> = {
      id: 'errorBars',
      afterDatasetsDraw(chart) {
        if (!errors) return;
        const meta = chart.getDatasetMeta(0);
        const scale = horizontal ? chart.scales['x']! : chart.scales['y']!;
        const ctx = chart.ctx;
        ctx.save();
        ctx.strokeStyle = t.fg;
        ctx.lineWidth = 1.5;
        meta.data.forEach((bar, i) => {
          const e = errors[i] ?? 0;
          const v = values[i] ?? 0;
          if (!(e > 0)) return;
          const lo = scale.getPixelForValue(v - e);
          const hi = scale.getPixelForValue(v + e);
          const c = horizontal ? bar.y : bar.x;
          ctx.beginPath();
          if (horizontal) {
            ctx.moveTo(lo, c);
            ctx.lineTo(hi, c);
            ctx.moveTo(lo, c - 5);
            ctx.lineTo(lo, c + 5);
            ctx.moveTo(hi, c - 5);
            ctx.lineTo(hi, c + 5);
          } else {
            ctx.moveTo(c, lo);
            ctx.lineTo(c, hi);
            ctx.moveTo(c - 5, lo);
            ctx.lineTo(c + 5, lo);
            ctx.moveTo(c - 5, hi);
            ctx.lineTo(c + 5, hi);
          }
          ctx.stroke();
        });
        ctx.restore();
      },
    };
    return mount(
      canvas,
      () =>
        new Chart(canvas, {
          type: 'bar',
          data: {
            labels: [...labels],
            datasets: [
              {
                label: axis,
                data: [...values],
                backgroundColor: options.colors
                  ? [...options.colors]
                  : labels.map((_, i) => colorOf(i)),
              },
            ],
          },
          options: {
            ...baseOptions(t),
            indexAxis: horizontal ? 'y' : 'x',
            plugins: { legend: { display: false } },
            scales: {
              [horizontal ? 'x' : 'y']: {
                beginAtZero: true,
                title: { display: true, text: axis },
              },
            },
          },
          plugins: [errorBars],
        }),
    );
  };
}

/** Point styles for true classes: the marker tells the class, the colour the cluster. */
const MARKERS = [
  'circle',
  'triangle',
  'rect',
  'rectRot',
  'star',
  'crossRot',
  'cross',
  'rectRounded',
] as const;

/** RunResult's per-sample arrays (typed arrays from the host, plain arrays in tests). */
export interface ScatterData {
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
  readonly clusters: ArrayLike<number>;
  readonly truth: ArrayLike<number> | null;
  readonly classes: readonly (number | string)[] | null;
  readonly missingViews: ArrayLike<number>;
  readonly sampleIds: readonly string[] | null;
}

/** At most this many points are drawn (every m-th sample beyond it). */
export const SCATTER_MAX_POINTS = 6000;

/**
 * The cluster scatter: one dataset per cluster (colour), marker by true class when known,
 * samples missing a view drawn hollow (the legend says so, its cluster swatches always
 * filled: ./legend.ts); the tooltip names the sample.
 */
export function scatterChart(d: ScatterData, dark: boolean): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    void dark;
    const t = theme();
    const n = d.x.length;
    const stride = Math.max(1, Math.ceil(n / SCATTER_MAX_POINTS));
    let k = 0;
    for (let i = 0; i < d.clusters.length; i++) k = Math.max(k, d.clusters[i]! + 1);
    type P = ScatterDataPoint & { i: number };
    const byCluster: P[][] = Array.from({ length: k }, () => []);
    for (let i = 0; i < n; i += stride)
      byCluster[d.clusters[i]!]!.push({ x: d.x[i]!, y: d.y[i]!, i });
    const datasets: ChartDataset<'scatter', P[]>[] = byCluster.map((points, c) => ({
      label: `cluster ${c + 1}`,
      data: points,
      borderColor: colorOf(c),
      backgroundColor: points.map((p) =>
        (d.missingViews[p.i] ?? 0) > 0 ? 'transparent' : colorOf(c),
      ),
      pointStyle: points.map((p) =>
        d.truth ? MARKERS[(d.truth[p.i] ?? 0) % MARKERS.length]! : 'circle',
      ),
      pointRadius: n > 2000 ? 2.5 : 3.5,
      borderWidth: 1.2,
    }));
    let missing = 0;
    for (let i = 0; i < d.missingViews.length; i++) if (d.missingViews[i]! > 0) missing++;
    const sampleName = (i: number): string => d.sampleIds?.[i] ?? String(i + 1);
    return mount(
      canvas,
      () =>
        new Chart(canvas, {
          type: 'scatter',
          data: { datasets },
          options: {
            ...baseOptions(t),
            parsing: false,
            plugins: {
              legend: {
                position: 'right',
                labels: {
                  boxWidth: 10,
                  generateLabels: (chart) =>
                    scatterLegendItems(
                      k,
                      missing,
                      colorOf,
                      (c) => !chart.isDatasetVisible(c),
                      t.fg,
                    ),
                },
                // The hollow entry names no cluster: clicking it toggles nothing.
                onClick: (e, item, legend) => {
                  if (item.datasetIndex === undefined) return;
                  Chart.defaults.plugins.legend.onClick.call(legend, e, item, legend);
                },
              },
              tooltip: {
                callbacks: {
                  label: (ctx) => {
                    const i = (ctx.raw as P).i;
                    const cls = d.truth && d.classes ? `, class ${d.classes[d.truth[i]!]}` : '';
                    const miss = d.missingViews[i] ? `, missing ${d.missingViews[i]} view(s)` : '';
                    return `sample ${sampleName(i)}: cluster ${d.clusters[i]! + 1}${cls}${miss}`;
                  },
                },
              },
            },
            scales: {
              x: { title: { display: true, text: 'PC 1' } },
              y: { title: { display: true, text: 'PC 2' } },
            },
          },
        }),
    );
  };
}

/** Sets a canvas's backing store to its CSS size × devicePixelRatio; returns the 2-D context. */
function fitCanvas(canvas: HTMLCanvasElement): {
  ctx: CanvasRenderingContext2D;
  w: number;
  h: number;
} {
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(rect.width));
  const h = Math.max(1, Math.round(rect.height));
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w, h };
}

/** Redraws on resize of the canvas's box. */
function drawn(canvas: HTMLCanvasElement, draw: () => void): () => void {
  draw();
  const ro = new ResizeObserver(() => draw());
  ro.observe(canvas);
  return () => ro.disconnect();
}

/**
 * The confusion matrix (rows = true classes, columns = clusters after Hungarian alignment)
 * as a heat map with the count or the row proportion in each cell.
 */
export function confusionChart(
  counts: readonly (readonly number[])[],
  rowLabels: readonly string[],
  colLabels: readonly string[],
  proportions: boolean,
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) =>
    drawn(canvas, () => {
      void dark;
      const t = theme();
      const { ctx, w, h } = fitCanvas(canvas);
      ctx.clearRect(0, 0, w, h);
      const rows = counts.length;
      const cols = counts[0]?.length ?? 0;
      if (rows === 0 || cols === 0) return;
      const left = 70;
      const top = 34;
      const cw = (w - left - 8) / cols;
      const ch = (h - top - 8) / rows;
      const rowSums = counts.map((r) => r.reduce((a, b) => a + b, 0));
      const max = Math.max(1, ...counts.flat());
      ctx.font = `${Math.max(9, Math.min(13, ch * 0.4))}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j < cols; j++) {
          const v = counts[i]![j]!;
          const share = proportions ? v / Math.max(rowSums[i]!, 1) : v / max;
          ctx.fillStyle = `rgba(47, 95, 208, ${0.06 + 0.94 * share})`;
          ctx.fillRect(left + j * cw + 1, top + i * ch + 1, cw - 2, ch - 2);
          ctx.fillStyle = share > 0.55 ? '#ffffff' : t.fg;
          const text = proportions ? (v / Math.max(rowSums[i]!, 1)).toFixed(2) : String(v);
          if (cw > 18 && ch > 12) ctx.fillText(text, left + (j + 0.5) * cw, top + (i + 0.5) * ch);
        }
      }
      ctx.fillStyle = t.muted;
      ctx.textAlign = 'right';
      for (let i = 0; i < rows; i++)
        ctx.fillText(rowLabels[i] ?? '', left - 6, top + (i + 0.5) * ch);
      ctx.textAlign = 'center';
      for (let j = 0; j < cols; j++)
        ctx.fillText(colLabels[j] ?? '', left + (j + 0.5) * cw, top - 12);
    });
}

/**
 * A small real matrix (a solver's `charts.heatmap`, rows × cols) as a heat map: each cell as
 * dark as its place between the matrix's least and largest value, with the value in it when
 * the cell has room.
 */
export function heatmapChart(
  values: readonly (readonly number[])[],
  rowLabels: readonly string[],
  colLabels: readonly string[],
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) =>
    drawn(canvas, () => {
      void dark;
      const t = theme();
      const { ctx, w, h } = fitCanvas(canvas);
      ctx.clearRect(0, 0, w, h);
      const rows = values.length;
      const cols = Math.max(0, ...values.map((r) => r.length));
      if (rows === 0 || cols === 0) return;
      const finite = values.flat().filter(Number.isFinite);
      const lo = Math.min(...finite);
      const span = Math.max(...finite) - lo || 1;
      const left = 70;
      const top = 34;
      const cw = (w - left - 8) / cols;
      const ch = (h - top - 8) / rows;
      ctx.font = `${Math.max(9, Math.min(13, ch * 0.4))}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j < cols; j++) {
          const v = values[i]![j] ?? NaN;
          if (!Number.isFinite(v)) continue;
          const share = (v - lo) / span;
          ctx.fillStyle = `rgba(47, 95, 208, ${0.06 + 0.94 * share})`;
          ctx.fillRect(left + j * cw + 1, top + i * ch + 1, cw - 2, ch - 2);
          ctx.fillStyle = share > 0.55 ? '#ffffff' : t.fg;
          if (cw > 30 && ch > 12) {
            ctx.fillText(v.toPrecision(3), left + (j + 0.5) * cw, top + (i + 0.5) * ch);
          }
        }
      }
      ctx.fillStyle = t.muted;
      ctx.textAlign = 'right';
      for (let i = 0; i < rows; i++)
        ctx.fillText(rowLabels[i] ?? '', left - 6, top + (i + 0.5) * ch);
      ctx.textAlign = 'center';
      for (let j = 0; j < cols; j++)
        ctx.fillText(colLabels[j] ?? '', left + (j + 0.5) * cw, top - 12);
    });
}

/**
 * The presence chart: one row per view, one column per sample (columns merge when there are
 * more samples than pixels: a column is as dark as the share of its samples present), missing
 * in the danger colour. `present[v]` is view v's bitset (Presence.bits); `order` is the sample
 * order (e.g. sorted by pattern).
 */
export function presenceChart(
  present: readonly Uint8Array[],
  n: number,
  viewNames: readonly string[],
  order: readonly number[],
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) =>
    drawn(canvas, () => {
      void dark;
      const t = theme();
      const { ctx, w, h } = fitCanvas(canvas);
      ctx.clearRect(0, 0, w, h);
      const V = present.length;
      if (V === 0 || n === 0) return;
      const left = 80;
      const plotW = w - left - 4;
      const rowH = (h - 4) / V;
      const columns = Math.max(1, Math.min(n, Math.floor(plotW)));
      const colW = plotW / columns;
      const missing =
        getComputedStyle(document.documentElement).getPropertyValue('--danger-border').trim() ||
        '#e7a29c';
      ctx.font = '12px sans-serif';
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'right';
      for (let v = 0; v < V; v++) {
        const bits = present[v]!;
        const y = 2 + v * rowH;
        ctx.fillStyle = missing;
        ctx.fillRect(left, y + 1, plotW, rowH - 2);
        ctx.fillStyle = t.accent;
        for (let c = 0; c < columns; c++) {
          const from = Math.floor((c * n) / columns);
          const to = Math.max(from + 1, Math.floor(((c + 1) * n) / columns));
          let have = 0;
          for (let s = from; s < to; s++) {
            const i = order[s]!;
            have += (bits[i >> 3]! >> (i & 7)) & 1;
          }
          const share = have / (to - from);
          if (share === 0) continue;
          ctx.globalAlpha = share;
          ctx.fillRect(left + c * colW, y + 1, Math.max(colW, 1), rowH - 2);
        }
        ctx.globalAlpha = 1;
        ctx.fillStyle = t.fg;
        ctx.fillText(viewNames[v] ?? `view ${v + 1}`, left - 6, y + rowH / 2);
      }
    });
}

/** One line of a multi-line chart. */
export interface Series {
  readonly label: string;
  readonly x: readonly number[];
  readonly y: readonly number[];
  readonly dashed?: boolean;
  readonly color?: string;
}

/** Several lines over a numeric x axis (e.g. singular values per Fourier slice). */
export function linesChart(
  series: readonly Series[],
  xLabel: string,
  yLabel: string,
  log: boolean,
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    void dark;
    const t = theme();
    return mount(
      canvas,
      () =>
        new Chart(canvas, {
          type: 'line',
          data: {
            datasets: series.map((s, i) => ({
              label: s.label,
              data: s.x
                .map((x, j) => ({ x, y: s.y[j] ?? NaN }))
                .filter((p) => Number.isFinite(p.y) && (!log || p.y > 0)),
              borderColor: s.color ?? colorOf(i),
              backgroundColor: s.color ?? colorOf(i),
              borderDash: s.dashed ? [5, 4] : [],
              pointRadius: 0,
              borderWidth: 1.5,
            })),
          },
          options: {
            ...baseOptions(t),
            parsing: false,
            plugins: { legend: { position: 'right', labels: { boxWidth: 12 } } },
            scales: {
              x: { type: 'linear', title: { display: true, text: xLabel } },
              y: { type: log ? 'logarithmic' : 'linear', title: { display: true, text: yLabel } },
            },
          },
        }),
    );
  };
}
