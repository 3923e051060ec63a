/**
 * `mvstudio study report` in each format, through the report module (core/study/report): the
 * rows narrowed to the grid point the chosen rule picked for each method entry × dataset, one
 * table of the plain datasets and one per missing-rate series, the statistics with 3 datasets or
 * more, and for HTML the charts, the spec, the versions and the dataset hashes that the cells'
 * run bundles recorded.
 */
import { join } from 'node:path';
import {
  cdMarkdown,
  heatmapSvg,
  gridMeans,
  lineSeries,
  lineSvg,
  renderCsv,
  renderHtml,
  renderLatex,
  renderMarkdown,
  studyStatistics,
  studyTable,
  type HtmlChart,
  type StudyTable,
} from '../core/study/report';
import type { Selection } from '../core/study/select';
import type { SelectionRule, StudyMetric, StudyRow } from '../core/study/types';
import { cellDir, type CellRecord, type StudyFile } from '../backend/study/folder';
import { readRunBundle } from '../io/bundle';
import { version as appVersion } from '../../package.json';

export const REPORT_FORMATS = ['md', 'tex', 'html', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

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
 * The app and node versions the cells ran with and the sha256 of each dataset's files, from the
 * first run bundle of each dataset (what the study folder records); a dataset without a readable
 * bundle says so.
 */
export async function recordedProvenance(
  dir: string,
  f: StudyFile,
  records: ReadonlyMap<string, CellRecord>,
): Promise<{ versions: Record<string, string>; hashes: Record<string, string> }> {
  const versions: Record<string, string> = { 'study created by': `mvstudio ${f.app}` };
  const hashes: Record<string, string> = {};
  for (const c of f.cells) {
    if (c.dataset in hashes) continue;
    const bundle = records.get(c.id)?.bundles[0];
    if (bundle === undefined) continue;
    try {
      const run = await readRunBundle(join(cellDir(dir, c.id), bundle));
      hashes[c.dataset] = run.dataset.files.map((x) => `${x.path} sha256:${x.sha256}`).join(', ');
      versions[`cells ran with (${c.dataset})`] =
        `mvstudio ${run.appVersion}, node ${run.platform.node}`;
    } catch {
      // A damaged bundle: the dataset stays listed below as not recorded.
    }
  }
  for (const d of Object.keys(f.ks)) hashes[d] ??= 'not recorded (no run bundle of it)';
  versions['report made by'] = `mvstudio ${appVersion}`;
  return { versions, hashes };
}

/** The report text of `rows` (all of the study's) in `format`. */
export async function studyReport(
  dir: string,
  f: StudyFile,
  records: ReadonlyMap<string, CellRecord>,
  rows: readonly StudyRow[],
  selections: readonly Selection[],
  o: { format: ReportFormat; metric: StudyMetric; rule: SelectionRule },
): Promise<string> {
  const chosen = chosenRows(rows, selections, o.rule);
  const [first, ...more] = reportTables(chosen.rows, o.metric, o.rule);
  // Entries the rule chose nothing for are named under the first table.
  const tables = [{ ...first!, notes: [...first!.notes, ...chosen.notes] }, ...more];
  const statistics = tables.flatMap((t) => studyStatistics(t) ?? []);
  switch (o.format) {
    case 'csv':
      return tables.map(renderCsv).join('\n');
    case 'tex':
      return tables.map(renderLatex).join('\n');
    case 'md':
      return [...tables.map(renderMarkdown), ...statistics.map(cdMarkdown)].join('\n');
    case 'html': {
      const { versions, hashes } = await recordedProvenance(dir, f, records);
      return renderHtml({
        title: f.spec.name,
        tables,
        statistics,
        charts: reportCharts(rows, chosen.rows, selections, o.metric),
        spec: f.spec,
        versions,
        datasetHashes: hashes,
      });
    }
  }
}
