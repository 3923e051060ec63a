import { describe, expect, it } from 'vitest';
import {
  cdMarkdown,
  cdSvg,
  holm,
  studyStatistics,
  summaryLines,
} from '../../../../src/core/study/report/cd';
import { heatmapSvg, lineSvg } from '../../../../src/core/study/report/charts';
import { renderHtml } from '../../../../src/core/study/report/html';
import { friedman, nemenyiCd, wilcoxon } from '../../../../src/core/study/report/stats';
import { studyTable } from '../../../../src/core/study/report/table';
import { accs } from './rows';
import { byClass, elements, parseXml } from './xml';

/** Four methods on five datasets, one seed each; A always best, D always worst, B/C swap. */
const scores: Record<string, number[]> = {
  A: [0.9, 0.85, 0.8, 0.95, 0.7],
  B: [0.8, 0.7, 0.75, 0.85, 0.6],
  C: [0.7, 0.75, 0.7, 0.8, 0.65],
  D: [0.5, 0.55, 0.6, 0.6, 0.4],
};
const rows = Object.entries(scores).flatMap(([label, xs]) =>
  xs.map((x, d) => accs(label, `D${d + 1}`, [x])[0]!),
);
const table = studyTable(rows, { metric: 'acc', rule: 'oracle' });

describe('studyStatistics', () => {
  const s = studyStatistics(table)!;

  it('runs Friedman on the table values and matches the direct call', () => {
    const direct = friedman(
      [0, 1, 2, 3, 4].map((d) => Object.values(scores).map((x) => x[d]! * 100)),
    );
    expect(s.friedman!.chiSquare).toBeCloseTo(direct.chiSquare, 12);
    // Ranks: A 1 everywhere, D 4 everywhere; B 2,3,2,2,3 and C 3,2,3,3,2 -> 2.4 and 2.6.
    expect(s.avgRanks).toEqual([1, 2.4, 2.6, 4]);
    expect(s.cd).toBeCloseTo(nemenyiCd(4, 5, 0.05), 12);
  });

  it('groups methods within CD and tests every pair with Holm adjustment', () => {
    // CD(4 methods, 5 datasets, 0.05) = 2.569 √(20/30) = 2.098: A..C and B..D are groups.
    expect(s.cliques).toEqual([
      [0, 1, 2],
      [1, 2, 3],
    ]);
    expect(s.pairs).toHaveLength(6);
    const ab = s.pairs[0]!;
    expect([ab.a, ab.b]).toEqual([0, 1]);
    expect(ab.test.p).toBe(
      wilcoxon(
        scores.A!.map((x) => x * 100),
        scores.B!.map((x) => x * 100),
      ).p,
    );
    // 5 positive differences, no ties: exact p = 2/32.
    expect(ab.test.p).toBe(0.0625);
  });

  it('Holm: p sorted ascending times (m − j), kept monotone and capped (hand-checked)', () => {
    expect(holm([0.01, 0.04, 0.03, 0.5])).toEqual([0.04, 0.09, 0.09, 0.5]);
    expect(holm([0.6, 0.4])).toEqual([0.8, 0.8]);
  });

  it('with two methods: no Friedman or CD, the one Wilcoxon pair only', () => {
    const two = rows.filter((r) => r.label === 'A' || r.label === 'D');
    const u = studyStatistics(studyTable(two, { metric: 'acc', rule: 'oracle' }))!;
    expect(u.friedman).toBeNull();
    expect(u.cd).toBeNull();
    expect(u.cliques).toEqual([]);
    expect(u.pairs).toHaveLength(1);
    expect(cdMarkdown(u)).toContain('Friedman and Nemenyi need at least 3 methods');
  });

  it('is null with fewer than 3 complete datasets', () => {
    const two = rows.filter((r) => r.dataset === 'D1' || r.dataset === 'D2');
    expect(studyStatistics(studyTable(two, { metric: 'acc', rule: 'oracle' }))).toBeNull();
  });

  it('Markdown form names the tests, the CD, the groups and each pair', () => {
    const md = cdMarkdown(s);
    expect(md).toMatch(/Friedman χ²\(3\) = 13\.\d{4}, p = /);
    expect(md).toMatch(/Iman–Davenport F\(3, 12\) = /);
    expect(md).toContain('Nemenyi at α = 0.05: q = 2.569, CD = 2.098.');
    expect(md).toContain('{A, B, C}; {B, C, D}');
    expect(md).toContain('| A vs B | 0 | 5 | 0.06250 |');
    expect(md).toContain('Average ranks: A 1.00, B 2.40, C 2.60, D 4.00.');
  });

  it('prints an infinite Iman–Davenport F when every dataset ranks the methods alike', () => {
    const same = Object.entries(scores).flatMap(([label, xs], m) =>
      xs.map((_, d) => accs(label, `D${d + 1}`, [0.9 - m / 10])[0]!),
    );
    const u = studyStatistics(studyTable(same, { metric: 'acc', rule: 'oracle' }))!;
    expect(summaryLines(u)[1]).toMatch(/F\(3, 12\) = ∞, p < 1e-16\.$/);
  });

  it('the diagram is well-formed with one line per method and one bar per group', () => {
    const doc = parseXml(cdSvg(s));
    expect(byClass(doc, 'line', 'method')).toHaveLength(4);
    expect(byClass(doc, 'line', 'clique')).toHaveLength(2);
    expect(byClass(doc, 'line', 'cd')).toHaveLength(1);
  });
});

describe('renderHtml', () => {
  const html = renderHtml({
    title: 'Study <NGs & BDGP>',
    tables: [table, studyTable(rows, { metric: 'acc', rule: 'label-free' })],
    statistics: [studyStatistics(table)!],
    charts: [
      {
        title: 'heatmap',
        svg: heatmapSvg({
          title: 'h',
          xLabel: 'x',
          yLabel: 'y',
          xValues: ['1', '2'],
          yValues: ['a'],
          values: [[0.1, 0.2]],
        }),
      },
      {
        title: 'line',
        svg: lineSvg({
          title: 'l',
          xLabel: 'x',
          yLabel: 'y',
          series: [{ name: 'A', points: [{ x: 1, mean: 1, std: 0.1 }] }],
        }),
      },
    ],
    spec: { methods: [{ method: 'toy', label: 'A' }], note: '<script>alert(1)</script>' },
    versions: { mvstudio: '0.1.0', node: '22.12.0' },
    datasetHashes: { D1: 'sha256:abc' },
  });

  it('is one well-formed document with head, CSP, title and body', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    const doc = parseXml(html);
    expect(doc.name).toBe('html');
    expect(doc.children.map((c) => c.name)).toEqual(['head', 'body']);
    const csp = elements(doc, 'meta').find(
      (m) => m.attrs['http-equiv'] === 'Content-Security-Policy',
    );
    expect(csp?.attrs.content).toMatch(/^default-src 'none'/);
    expect(elements(doc, 'title')[0]!.text).toBe('Study &lt;NGs &amp; BDGP&gt;');
  });

  it('is self-contained: no URL, no script, no external reference', () => {
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script|<link|<iframe|<img|src=|href=|@import|url\(/i);
  });

  it('holds both tables with their marks, the statistics, the charts, spec, versions and hashes', () => {
    const doc = parseXml(html);
    expect(byClass(doc, 'table', 'study')).toHaveLength(2);
    expect(html).toContain('oracle selection');
    expect(html).toContain('label-free selection');
    expect(elements(doc, 'strong').length).toBeGreaterThan(0);
    expect(elements(doc, 'u').length).toBeGreaterThan(0);
    // The CD diagram and the two charts.
    expect(elements(doc, 'svg')).toHaveLength(3);
    expect(byClass(doc, 'table', 'pairs')).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>22.12.0</code>');
    expect(html).toContain('<code>sha256:abc</code>');
  });

  it('refuses a chart that is not one of ours', () => {
    expect(() =>
      renderHtml({
        title: 't',
        tables: [],
        charts: [{ title: 'x', svg: '<svg><script/></svg>' }],
        spec: null,
        versions: {},
        datasetHashes: {},
      }),
    ).toThrow(/charts\[0\] \(x\): expected an SVG document/);
  });
});
