/**
 * `study report`'s narrowing to the chosen grid points and its tables, and the sweep's heatmap
 * table, on hand-checkable toys.
 */
import { describe, expect, it } from 'vitest';
import { renderHeatmap } from '../../src/cli/study-format';
import { chosenRows, reportTables } from '../../src/cli/study-report';
import { selectGrid } from '../../src/core/study/select';
import type { StudyRow } from '../../src/core/study/types';

function row(
  label: string,
  dataset: string,
  cell: string,
  grid: Record<string, number>,
  acc: number,
  missingRate: number | null = null,
): StudyRow {
  return {
    cell,
    method: 'm',
    label,
    grid,
    params: grid,
    dataset,
    missingRate,
    seed: 1,
    status: 'done',
    error: '',
    metrics: { acc },
    objective: null,
    seconds: 0,
    stability: null,
  };
}

// A: grid a ∈ {1, 2} (the oracle picks a=2 on D1: 0.8 > 0.4; a=1 on D2: 0.6 > 0.5); B: no grid.
const rows = [
  row('A', 'D1', 'c1', { a: 1 }, 0.4),
  row('A', 'D1', 'c2', { a: 2 }, 0.8),
  row('A', 'D2', 'c3', { a: 1 }, 0.6),
  row('A', 'D2', 'c4', { a: 2 }, 0.5),
  row('B', 'D1', 'c5', {}, 0.7),
  row('B', 'D2', 'c6', {}, 0.9),
];

describe('chosenRows', () => {
  it('keeps the oracle point of each entry × dataset, and the one point of an entry without a grid', () => {
    const { rows: kept, notes } = chosenRows(rows, selectGrid(rows), 'oracle');
    expect(kept.map((r) => r.cell)).toEqual(['c2', 'c3', 'c5', 'c6']);
    expect(notes).toEqual([]);
  });

  it('drops an entry the label-free rule chose nothing for, saying why', () => {
    const { rows: kept, notes } = chosenRows(rows, selectGrid(rows), 'label-free');
    expect(kept.map((r) => r.cell)).toEqual(['c5', 'c6']);
    expect(notes).toEqual([
      'A on D1: left out; no label-free choice: no stability was scored (it needs at least 2 seeds).',
      'A on D2: left out; no label-free choice: no stability was scored (it needs at least 2 seeds).',
    ]);
  });
});

describe('reportTables', () => {
  it('tables the plain datasets together and each missing-rate series by rate', () => {
    const series = [
      row('A', 'S@0.1', 'c7', {}, 0.5, 0.1),
      row('B', 'S@0.1', 'c8', {}, 0.6, 0.1),
      row('A', 'S@0.3', 'c9', {}, 0.4, 0.3),
      row('B', 'S@0.3', 'c10', {}, 0.3, 0.3),
    ];
    const kept = chosenRows(rows, selectGrid(rows), 'oracle').rows;
    const tables = reportTables([...kept, ...series], 'acc', 'oracle');
    expect(tables.map((t) => [t.columnKind, t.columns])).toEqual([
      ['dataset', ['D1', 'D2']],
      ['missingRate', ['0.1', '0.3']],
    ]);
    expect(tables[0]!.cells.map((r) => r.map((c) => c?.text))).toEqual([
      ['80.00 ± 0.00', '60.00 ± 0.00'],
      ['70.00 ± 0.00', '90.00 ± 0.00'],
    ]);
    expect(tables[1]!.cells.map((r) => r.map((c) => c?.mark))).toEqual([
      ['second', 'best'],
      ['best', 'second'],
    ]);
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
    expect(text.split('\n').slice(0, 7)).toEqual([
      '**A on D (k = 3): ACC (%), mean over seeds** (rows a, columns b)',
      '',
      '| a \\ b | 10 | 20 |',
      '| --- | ---: | ---: |',
      '| 1 | 10.00 | 20.00 |',
      '| 2 | 90.00 [O] | 40.00 |',
      '',
    ]);
    expect(text).toContain('O oracle (best mean, uses the labels): a=2 b=10  ACC 0.900');
    expect(text).toContain('L label-free: none');
  });
});
