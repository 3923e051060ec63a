import { describe, expect, it } from 'vitest';
import {
  COLOURS,
  decadeRange,
  escapeXml,
  formatCount,
  formatMs,
  growthExponent,
  LAYOUT,
  logLogSvg,
  logScale,
} from './plot';

/** Every `<tag …>` is closed by `</tag>` or is self-closing, in nesting order. */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name!);
  }
  return stack.length === 0;
}

const attrs = (svg: string, tag: string): Record<string, string>[] =>
  [...svg.matchAll(new RegExp(`<${tag} ([^>]*?)/?>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([a-z0-9-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );

describe('growth exponent', () => {
  it('is the least-squares slope of log t vs log n (hand-computed)', () => {
    // log10 n = 0, 1, 2; log10 t = 0, 1, 3: slope = Σ(x − x̄)(y − ȳ) / Σ(x − x̄)² = 3/2.
    expect(
      growthExponent([
        [1, 1],
        [10, 10],
        [100, 1000],
      ]),
    ).toBeCloseTo(1.5, 12);
  });

  it('recovers p of t = c·nᵖ exactly, whatever c', () => {
    const pts = [250, 500, 1000, 2000, 3000].map((n) => [n, 4e-6 * n ** 2.7] as const);
    expect(Math.abs(growthExponent(pts)! - 2.7) / 2.7).toBeLessThan(1e-12);
  });

  it('ignores non-positive points and needs two distinct sizes', () => {
    expect(growthExponent([[10, 5]])).toBeNull();
    expect(
      growthExponent([
        [10, 5],
        [10, 7],
      ]),
    ).toBeNull();
    expect(
      growthExponent([
        [10, 1],
        [0, 3],
        [20, 0],
        [100, 100],
      ]),
    ).toBeCloseTo(2, 12);
  });
});

describe('log-log SVG', () => {
  const plot = (series: { name: string; points: [number, number][] }[]) =>
    logLogSvg({ title: 'gemm: A·B <n²>', xLabel: 'n', yLabel: 'time', series });
  const ours: [number, number][] = [
    [250, 2],
    [1000, 110],
    [3000, 2900],
  ];
  const numpy: [number, number][] = [
    [250, 0.8],
    [1000, 30],
  ];

  it('is well-formed SVG with two series and a legend naming both, text escaped', () => {
    const svg = plot([
      { name: 'mvstudio', points: ours },
      { name: 'numpy & co', points: numpy },
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(balanced(svg)).toBe(true);
    expect(attrs(svg, 'polyline')).toHaveLength(2);
    expect(attrs(svg, 'circle')).toHaveLength(ours.length + numpy.length);
    expect(svg).toContain('>mvstudio</text>');
    expect(svg).toContain('>numpy &amp; co</text>');
    expect(svg).toContain('gemm: A·B &lt;n²&gt;');
    expect(svg).not.toMatch(/<script/);
  });

  it('puts a labelled tick on every decade the data spans, and the points on that scale', () => {
    // x from 250 to 3000: decades 10², 10³, 10⁴; y from 0.8 ms to 2.9 s: 10⁻¹ … 10⁴ ms.
    expect(decadeRange(250, 3000)).toEqual([2, 4]);
    expect(decadeRange(0.8, 2900)).toEqual([-1, 4]);
    const svg = plot([
      { name: 'mvstudio', points: ours },
      { name: 'numpy', points: numpy },
    ]);
    const { width, height, left, right, top, bottom } = LAYOUT;
    const ticksX = attrs(svg, 'line').filter((a) => a.class === 'tick-x');
    const ticksY = attrs(svg, 'line').filter((a) => a.class === 'tick-y');
    expect(ticksX.map((a) => Number(a.x1))).toEqual([
      left,
      (left + width - right) / 2,
      width - right,
    ]);
    expect(ticksY).toHaveLength(6);
    expect(Number(ticksY[0]!.y1)).toBe(height - bottom);
    expect(Number(ticksY[5]!.y1)).toBe(top);
    for (const label of ['100', '1k', '10k', '100 µs', '1 ms', '10 ms', '100 ms', '1 s', '10 s'])
      expect(svg).toContain(`>${label}</text>`);
    // First point of the first series: n = 250, 2 ms, through the same log scales.
    const sx = logScale(2, 4, left, width - right);
    const sy = logScale(-1, 4, height - bottom, top);
    const first = attrs(svg, 'polyline')[0]!.points!.split(' ')[0]!.split(',').map(Number);
    expect(first[0]).toBeCloseTo(sx(250), 1);
    expect(first[1]).toBeCloseTo(sy(2), 1);
    // log scale: 10^2.5 lies half-way between the decades 10² and 10³.
    expect(sx(10 ** 2.5)).toBeCloseTo(left + (width - right - left) / 4, 9);
  });

  it('draws a series in its own colour when given, else in the palette order', () => {
    const svg = logLogSvg({
      title: 't',
      xLabel: 'n',
      yLabel: 'time',
      series: [
        { name: 'a', points: numpy },
        { name: 'b', points: ours, colour: '#123456' },
      ],
    });
    expect(attrs(svg, 'polyline').map((a) => a.stroke)).toEqual([COLOURS[0], '#123456']);
  });

  it('keeps a series without points in the legend, marked, and draws no line for it', () => {
    const svg = plot([
      { name: 'mvstudio', points: [] },
      { name: 'numpy', points: numpy },
    ]);
    expect(attrs(svg, 'polyline')).toHaveLength(1);
    expect(svg).toContain('>mvstudio (no data)</text>');
    expect(balanced(svg)).toBe(true);
  });
});

describe('tick labels', () => {
  it('formats milliseconds and counts by their decade', () => {
    expect([0.01, 0.1, 1, 10, 100, 1000, 1e4].map(formatMs)).toEqual([
      '10 µs',
      '100 µs',
      '1 ms',
      '10 ms',
      '100 ms',
      '1 s',
      '10 s',
    ]);
    expect([10, 100, 1e3, 1e5, 1e6].map(formatCount)).toEqual(['10', '100', '1k', '100k', '1M']);
    expect(escapeXml('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
  });
});
