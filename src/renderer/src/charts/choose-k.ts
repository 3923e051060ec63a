/**
 * The Run form's "Choose k" chart as a Svelte attachment (see charts.ts for the pattern); the
 * eigengap uses charts.ts's `barChart`.
 */
import type { Attachment } from 'svelte/attachments';
import type { ChartDataset, ScatterDataPoint } from 'chart.js';
import { barChart } from './charts';
import { Chart, baseOptions, colorOf, theme } from './setup';

/**
 * Choose k: the silhouette per k (left axis) and the method's final objective (right axis,
 * when it has one), the suggested k's point enlarged.
 */
export function chooseKChart(
  points: readonly { k: number; silhouette: number | null; objective: number | null }[],
  suggested: number | null,
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    void dark;
    const t = theme();
    const sil = points.flatMap((p) => (p.silhouette === null ? [] : [{ x: p.k, y: p.silhouette }]));
    const obj = points.flatMap((p) => (p.objective === null ? [] : [{ x: p.k, y: p.objective }]));
    const datasets: ChartDataset<'line', ScatterDataPoint[]>[] = [
      {
        label: 'silhouette',
        data: sil,
        yAxisID: 'y',
        borderColor: t.accent,
        backgroundColor: t.accent,
        borderWidth: 2,
        pointRadius: sil.map((p) => (p.x === suggested ? 6 : 3)),
      },
    ];
    if (obj.length > 0) {
      datasets.push({
        label: 'objective',
        data: obj,
        yAxisID: 'y2',
        borderColor: colorOf(1),
        backgroundColor: colorOf(1),
        borderDash: [5, 3],
        borderWidth: 1.5,
        pointRadius: 2,
      });
    }
    const chart = new Chart(canvas, {
      type: 'line',
      data: { datasets },
      options: {
        ...baseOptions(t),
        parsing: false,
        plugins: { legend: { display: obj.length > 0 } },
        scales: {
          x: { type: 'linear', ticks: { stepSize: 1 }, title: { display: true, text: 'k' } },
          y: { title: { display: true, text: 'silhouette' } },
          ...(obj.length > 0
            ? {
                y2: {
                  position: 'right' as const,
                  grid: { drawOnChartArea: false },
                  title: { display: true, text: 'objective' },
                },
              }
            : {}),
        },
      },
    });
    return () => chart.destroy();
  };
}

/** Choose k: the eigengap μ_k − μ_{k+1} per k as bars, the suggested k's in the accent colour. */
export function eigengapChart(
  ks: readonly number[],
  gaps: readonly number[],
  suggested: number,
  dark: boolean,
): Attachment<HTMLCanvasElement> {
  return (canvas) => {
    const t = theme();
    const colors = ks.map((k) => (k === suggested ? t.accent : t.muted));
    return barChart(ks.map(String), gaps, 'gap', dark, { horizontal: false, colors })(
      canvas,
    ) as () => void;
  };
}
