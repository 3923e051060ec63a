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
  renderCsv,
  renderHtml,
  renderLatex,
  renderMarkdown,
  studyStatistics,
} from '../core/study/report';
import type { Selection } from '../core/study/select';
import type { SelectionRule, StudyMetric, StudyRow } from '../core/study/types';
import { cellDir, type CellRecord, type StudyFile } from '../backend/study/folder';
import { chosenRows, reportCharts, reportParts, reportTables } from '../backend/study/report';
import { readRunBundle } from '../io/bundle';
import { version as appVersion } from '../../package.json';

export const REPORT_FORMATS = ['md', 'tex', 'html', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export { chosenRows, reportCharts, reportTables };

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
  const { tables, chosen } = reportParts(rows, selections, o.metric, o.rule);
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
        charts: reportCharts(rows, chosen, selections, o.metric),
        spec: f.spec,
        versions,
        datasetHashes: hashes,
      });
    }
  }
}
