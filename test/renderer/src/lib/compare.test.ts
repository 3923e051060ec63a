import { describe, expect, it } from 'vitest';
import type { MethodInfo, RunInfo } from '../../../../src/shared/contract';
import {
  cohortTitle,
  compareCsv,
  compareGroups,
  differingParams,
  paramText,
  seedRange,
  type DatasetFacts,
} from '../../../../src/renderer/src/lib/compare';

const METHODS: MethodInfo[] = [
  {
    name: 'bsv',
    title: 'BSV',
    description: 'best single view',
    deterministic: true,
    params: [
      {
        name: 'neighbors',
        spec: { type: 'int', min: 3, max: 100, default: 10, doc: 'kNN' },
        expects: 'an integer from 3 to 100',
      },
      {
        name: 'gap',
        spec: { type: 'enum', values: ['eigengap', 'none'], default: 'eigengap', doc: 'rule' },
        expects: "one of 'eigengap', 'none'",
      },
    ],
  },
  { name: 'cgl', title: 'CGL', description: 'consensus graph', deterministic: false, params: [] },
];

const FACTS: Record<string, DatasetFacts> = {
  hw: { name: 'HW.mat', n: 2000, views: 6, classes: 10 },
  ngs: { name: 'NGs, v2.mat', n: 500, views: 3, classes: 5 },
};
const facts = (id: string): DatasetFacts | null => FACTS[id] ?? null;

function run(id: string, patch: Partial<RunInfo>): RunInfo {
  return {
    id,
    datasetId: 'hw',
    datasetPath: '/data/a/HW.mat',
    method: 'bsv',
    methodTitle: 'BSV',
    params: {},
    k: null,
    seed: 1,
    protocol: 'paper',
    seeds: 5,
    batch: null,
    preprocess: 'none',
    fill: null,
    status: 'done',
    progress: null,
    maxIterations: null,
    queuedAt: 0,
    startedAt: null,
    finishedAt: null,
    error: null,
    metrics: null,
    seconds: null,
    ...patch,
  };
}

const metrics = (acc: number, accStd: number, nmi: number, nmiStd: number) => ({
  ACC: { mean: acc, std: accStd },
  NMI: { mean: nmi, std: nmiStd },
});

const RUNS: RunInfo[] = [
  run('r1', { params: { neighbors: 15 }, metrics: metrics(0.8, 0.02, 0.7, 0.01), seconds: 3 }),
  run('r2', { metrics: metrics(0.9, 0.01, 0.75, 0.03), seconds: 2 }),
  run('r3', {
    method: 'cgl',
    methodTitle: 'CGL',
    protocol: 'single',
    seeds: 1,
    seed: 7,
    k: 10,
    preprocess: 'l2-rows',
    metrics: metrics(0.95, 0, 0.8, 0),
    seconds: 1,
  }),
  run('r4', {
    datasetId: 'ngs',
    datasetPath: '/data/b/NGs, v2.mat',
    method: 'cgl',
    methodTitle: 'CGL',
    seeds: 3,
    seed: 2,
    preprocess: 'zscore',
    fill: 'filled, 2 missing',
    metrics: metrics(0.5, 0.1, 0.4, 0.05),
    seconds: 4,
  }),
  run('r5', { status: 'running' }),
  run('r6', { status: 'failed' }),
];

describe('the comparison model', () => {
  it('groups finished runs by dataset and ranks only within cohorts of like runs', () => {
    const groups = compareGroups(RUNS, METHODS, facts, 'ACC', true);
    expect(groups.map((g) => g.datasetId)).toEqual(['hw', 'ngs']);
    const [hw, ngs] = groups;
    expect(hw!.facts).toEqual(FACTS['hw']);
    // Paper protocol × 5 seeds and a single run are unlike: two cohorts, five seeds first.
    expect(
      hw!.cohorts.map((c) => ({
        title: cohortTitle(c),
        rows: c.rows.map((r) => [r.run.id, r.rank, r.k]),
      })),
    ).toEqual([
      {
        title: 'Paper protocol, 5 seeds, k = 10',
        rows: [
          ['r2', 1, 10],
          ['r1', 2, 10],
        ],
      },
      { title: 'Single run, 1 seed, k = 10', rows: [['r3', null, 10]] },
    ]);
    expect(hw!.differing).toEqual({ bsv: ['neighbors'] });
    expect(ngs!.cohorts.map((c) => c.rows.map((r) => [r.run.id, r.rank]))).toEqual([
      [['r4', null]],
    ]);
    expect(ngs!.differing).toEqual({});
    // Sorted by time, ascending: the ranks follow the sort.
    const byTime = compareGroups(RUNS, METHODS, facts, 'time', false)[0]!.cohorts[0]!;
    expect(byTime.rows.map((r) => [r.run.id, r.rank])).toEqual([
      ['r2', 1],
      ['r1', 2],
    ]);
    // Sorted by method name: an order, not a rank.
    const byName = compareGroups(RUNS, METHODS, facts, 'method', false)[0]!.cohorts[0]!;
    expect(byName.rows.map((r) => r.rank)).toEqual([null, null]);
  });

  it('keeps runs with different k apart, and leaves k unknown without labels', () => {
    const runs = [
      run('a', { metrics: metrics(0.5, 0, 0.5, 0) }),
      run('b', { k: 12, metrics: metrics(0.6, 0, 0.5, 0) }),
    ];
    const [g] = compareGroups(runs, METHODS, facts, 'ACC', true);
    expect(g!.cohorts.map((c) => [c.k, c.rows.length])).toEqual([
      [10, 1],
      [12, 1],
    ]);
    const [u] = compareGroups(runs, METHODS, () => null, 'ACC', true);
    expect(u!.facts).toBeNull();
    expect(u!.cohorts.map((c) => cohortTitle(c))).toEqual([
      'Paper protocol, 5 seeds, k = the class count',
      'Paper protocol, 5 seeds, k = 12',
    ]);
  });

  it('states the parameters that differ and the seeds a run used', () => {
    const rows = [{ params: { a: 1, b: 'x', c: true } }, { params: { a: 2, b: 'x', c: false } }];
    expect(differingParams(rows)).toEqual(['a', 'c']);
    expect(paramText(rows[0]!, ['a', 'c'])).toBe('a = 1, c = true');
    expect(paramText(rows[0]!, [])).toBe('');
    expect(seedRange(run('x', { seed: 1, seeds: 20 }))).toBe('1..20');
    expect(seedRange(run('x', { seed: 7, seeds: 1, protocol: 'single' }))).toBe('7');
  });

  it('writes dataset, every parameter, k, protocol, seeds and each metric as CSV', () => {
    const csv = compareCsv(compareGroups(RUNS, METHODS, facts, 'ACC', true));
    expect(csv).toBe(
      'dataset,dataset_path,method,run,neighbors,gap,k,protocol,seeds,seed_range,seed,' +
        'preprocess,fill_note,ACC_mean,ACC_std,NMI_mean,NMI_std,seconds\n' +
        'HW.mat,/data/a/HW.mat,bsv,r2,10,eigengap,10,paper,5,1..5,1,none,,0.9,0.01,0.75,0.03,2\n' +
        'HW.mat,/data/a/HW.mat,bsv,r1,15,eigengap,10,paper,5,1..5,1,none,,0.8,0.02,0.7,0.01,3\n' +
        'HW.mat,/data/a/HW.mat,cgl,r3,,,10,single,1,7,7,l2-rows,,0.95,0,0.8,0,1\n' +
        '"NGs, v2.mat","/data/b/NGs, v2.mat",cgl,r4,,,5,paper,3,2..4,2,zscore,' +
        '"filled, 2 missing",0.5,0.1,0.4,0.05,4\n',
    );
  });

  it('renames a parameter column that would clash with a fixed one', () => {
    const odd: MethodInfo = {
      name: 'odd',
      title: 'Odd',
      description: '',
      deterministic: true,
      params: [
        {
          name: 'k',
          spec: { type: 'int', min: 1, max: 9, default: 3, doc: '' },
          expects: 'an integer from 1 to 9',
        },
      ],
    };
    const runs = [run('z', { method: 'odd', metrics: { ACC: { mean: 1, std: 0 } } })];
    const csv = compareCsv(compareGroups(runs, [odd], () => null, 'ACC', true));
    expect(csv).toBe(
      'dataset,dataset_path,method,run,param_k,k,protocol,seeds,seed_range,seed,preprocess,' +
        'fill_note,ACC_mean,ACC_std,seconds\n' +
        'HW.mat,/data/a/HW.mat,odd,z,3,,paper,5,1..5,1,none,,1,0,\n',
    );
  });
});
