/**
 * A study's long-format results (`results.csv`): one line per cell and seed, the StudyRow fields
 * in a fixed column order. `grid` and `params` are JSON objects; a metric the run did not score,
 * a missing objective or stability is an empty field. Fields holding a comma, quote or line
 * break are quoted (RFC 4180). Pure.
 */
import { STUDY_METRICS } from './spec';
import type { StudyRow } from './types';

export const RESULT_COLUMNS: readonly string[] = [
  'cell',
  'method',
  'label',
  'dataset',
  'missingRate',
  'seed',
  'status',
  'error',
  'grid',
  'params',
  ...STUDY_METRICS,
  'objective',
  'stability',
  'seconds',
];

function field(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text of `rows` (header first, '\n' line ends, a final newline). */
export function rowsToCsv(rows: readonly StudyRow[]): string {
  const lines = [RESULT_COLUMNS.join(',')];
  for (const r of rows) {
    const cells = [
      r.cell,
      r.method,
      r.label,
      r.dataset,
      r.missingRate,
      r.seed,
      r.status,
      r.error,
      JSON.stringify(r.grid),
      JSON.stringify(r.params),
      ...STUDY_METRICS.map((m) => r.metrics[m]),
      r.objective,
      r.stability,
      r.seconds,
    ];
    lines.push(cells.map(field).join(','));
  }
  return lines.join('\n') + '\n';
}
