/** The study spec: validation messages naming the field path, and the expansion into cells. */
import { describe, expect, it } from 'vitest';
import {
  StudySpecError,
  expandCells,
  kMultiple,
  validateStudySpec,
} from '../../../src/core/study/spec';

const base = {
  name: 'toy',
  methods: [{ method: 'imvc-cbg' }, { method: 'kmeans-concat', label: 'concat' }],
  datasets: [
    { file: 'a/NGs.mat' },
    { files: ['v1.csv', 'v2.csv'], label: 'two', labelsFile: 'y.csv' },
  ],
};

/** The problems validateStudySpec reports for `raw`. */
function problems(raw: unknown): readonly string[] {
  try {
    validateStudySpec(raw);
  } catch (e) {
    if (e instanceof StudySpecError) return e.problems;
    throw e;
  }
  return [];
}

describe('validateStudySpec', () => {
  it('fills the defaults of a minimal spec', () => {
    const spec = validateStudySpec(base);
    expect(spec.methods.map((m) => m.label)).toEqual(['imvc-cbg', 'concat']);
    expect(spec.datasets.map((d) => d.label)).toEqual(['NGs', 'two']);
    expect(spec.datasets[1]!.load).toEqual({ labelsFile: 'y.csv' });
    expect(spec.seeds).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(spec.protocol).toEqual({ k: null, preprocess: 'none', replicates: 20 });
    expect(spec.metrics).toEqual(['acc', 'nmi', 'purity', 'ari', 'f', 'silhouette']);
    expect(spec.selection).toEqual({ oracle: 'acc', labelFree: 'auto' });
  });

  it('names the field path and what was expected', () => {
    const raw = {
      ...base,
      methods: [
        { method: 'imvc-cbg' },
        { method: 'kmeans-concat', label: 'concat' },
        { method: 'imvc-cbg', label: 'cbg2', params: { lambda: 'x', nope: 1 } },
        { method: 'no-such-method', label: 'z' },
      ],
    };
    const p = problems(raw);
    expect(p).toContain('methods[2].params.lambda: expected a number from 0 to 1000000, got "x"');
    expect(
      p.find((x) =>
        x.startsWith('methods[2].params.nope: unknown parameter; parameters: anchors, lambda'),
      ),
    ).toBeDefined();
    expect(
      p.find((x) => x.startsWith('methods[3].method: unknown method "no-such-method"; methods: ')),
    ).toBeDefined();
  });

  it('refuses duplicate labels, bad seeds, protocol, metrics and selection', () => {
    const p = problems({
      ...base,
      methods: [{ method: 'imvc-cbg' }, { method: 'imvc-cbg' }],
      seeds: [1, 1],
      protocol: { k: 1, preprocess: 'pca', extra: true },
      metrics: ['acc', 'auc'],
      selection: { oracle: 'silhouette' },
      colour: 'red',
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'colour: unknown field; fields: name, methods, datasets, grid, seeds, protocol, metrics, selection',
        'methods[1].label: "imvc-cbg" is already used: give each entry its own label',
        'seeds: a seed appears twice',
        'protocol.extra: unknown field; fields: k, preprocess, replicates',
        'protocol.k: expected an integer from 2 to 9007199254740991, got 1',
        'protocol.preprocess: expected one of none, l2-rows, zscore, got "pca"',
        'metrics[1]: expected one of acc, nmi, purity, ari, f, silhouette, got "auc"',
        'selection.oracle: expected one of acc, nmi, purity, ari, f, got "silhouette"',
      ]),
    );
  });

  it('checks grids against the schema; k-relative values only for integers', () => {
    const p = problems({
      ...base,
      grid: {
        'imvc-cbg': { lambda: [0, '2k', -1], anchors: ['k', 2.5], bogus: [1] },
        concat: { normalize: [] },
        ghost: { x: [1] },
      },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'grid.imvc-cbg.lambda[1]: "2k": only integer parameters take k-relative values',
        'grid.imvc-cbg.lambda[2]: expected a number from 0 to 1000000, got -1',
        'grid.imvc-cbg.anchors[1]: expected an integer from 0 to 10000, got 2.5',
        'grid.concat.normalize: expected a non-empty list of values, got []',
        'grid.ghost: no method entry has this label; labels: imvc-cbg, concat',
      ]),
    );
    expect(p.find((x) => x.startsWith('grid.imvc-cbg.bogus: unknown parameter'))).toBeDefined();
  });

  it('expands a missing-rate series into one entry per rate', () => {
    const spec = validateStudySpec({
      ...base,
      datasets: [{ file: 'a/NGs.mat', missingRates: [0.1, 0.5], maskSeed: 4 }, { file: 'b.mat' }],
    });
    expect(spec.datasets.map((d) => [d.label, d.missingRate, d.maskSeed])).toEqual([
      ['NGs@0.1', 0.1, 4],
      ['NGs@0.5', 0.5, 4],
      ['b', null, null],
    ]);
    const cells = expandCells(spec, () => 3);
    expect(cells.map((c) => c.missingRate)).toEqual([0.1, 0.5, null, 0.1, 0.5, null]);
    expect(
      problems({
        ...base,
        datasets: [
          { file: 'a.mat', missingRates: [0.1, 1, 0.1], mask: 'm.mat' },
          { file: 'c.mat', maskSeed: 2 },
        ],
      }),
    ).toEqual([
      'datasets[0].mask: a missing-rate series makes its own masks: give mask or missingRates, not both',
      'datasets[0].missingRates[1]: expected a number from 0 to 1 (excluded), got 1',
      'datasets[0].missingRates: a rate appears twice',
      'datasets[0].label: "a@0.1" is already used',
      'datasets[1].maskSeed: a mask seed goes with missingRates',
    ]);
  });

  it('reads a seed count and a seed list', () => {
    expect(validateStudySpec({ ...base, seeds: 3 }).seeds).toEqual([1, 2, 3]);
    expect(validateStudySpec({ ...base, seeds: [7, 3] }).seeds).toEqual([7, 3]);
    expect(problems({ ...base, seeds: 0 })).toEqual([
      'seeds: expected an integer from 1 to 1000, got 0',
    ]);
  });
});

describe('kMultiple', () => {
  it('reads k, 2k, 0.5k and nothing else', () => {
    expect([
      kMultiple('k'),
      kMultiple('2k'),
      kMultiple('0.5k'),
      kMultiple('k2'),
      kMultiple(3),
    ]).toEqual([1, 2, 0.5, null, null]);
  });
});

describe('expandCells', () => {
  const spec = validateStudySpec({
    ...base,
    grid: { 'imvc-cbg': { lambda: [0, 1], anchors: ['k', '2k', 7] } },
  });
  const cells = expandCells(spec, (d) => (d === 'NGs' ? 5 : 3));

  it('makes entries × datasets × grid points, the last parameter fastest, with stable ids', () => {
    expect(cells).toHaveLength(2 * 6 + 2);
    expect(cells.map((c) => c.id).slice(0, 3)).toEqual(['c0001', 'c0002', 'c0003']);
    expect(cells.slice(0, 6).map((c) => [c.dataset, c.grid['lambda'], c.grid['anchors']])).toEqual([
      ['NGs', 0, 5],
      ['NGs', 0, 10],
      ['NGs', 0, 7],
      ['NGs', 1, 5],
      ['NGs', 1, 10],
      ['NGs', 1, 7],
    ]);
    expect(cells[6]).toMatchObject({ dataset: 'two', grid: { lambda: 0, anchors: 3 } });
    expect(cells[12]).toMatchObject({ id: 'c0013', label: 'concat', dataset: 'NGs', grid: {} });
    expect(expandCells(spec, (d) => (d === 'NGs' ? 5 : 3))).toEqual(cells);
  });

  it('gives every parameter of the run, defaults filled', () => {
    expect(cells[1]!.params).toMatchObject({ lambda: 0, anchors: 10, iterations: 50, tol: 1e-3 });
  });

  it('refuses a k-relative value out of bounds, naming the grid path and the dataset', () => {
    const big = validateStudySpec({ ...base, grid: { 'imvc-cbg': { anchors: ['5k'] } } });
    expect(() => expandCells(big, () => 4000)).toThrow(
      'grid.imvc-cbg.anchors: "5k" with k = 4000 (NGs): expected an integer from 0 to 10000, got 20000',
    );
  });
});
