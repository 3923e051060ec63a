/** Grid selection on hand-checkable toys: oracle and label-free side by side, never mixed. */
import { describe, expect, it } from 'vitest';
import { meanStd } from '../../../src/core/study/report/stats';
import { selectGrid } from '../../../src/core/study/select';
import type { StudyMetric, StudyRow } from '../../../src/core/study/types';

/** A done row of cell `cell` (grid {a}) with the given metrics and stability. */
function row(
  cell: string,
  a: number,
  seed: number,
  metrics: Partial<Record<StudyMetric, number>>,
  stability: number | null = null,
  dataset = 'D',
): StudyRow {
  return {
    cell,
    method: 'm',
    label: 'M',
    grid: { a },
    params: { a, b: 1 },
    dataset,
    missingRate: null,
    seed,
    status: 'done',
    error: '',
    metrics,
    objective: a * 10,
    seconds: 1,
    stability,
  };
}

describe('meanStd', () => {
  it('is the mean and the N − 1 standard deviation; 0 with one value', () => {
    expect(meanStd([1, 3])).toEqual([2, Math.SQRT2]);
    expect(meanStd([5])).toEqual([5, 0]);
  });
});

describe('selectGrid', () => {
  // Point a=1: ACC 0.6, 0.8 (mean 0.7), stable 0.9. Point a=2: ACC 0.9, 0.7 (0.8), stable 0.5.
  const rows = [
    row('c1', 1, 1, { acc: 0.6 }, 0.9),
    row('c1', 1, 2, { acc: 0.8 }, 0.9),
    row('c2', 2, 1, { acc: 0.9 }, 0.4),
    row('c2', 2, 2, { acc: 0.7 }, 0.6),
  ];

  it('gives the oracle (best mean ACC) and the label-free (best stability) choices apart', () => {
    const [s] = selectGrid(rows);
    expect(s!.points.map((p) => p.metrics.acc!.mean)).toEqual([0.7, 0.8]);
    expect(s!.oracle).toEqual({
      rule: 'oracle',
      criterion: 'acc',
      cell: 'c2',
      grid: { a: 2 },
      value: 0.8,
    });
    expect(s!.labelFree).toMatchObject({
      rule: 'label-free',
      criterion: 'stability',
      cell: 'c1',
      value: 0.9,
    });
    expect(s!.note).toBe('');
    expect(s!.points[1]!.objective).toEqual({ mean: 20, std: 0 });
  });

  it('takes the silhouette when every seed scored one', () => {
    const sil = [
      row('c1', 1, 1, { silhouette: 0.2 }, 0.9),
      row('c2', 2, 1, { silhouette: 0.3 }, 0.1),
    ];
    const [s] = selectGrid(sil);
    expect(s!.labelFree).toMatchObject({ criterion: 'silhouette', cell: 'c2', value: 0.3 });
    expect(s!.oracle).toBeNull();
    expect(s!.note).toBe('no oracle choice: no complete grid point scored acc (labels needed)');
    expect(selectGrid(sil, 'acc', 'stability')[0]!.labelFree).toMatchObject({ cell: 'c1' });
  });

  it('leaves out points with a failed seed, and keeps the first point on ties', () => {
    const failed: StudyRow = { ...row('c2', 2, 2, {}), status: 'failed', error: 'boom' };
    const [s] = selectGrid([...rows.slice(0, 3), failed]);
    expect(s!.oracle!.cell).toBe('c1');
    const tie = [row('c1', 1, 1, { acc: 0.5 }), row('c2', 2, 1, { acc: 0.5 })];
    const [t] = selectGrid(tie);
    expect(t!.oracle!.cell).toBe('c1');
    expect(t!.labelFree).toBeNull();
    expect(t!.note).toBe(
      'no label-free choice: no stability was scored (it needs at least 2 seeds)',
    );
  });

  it('selects per dataset, and by another oracle metric when asked', () => {
    const two = [
      ...rows,
      row('c3', 1, 1, { acc: 0.1, nmi: 0.9 }, null, 'E'),
      row('c4', 2, 1, { acc: 0.2, nmi: 0.1 }, null, 'E'),
    ];
    const s = selectGrid(two, 'nmi');
    expect(s.map((x) => x.dataset)).toEqual(['D', 'E']);
    expect(s[0]!.oracle).toBeNull();
    expect(s[1]!.oracle).toMatchObject({ criterion: 'nmi', cell: 'c3', value: 0.9 });
  });
});
