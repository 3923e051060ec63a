/** StudyRow builders for the report tests. */
import type { StudyMetric, StudyRow } from '../../../../src/core/study/types';

let next = 0;

/** One finished row of `label` on `dataset` with the given metric values. */
export function row(
  label: string,
  dataset: string,
  seed: number,
  metrics: Partial<Record<StudyMetric, number>>,
  extra: Partial<StudyRow> = {},
): StudyRow {
  return {
    cell: `c${String(++next).padStart(4, '0')}`,
    method: label.toLowerCase(),
    label,
    grid: {},
    params: {},
    dataset,
    missingRate: null,
    seed,
    status: 'done',
    error: '',
    metrics,
    objective: null,
    seconds: 1,
    ...extra,
  };
}

/** Rows of `label` on `dataset` with one ACC value per seed (seeds 0, 1, …). */
export const accs = (label: string, dataset: string, values: readonly number[]): StudyRow[] =>
  values.map((acc, seed) => row(label, dataset, seed, { acc }));
