import { describe, expect, it } from 'vitest';
import {
  colourAt,
  gridMeans,
  heatmapMarkdown,
  heatmapSvg,
  lineSeries,
  lineSvg,
  niceTicks,
} from '../../../../src/core/study/report/charts';
import { row } from './rows';
import { byClass, elements, parseXml } from './xml';

describe('the XML check itself', () => {
  it('accepts a well-formed document and refuses broken ones', () => {
    expect(parseXml('<a x="1"><b/>t &amp; u</a>').children).toHaveLength(1);
    for (const bad of [
      '<a><b></a>',
      '<a>x & y</a>',
      '<a x=1/>',
      '<a/><b/>',
      '<a x="1" x="2"/>',
      '<a>',
    ]) {
      expect(() => parseXml(bad)).toThrow();
    }
  });
});

/** A 2 × 3 grid (lambda × anchors) with two seeds per point. */
const sweep = [0.1, 1].flatMap((lambda) =>
  [3, 6, 9].flatMap((anchors) =>
    [0, 1].map((seed) =>
      row(
        'IMVC',
        'NGs',
        seed,
        { acc: lambda * 0.1 + anchors / 100 + seed * 0.02 },
        {
          grid: { lambda, anchors },
        },
      ),
    ),
  ),
);

describe('gridMeans', () => {
  it('averages the seeds of each grid point, axes sorted numerically (hand-computed)', () => {
    const g = gridMeans(sweep, 'acc', 'anchors', 'lambda');
    expect(g.xValues).toEqual(['3', '6', '9']);
    expect(g.yValues).toEqual(['0.1', '1']);
    // lambda 1, anchors 6: 0.1 + 0.06 + (0 + 0.02)/2 = 0.17.
    expect(g.values[1]![1]).toBeCloseTo(0.17, 12);
    expect(() => gridMeans(sweep, 'acc', 'anchors', 'rho')).toThrow(/grid has no parameter 'rho'/);
  });
});

describe('heatmapSvg', () => {
  const g = gridMeans(sweep, 'acc', 'anchors', 'lambda');
  const svg = heatmapSvg({
    title: 'ACC of IMVC on NGs <λ × anchors>',
    xLabel: 'anchors',
    yLabel: 'λ',
    ...g,
    values: [g.values[0]!, [g.values[1]![0]!, null, g.values[1]![2]!]],
    marks: [
      { x: 2, y: 1, tag: 'O' },
      { x: 0, y: 0, tag: 'L' },
    ],
  });
  const doc = parseXml(svg);

  it('is well-formed SVG with one cell and one printed value per grid point', () => {
    expect(doc.name).toBe('svg');
    expect(byClass(doc, 'rect', 'cell')).toHaveLength(6);
    const values = byClass(doc, 'text', 'value').map((t) => t.text);
    expect(values).toEqual(['0.05', '0.08', '0.11', '0.14', '—', '0.20']);
    expect(byClass(doc, 'rect', 'mark')).toHaveLength(2);
    expect(svg).toContain('&lt;λ × anchors&gt;');
  });

  it('colours the minimum dark and the maximum bright, an empty cell grey', () => {
    const fills = byClass(doc, 'rect', 'cell').map((r) => r.attrs.fill);
    expect(fills[0]).toBe(colourAt(0));
    expect(fills[5]).toBe(colourAt(1));
    expect(fills[4]).toBe('#dddddd');
    expect(colourAt(0)).toBe('#440154');
    expect(colourAt(1)).toBe('#fde725');
  });
});

describe('heatmapMarkdown', () => {
  it('prints the grid with the marked cells tagged', () => {
    const md = heatmapMarkdown({
      title: 'ACC',
      xLabel: 'anchors',
      yLabel: 'λ',
      xValues: ['k', '2k'],
      yValues: ['0.1', '1'],
      values: [
        [0.5, 0.61],
        [null, 0.7],
      ],
      marks: [
        { x: 1, y: 1, tag: 'oracle' },
        { x: 1, y: 0, tag: 'label-free' },
      ],
    });
    expect(md).toBe(
      [
        '**ACC** (rows λ, columns anchors)',
        '',
        '| λ \\ anchors | k | 2k |',
        '| --- | ---: | ---: |',
        '| 0.1 | 0.50 | 0.61 [label-free] |',
        '| 1 | — | 0.70 [oracle] |',
        '',
      ].join('\n'),
    );
  });
});

describe('lineSvg', () => {
  const rows = [0.1, 0.5, 0.9].flatMap((m) =>
    ['A', 'B'].flatMap((l) =>
      [0, 1, 2].map((seed) =>
        row(
          l,
          `NGs@${m}`,
          seed,
          { acc: (l === 'A' ? 0.9 - m / 2 : 0.6) + seed / 100 },
          { missingRate: m },
        ),
      ),
    ),
  );

  it('lineSeries: one series per method, mean and sample std per x (hand-computed)', () => {
    const s = lineSeries(rows, 'acc', 'missingRate');
    expect(s.map((x) => x.name)).toEqual(['A', 'B']);
    expect(s[0]!.points.map((p) => p.x)).toEqual([0.1, 0.5, 0.9]);
    expect(s[0]!.points[1]!.mean).toBeCloseTo(0.66, 12);
    expect(s[0]!.points[1]!.std).toBeCloseTo(0.01, 12);
    expect(() => lineSeries(rows, 'acc', 'lambda')).toThrow(/'lambda' is not a number/);
  });

  it('draws a polyline per series, a point and an error bar per mean', () => {
    const doc = parseXml(
      lineSvg({
        title: 'ACC vs missing rate',
        xLabel: 'missing rate',
        yLabel: 'ACC',
        series: lineSeries(rows, 'acc', 'missingRate'),
      }),
    );
    expect(elements(doc, 'polyline')).toHaveLength(2);
    expect(byClass(doc, 'circle', 'point')).toHaveLength(6);
    expect(byClass(doc, 'line', 'err')).toHaveLength(6);
    // The error bar spans mean ± std: its length is twice the std in pixels, the same for all.
    const lengths = byClass(doc, 'line', 'err').map((l) => Number(l.attrs.y2) - Number(l.attrs.y1));
    for (const len of lengths) expect(len).toBeCloseTo(lengths[0]!, 0);
  });

  it('places categorical x values evenly', () => {
    const series = [{ name: 'A', points: [0.001, 0.1, 10].map((x) => ({ x, mean: 1, std: 0 })) }];
    const doc = parseXml(
      lineSvg({ title: 't', xLabel: 'λ', yLabel: 'ACC', series, categorical: true }),
    );
    const cx = byClass(doc, 'circle', 'point').map((c) => Number(c.attrs.cx));
    expect(cx[1]! - cx[0]!).toBeCloseTo(cx[2]! - cx[1]!, 0);
    expect(byClass(doc, 'line', 'err')).toHaveLength(0);
  });

  it('niceTicks steps by 1, 2 or 5 × 10^e', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.53, 0.91)).toEqual([0.6, 0.7, 0.8, 0.9]);
  });
});
