/**
 * The cluster scatter's legend (charts.ts `scatterChart`): one filled swatch per cluster in
 * its colour, whatever its first point looks like (chart.js would copy the first point's
 * style, so a cluster whose first sample misses a view would read as "hollow"), and one entry
 * saying what hollow means when some samples miss a view. Pure: chart.js types only.
 */
import type { LegendItem } from 'chart.js';

/** The text of the hollow marker's legend entry. */
export const HOLLOW_TEXT = 'hollow: missing ≥ 1 view';

/**
 * Legend items for `clusters` clusters coloured by `color`, `hidden` telling which are
 * switched off, plus the hollow entry (no datasetIndex: clicking it does nothing) when
 * `missing` > 0 samples miss a view.
 */
export function scatterLegendItems(
  clusters: number,
  missing: number,
  color: (c: number) => string,
  hidden: (c: number) => boolean,
  fontColor: string,
): LegendItem[] {
  const items: LegendItem[] = Array.from({ length: clusters }, (_, c) => ({
    text: `cluster ${c + 1}`,
    datasetIndex: c,
    fillStyle: color(c),
    strokeStyle: color(c),
    lineWidth: 1,
    hidden: hidden(c),
    fontColor,
  }));
  if (missing > 0) {
    items.push({
      text: HOLLOW_TEXT,
      fillStyle: 'transparent',
      strokeStyle: fontColor,
      lineWidth: 1.2,
      hidden: false,
      fontColor,
    });
  }
  return items;
}
