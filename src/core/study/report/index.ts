/**
 * Study reports (issue 22): pure functions from the study's rows (`StudyRow[]`, ../types.ts) to
 * tables, exports, charts and statistics, as strings. The CLI's `study report` and the app call
 * these; nothing here reads files or the clock.
 */
export type { StudyTable, StudyTableOptions, TableCell } from './table';
export { studyTable } from './table';
export { escapeLatex, escapeMarkdown, renderCsv, renderLatex, renderMarkdown } from './render';
export type { HtmlChart, HtmlReportOptions } from './html';
export { renderHtml, tableHtml } from './html';
export type { HeatmapData, LineData, LinePoint } from './charts';
export { gridMeans, heatmapMarkdown, heatmapSvg, lineSeries, lineSvg } from './charts';
export type { CdSummary, PairTest } from './cd';
export { cdMarkdown, cdSvg, holm, studyStatistics } from './cd';
export type { Alpha, FriedmanResult, WilcoxonResult } from './stats';
export { averageRanks, friedman, nemenyiCd, nemenyiQ, wilcoxon } from './stats';
