/** The study's text output on hand-checkable toys: ranks, the Markdown table, the heatmap marks. */
import { describe, expect, it } from 'vitest';
import { selectGrid } from '../../src/core/study/select';
import type { StudyRow } from '../../src/core/study/types';
import { ranks, renderHeatmap, renderStudyMarkdown } from '../../src/cli/study-format';

function row(
  label: string,
  dataset: string,
  cell: string,
  grid: Record<string, number>,
  acc: number,
  seed = 1,
): StudyRow {
  return {
    cell,
    method: 'm',
    label,
    grid,
    params: grid,
    dataset,
    missingRate: null,
    seed,
    status: 'done',
    error: '',
    metrics: { acc },
    objective: null,
    seconds: 0,
    stability: null,
  };
}

describe('ranks', () => {
  it('ranks from the highest, ties sharing their mean rank, missing values last', () => {
    expect(ranks([0.5, 0.9, 0.5, null, 0.1])).toEqual([2.5, 1, 2.5, 5, 4]);
    expect(ranks([null, 0.2, null])).toEqual([2.5, 1, 2.5]);
  });
});

describe('renderStudyMarkdown', () => {
  // A: grid a ∈ {1, 2} (oracle picks a=2 on D1: 0.8 > 0.4; a=1 on D2: 0.6 > 0.5); B: no grid.
  const rows = [
    row('A', 'D1', 'c1', { a: 1 }, 0.4),
    row('A', 'D1', 'c2', { a: 2 }, 0.8),
    row('A', 'D2', 'c3', { a: 1 }, 0.6),
    row('A', 'D2', 'c4', { a: 2 }, 0.5),
    row('B', 'D1', 'c5', {}, 0.7),
    row('B', 'D2', 'c6', {}, 0.9),
  ];

  it('shows the oracle point, the best in bold and the average rank', () => {
    const md = renderStudyMarkdown(selectGrid(rows), 'acc', 'oracle', 'acc');
    expect(md.split('\n')).toEqual([
      'ACC, mean ± std over seeds; parameters of a grid chosen by the oracle rule (best mean ACC against the labels); in the average rank a missing value (–) ranks last.',
      '',
      '| Method | D1 | D2 | Avg. rank |',
      '|---|---:|---:|---:|',
      '| A | **0.800 ± 0.000** | 0.600 ± 0.000 | 1.50 |',
      '| B | 0.700 ± 0.000 | **0.900 ± 0.000** | 1.50 |',
      '',
    ]);
  });

  it('says when the label-free rule chose nothing', () => {
    const md = renderStudyMarkdown(selectGrid(rows), 'acc', 'label-free', 'acc');
    expect(md).toContain('chosen by the label-free rule (no labels used');
    expect(md).toContain('| A | – | – | 2.00 |');
    expect(md).toContain('| B | **0.700 ± 0.000** | **0.900 ± 0.000** | 1.00 |');
  });
});

describe('renderHeatmap', () => {
  it('puts the first parameter on rows, the others on columns, and marks the oracle choice', () => {
    const grid = [
      row('A', 'D', 'c1', { a: 1, b: 10 }, 0.1),
      row('A', 'D', 'c2', { a: 1, b: 20 }, 0.2),
      row('A', 'D', 'c3', { a: 2, b: 10 }, 0.9),
      row('A', 'D', 'c4', { a: 2, b: 20 }, 0.4),
    ];
    const text = renderHeatmap(selectGrid(grid)[0]!, 'acc', 3);
    expect(text.split('\n').slice(0, 5)).toEqual([
      'A on D (k = 3): ACC, mean ± std over seeds',
      '',
      '              b=10             b=20',
      'a=1  0.100 ± 0.000    0.200 ± 0.000',
      'a=2  0.900 ± 0.000*   0.400 ± 0.000',
    ]);
    expect(text).toContain('* oracle (best mean, uses the labels): a=2 b=10  ACC 0.900');
    expect(text).toContain('+ label-free: none');
  });
});
