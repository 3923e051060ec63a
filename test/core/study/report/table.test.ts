import { csvParseRows } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import {
  escapeLatex,
  renderCsv,
  renderLatex,
  renderMarkdown,
} from '../../../../src/core/study/report/render';
import { studyTable } from '../../../../src/core/study/report/table';
import { accs, row } from './rows';

/**
 * Three methods on two datasets, two seeds each. Means (%):
 *   D1: A 80.00, B 70.00, C 80.00  -> A and C tie for best, B second; ranks 1.5, 3, 1.5
 *   D2: A 60.00, B 65.00, C 50.00  -> B best, A second;             ranks 2, 1, 3
 * Average ranks: A 1.75, B 2.00, C 2.25.
 */
const toy = [
  ...accs('A', 'D1', [0.79, 0.81]),
  ...accs('B', 'D1', [0.7, 0.7]),
  ...accs('C', 'D1', [0.8, 0.8]),
  ...accs('A', 'D2', [0.6, 0.6]),
  ...accs('B', 'D2', [0.6, 0.7]),
  ...accs('C', 'D2', [0.5, 0.5]),
];

describe('studyTable', () => {
  const t = studyTable(toy, { metric: 'acc', rule: 'oracle' });

  it('has methods as rows and datasets as columns, in order of appearance', () => {
    expect(t.rows).toEqual(['A', 'B', 'C']);
    expect(t.columns).toEqual(['D1', 'D2']);
  });

  it('prints mean ± sample std in percent (hand-computed)', () => {
    // A on D1: mean 80, std = sqrt(((−1)² + 1²)/1) = 1.414…
    expect(t.cells[0]![0]!.text).toBe('80.00 ± 1.41');
    expect(t.cells[1]![1]!.text).toBe('65.00 ± 7.07');
    expect(t.cells[2]![1]!.text).toBe('50.00 ± 0.00');
    expect(t.cells[0]![0]!.n).toBe(2);
  });

  it('bolds every tied best and underlines the next value, and says so', () => {
    expect(t.cells.map((r) => r[0]!.mark)).toEqual(['best', 'second', 'best']);
    expect(t.cells.map((r) => r[1]!.mark)).toEqual(['second', 'best', null]);
    expect(t.notes).toContain('D1: A and C tie for the best value.');
  });

  it('gives tied cells the average of their ranks, and averages ranks over columns', () => {
    expect(t.cells.map((r) => r[0]!.rank)).toEqual([1.5, 3, 1.5]);
    expect(t.avgRank).toEqual([1.75, 2, 2.25]);
    expect(t.avgRankMark).toEqual(['best', 'second', null]);
  });

  it('states the metric, unit, seeds and the selection rule', () => {
    expect(t.caption).toMatch(/^ACC \(%\), mean ± std over 2 seed\(s\); oracle selection/);
    expect(studyTable(toy, { metric: 'acc', rule: 'label-free' }).caption).toMatch(
      /label-free selection/,
    );
  });

  it('ties at the printed precision: 80.004 and 80.001 are both 80.00', () => {
    const rows = [
      ...accs('A', 'D', [0.80004]),
      ...accs('B', 'D', [0.80001]),
      ...accs('C', 'D', [0.5]),
    ];
    const u = studyTable(rows, { metric: 'acc', rule: 'oracle' });
    expect(u.cells.map((r) => r[0]!.mark)).toEqual(['best', 'best', 'second']);
    expect(u.cells.map((r) => r[0]!.rank)).toEqual([1.5, 1.5, 3]);
    expect(u.avgRankMark).toEqual(['best', 'best', 'second']);
    expect(u.notes).toEqual([
      'D: A and B tie for the best value.',
      'Avg. rank: A and B tie for the best value.',
    ]);
  });

  it('ranks only complete columns and counts failures', () => {
    const rows = [
      ...toy,
      ...accs('A', 'D3', [0.9]),
      row('B', 'D3', 0, {}, { status: 'failed', error: 'out of memory' }),
    ];
    const u = studyTable(rows, { metric: 'acc', rule: 'oracle' });
    expect(u.columns).toEqual(['D1', 'D2', 'D3']);
    expect(u.rankedColumns).toEqual([0, 1]);
    expect(u.cells[1]![2]).toBeNull();
    expect(u.cells[0]![2]!.rank).toBeNull();
    expect(u.avgRank).toEqual([1.75, 2, 2.25]);
    expect(u.notes).toContain(
      'Average ranks use the 2 column(s) where every method has a result; left out: D3.',
    );
    expect(u.notes).toContain('B on D3: 1 run(s) failed, 0 finished.');
  });

  it('columns by missing rate, sorted, for one dataset series', () => {
    const rows = [0.9, 0.1, 0.5].flatMap((m) =>
      ['A', 'B'].map((l) =>
        row(l, `NGs@${m}`, 0, { nmi: l === 'A' ? m : 1 - m }, { missingRate: m }),
      ),
    );
    const u = studyTable(rows, { metric: 'nmi', rule: 'oracle', columns: 'missingRate' });
    expect(u.columns).toEqual(['0.1', '0.5', '0.9']);
    expect(u.cells[0]!.map((c) => c!.text)).toEqual([
      '10.00 ± 0.00',
      '50.00 ± 0.00',
      '90.00 ± 0.00',
    ]);
    const mixed = [...rows, row('A', 'BDGP@0.5', 0, { nmi: 0.3 }, { missingRate: 0.5 })];
    expect(() =>
      studyTable(mixed, { metric: 'nmi', rule: 'oracle', columns: 'missingRate' }),
    ).toThrow(/several datasets \(NGs, BDGP\) share missing rate 0.5/);
  });

  it('an empty study gives an empty table, not an error', () => {
    const u = studyTable([], { metric: 'acc', rule: 'oracle' });
    expect([u.rows, u.columns, u.avgRank]).toEqual([[], [], []]);
    expect(renderMarkdown(u)).toContain('| Method | Avg. rank |');
  });

  it('keeps silhouette unscaled and honours digits and order', () => {
    const rows = [row('A', 'D', 0, { silhouette: 0.1234 }), row('B', 'D', 0, { silhouette: -0.5 })];
    const u = studyTable(rows, {
      metric: 'silhouette',
      rule: 'label-free',
      digits: 3,
      order: ['B', 'A'],
    });
    expect(u.rows).toEqual(['B', 'A']);
    expect(u.cells.map((r) => r[0]!.text)).toEqual(['-0.500 ± 0.000', '0.123 ± 0.000']);
    expect(() => studyTable(rows, { metric: 'acc', rule: 'oracle', digits: 9 })).toThrow(
      /digits: expected an integer in 0…6, got 9/,
    );
  });
});

describe('renderers', () => {
  const t = studyTable(toy, { metric: 'acc', rule: 'oracle' });

  it('Markdown: bold best, <u> second, the rank column and the notes', () => {
    const md = renderMarkdown(t);
    expect(md).toContain('| Method | D1 | D2 | Avg. rank |');
    expect(md).toContain('| A | **80.00 ± 1.41** | <u>60.00 ± 0.00</u> | **1.75** |');
    expect(md).toContain('| C | **80.00 ± 0.00** | 50.00 ± 0.00 | 2.25 |');
    expect(md).toContain('- D1: A and C tie for the best value.');
    const odd = renderMarkdown(
      studyTable(accs('a|b*', 'D', [0.5]), { metric: 'acc', rule: 'oracle' }),
    );
    expect(odd).toContain('| a\\|b\\* |');
  });

  it('LaTeX: booktabs, \\textbf, \\underline, $\\pm$ and escaped labels', () => {
    const rows = [
      ...toy,
      ...accs('50%_R&D #1 {x}', 'D1', [0.1]),
      ...accs('50%_R&D #1 {x}', 'D2', [0.1]),
    ];
    const tex = renderLatex(studyTable(rows, { metric: 'acc', rule: 'label-free' }));
    for (const s of ['\\toprule', '\\midrule', '\\bottomrule', '\\begin{tabular}{lccc}']) {
      expect(tex).toContain(s);
    }
    expect(tex).toContain(
      'A & \\textbf{80.00 $\\pm$ 1.41} & \\underline{60.00 $\\pm$ 0.00} & \\textbf{1.75} \\\\',
    );
    expect(tex).toContain('50\\%\\_R\\&D \\#1 \\{x\\} & 10.00 $\\pm$ 0.00');
    expect(tex).toContain('label-free selection');
    expect(escapeLatex('a\\b~c^d$')).toBe(
      'a\\textbackslash{}b\\textasciitilde{}c\\textasciicircum{}d\\$',
    );
  });

  it('CSV: one header, full-precision numbers, RFC 4180 quoting (round trip through d3-dsv)', () => {
    const rows = [
      ...accs('Method, "quoted"', 'D1', [0.5]),
      ...accs('Method, "quoted"', 'D2', [0.5]),
    ];
    const u = studyTable([...toy, ...rows], { metric: 'acc', rule: 'oracle' });
    const csv = renderCsv(u);
    expect(csv).toContain('"Method, ""quoted"""');
    const parsed = csvParseRows(csv.trimEnd());
    expect(parsed[0]).toEqual([
      'metric',
      'selection',
      'method',
      'D1 mean',
      'D1 std',
      'D1 n',
      'D2 mean',
      'D2 std',
      'D2 n',
      'avg rank',
    ]);
    expect(parsed[4]![2]).toBe('Method, "quoted"');
    expect(parsed[1]!.slice(0, 3)).toEqual(['acc', 'oracle', 'A']);
    expect(Number(parsed[1]![3])).toBeCloseTo(80, 12);
    expect(Number(parsed[1]![4])).toBeCloseTo(Math.SQRT2, 12);
    expect(parsed).toHaveLength(5);
  });
});
