/**
 * What a study report shows, shared by `mvstudio study report` and the app's Study screen
 * (`studies:report`): the rows narrowed to the grid point a rule chose for each method entry ×
 * dataset, one table of the plain datasets and one per missing-rate series, and the charts.
 */
import {
  heatmapSvg,
  gridMeans,
  lineSeries,
  lineSvg,
  studyTable,
  type HtmlChart,
  type StudyTable,
} from '../../core/study/report';
import type { Selection } from '../../core/study/select';
import type { SelectionRule, StudyMetric, StudyRow } from '../../core/study/types';

/**
 * The rows at the point `rule` chose for each (entry label, dataset): an entry without a grid
 * keeps its one point; an entry whose rule chose nothing drops out (its selection's note says
 * why and is returned).
 */
export function chosenRows(
  rows: readonly StudyRow[],
  selections: readonly Selection[],
  rule: SelectionRule,
): { rows: StudyRow[]; notes: string[] } {
  const keep = new Set<string>();
  const notes: string[] = [];
  for (const s of selections) {
    const c = rule === 'oracle' ? s.oracle : s.labelFree;
    const cell = s.points.length === 1 ? s.points[0]!.cell : c?.cell;
    if (cell === undefined) notes.push(`${s.label} on ${s.dataset}: left out; ${s.note}.`);
    else keep.add(cell);
  }
  return { rows: rows.filter((r) => keep.has(r.cell)), notes };
}

/** The series a row belongs to: '' for a plain dataset, else the dataset's name before '@'. */
const seriesOf = (r: StudyRow): string =>
  r.missingRate === null ? '' : r.dataset.replace(/@.*$/, '');

/** One table of the plain datasets, then one per missing-rate series (columns: the rates). */
export function reportTables(
  rows: readonly StudyRow[],
  metric: StudyMetric,
  rule: SelectionRule,
): StudyTable[] {
  const found = [...new Set(rows.map(seriesOf))];
  return (found.length ? found : ['']).map((name) =>
    studyTable(
      rows.filter((r) => seriesOf(r) === name),
      { metric, rule, columns: name === '' ? 'dataset' : 'missingRate' },
    ),
  );
}

/**
 * The charts of the HTML report: a heatmap per entry × dataset with a grid of two parameters
 * (the two choices marked O and L), a line plot per entry × dataset with one numeric grid
 * parameter, and a line plot of the chosen points over the missing rates per series.
 */
export function reportCharts(
  all: readonly StudyRow[],
  chosen: readonly StudyRow[],
  selections: readonly Selection[],
  metric: StudyMetric,
): HtmlChart[] {
  const charts: HtmlChart[] = [];
  const name = metric.toUpperCase();
  for (const s of selections) {
    const rows = all.filter((r) => r.label === s.label && r.dataset === s.dataset);
    const params = Object.keys(s.points[0]?.grid ?? {});
    const title = `${s.label} on ${s.dataset}: ${name} over the grid`;
    if (params.length === 2) {
      const [x, y] = params as [string, string];
      const g = gridMeans(rows, metric, x, y);
      const at = (cell: string | undefined): { x: number; y: number } | null => {
        const p = s.points.find((q) => q.cell === cell);
        if (!p) return null;
        const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
        return { x: g.xValues.indexOf(text(p.grid[x])), y: g.yValues.indexOf(text(p.grid[y])) };
      };
      const marks = [
        { at: at(s.oracle?.cell), tag: 'O' },
        { at: at(s.labelFree?.cell), tag: 'L' },
      ].flatMap((m) => (m.at && m.at.x >= 0 && m.at.y >= 0 ? [{ ...m.at, tag: m.tag }] : []));
      charts.push({
        title: `${title} (O: oracle choice, L: label-free choice)`,
        svg: heatmapSvg({ title, xLabel: x, yLabel: y, ...g, digits: 3, marks }),
      });
    } else if (
      params.length === 1 &&
      s.points.every((p) => typeof p.grid[params[0]!] === 'number')
    ) {
      const by = params[0]!;
      const series = lineSeries(rows, metric, by);
      if (series.length) {
        charts.push({
          title,
          svg: lineSvg({ title, xLabel: by, yLabel: name, series, categorical: true }),
        });
      }
    }
  }
  for (const base of new Set(chosen.map(seriesOf))) {
    if (base === '') continue;
    const series = lineSeries(
      chosen.filter((r) => seriesOf(r) === base),
      metric,
      'missingRate',
    );
    const title = `${base}: ${name} over the missing rate`;
    charts.push({ title, svg: lineSvg({ title, xLabel: 'missing rate', yLabel: name, series }) });
  }
  return charts;
}

/**
 * The tables of a report under `rule` (the entries it chose nothing for named under the first)
 * and the rows it kept.
 */
export function reportParts(
  rows: readonly StudyRow[],
  selections: readonly Selection[],
  metric: StudyMetric,
  rule: SelectionRule,
): { tables: StudyTable[]; chosen: StudyRow[] } {
  const chosen = chosenRows(rows, selections, rule);
  const [first, ...more] = reportTables(chosen.rows, metric, rule);
  return {
    tables: [{ ...first!, notes: [...first!.notes, ...chosen.notes] }, ...more],
    chosen: chosen.rows,
  };
}
