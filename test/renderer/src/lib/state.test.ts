/** The renderer's state classes and helpers, without a DOM or a host (a fake `call`). */
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type {
  Channel,
  MethodInfo,
  Request,
  Response,
  RunInfo,
  RunResult,
} from '../../../../src/shared/contract';
import { presenceBits } from '../../../../src/shared/contract';
import { estimateRun, NN_WARN_BYTES } from '../../../../src/renderer/src/lib/estimate';
import { patternCounts, sampleOrder } from '../../../../src/renderer/src/lib/presence';
import { findSpectrum } from '../../../../src/renderer/src/lib/spectrum';
import {
  RunFormState,
  RunsState,
  compareCsv,
  compareRows,
  progressFraction,
} from '../../../../src/renderer/src/lib/runs.svelte';

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

function run(id: string, patch: Partial<RunInfo> = {}): RunInfo {
  return {
    id,
    datasetId: 'd1',
    datasetPath: '/data/x.mat',
    method: 'bsv',
    methodTitle: 'BSV',
    params: {},
    k: null,
    seed: 1,
    protocol: 'single',
    seeds: 1,
    batch: null,
    status: 'queued',
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

/** A fake host: records calls, answers from a table. */
function fakeHost(answers: Partial<{ [C in Channel]: (r: Request<C>) => Response<C> }>) {
  const calls: { channel: Channel; request: unknown }[] = [];
  const call = async <C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> => {
    calls.push({ channel, request });
    const answer = answers[channel] as ((r: Request<C>) => Response<C>) | undefined;
    if (!answer) throw new Error(`${channel}: no answer`);
    return answer(request);
  };
  return { call, calls };
}

describe('RunsState', () => {
  it('loads methods and runs, follows updates, and fetches the result of a run it started', async () => {
    const result = { id: 'r1' } as RunResult;
    const host = fakeHost({
      'methods:list': () => METHODS,
      'runs:list': () => [],
      'runs:start': () => run('r1'),
      'runs:result': () => result,
      'runs:cancel': () => null,
    });
    const s = new RunsState(host.call);
    await s.load();
    expect(s.methods.map((m) => m.name)).toEqual(['bsv', 'cgl']);
    await s.start({ datasetId: 'd1', method: 'bsv', params: {}, seed: 1, protocol: 'single' });
    expect(s.selectedId).toBe('r1');
    expect(s.active.map((r) => r.id)).toEqual(['r1']);
    s.update(run('r1', { status: 'running', startedAt: 1000 }));
    expect(s.runs).toHaveLength(1);
    expect(s.elapsed(s.runs[0]!)).toBeGreaterThan(0);
    s.tick(3000);
    expect(s.elapsed(s.runs[0]!)).toBe(2);
    await s.cancel();
    expect(host.calls.at(-1)).toEqual({ channel: 'runs:cancel', request: { id: 'r1' } });
    s.update(run('r1', { status: 'done', seconds: 1.5, metrics: { ACC: { mean: 0.9, std: 0 } } }));
    await new Promise((r) => setTimeout(r, 0));
    expect(s.result).toBe(result);
    expect(s.active).toEqual([]);
  });

  it('keeps a failure as its error, not as an exception', async () => {
    const s = new RunsState(fakeHost({}).call);
    await s.load();
    expect(s.error?.message).toBe('methods:list: no answer');
    s.dismissError();
    expect(s.error).toBeNull();
  });
});

describe('RunFormState', () => {
  it('starts from the schema’s defaults and sends only what differs', () => {
    const form = new RunFormState(() => METHODS);
    form.choose('bsv');
    flushSync();
    expect(form.values).toEqual({ neighbors: '10', gap: 'eigengap' });
    expect(form.valid).toBe(true);
    expect(form.request('d1')).toEqual({
      datasetId: 'd1',
      method: 'bsv',
      params: {},
      seed: 1,
      protocol: 'single',
    });
    form.values['neighbors'] = '12';
    form.protocol = 'paper';
    form.seeds = '5';
    form.k = '4';
    expect(form.request('d1', 'b1')).toEqual({
      datasetId: 'd1',
      method: 'bsv',
      params: { neighbors: 12 },
      seed: 1,
      protocol: 'paper',
      seeds: 5,
      k: 4,
      batch: 'b1',
    });
  });

  it('rejects out-of-range values with the schema’s message and makes no request', () => {
    const form = new RunFormState(() => METHODS);
    form.choose('bsv');
    form.values['neighbors'] = '101';
    form.seed = 'x';
    expect(form.errors).toEqual({
      neighbors: "parameter 'neighbors' must be an integer from 3 to 100; got 101",
      seed: 'the seed must be a whole number from 0; got "x"',
    });
    expect(form.valid).toBe(false);
    expect(form.request('d1')).toBeNull();
  });
});

describe('helpers', () => {
  it('progressFraction counts seeds done and the current seed', () => {
    const p = {
      seedIndex: 2,
      seedCount: 4,
      stage: 'solve',
      iteration: 25,
      objective: 1,
      elapsed: 1,
    };
    expect(
      progressFraction(run('a', { status: 'running', progress: p, maxIterations: 50 })),
    ).toBeCloseTo((1 + 0.4) / 4);
    expect(progressFraction(run('a', { status: 'done' }))).toBe(1);
    expect(progressFraction(run('a'))).toBe(0);
  });

  it('sorts the comparison by any metric and writes it as CSV', () => {
    const a = run('r1', {
      status: 'done',
      seconds: 2,
      metrics: { ACC: { mean: 0.5, std: 0.1 }, NMI: { mean: 0.9, std: 0 } },
    });
    const b = run('r2', {
      status: 'done',
      method: 'cgl',
      methodTitle: 'CGL',
      seconds: 1,
      metrics: { ACC: { mean: 0.7, std: 0.05 }, NMI: { mean: 0.1, std: 0 } },
    });
    expect(compareRows([a, b, run('r3')], 'ACC', true).map((r) => r.run.id)).toEqual(['r2', 'r1']);
    expect(compareRows([a, b], 'NMI', true).map((r) => r.run.id)).toEqual(['r1', 'r2']);
    expect(compareRows([a, b], 'time', false).map((r) => r.run.id)).toEqual(['r2', 'r1']);
    expect(compareCsv(compareRows([a, b], 'ACC', true))).toBe(
      'run,method,dataset,protocol,seeds,seed,ACC_mean,ACC_std,NMI_mean,NMI_std,seconds\n' +
        'r2,cgl,/data/x.mat,single,1,1,0.7,0.05,0.1,0,1\n' +
        'r1,bsv,/data/x.mat,single,1,1,0.5,0.1,0.9,0,2\n',
    );
  });

  it('orders samples by presence pattern, most complete first', () => {
    const presence = {
      n: 5,
      views: ['a', 'b'],
      bits: [presenceBits(5, [0, 2, 3]), presenceBits(5, [1, 2, 4])],
    };
    expect(sampleOrder(presence, false)).toEqual([0, 1, 2, 3, 4]);
    expect(sampleOrder(presence, true)).toEqual([2, 1, 4, 0, 3]);
    expect(patternCounts(presence)).toEqual([
      { views: [1], count: 2 },
      { views: [0], count: 2 },
      { views: [0, 1], count: 1 },
    ]);
  });

  it('warns before an n × n method (CGL’s dense path) on a large dataset, and estimates time from history', () => {
    const summary = {
      n: 20_000,
      views: [
        { name: 'a', d: 10, present: 20_000, sparse: false, nanCount: 0 },
        { name: 'b', d: 5, present: 10_000, sparse: false, nanCount: 0 },
      ],
    } as unknown as Parameters<typeof estimateRun>[0];
    // CGL's default (factorised) path holds no n × n array: no warning.
    const factorised = estimateRun(summary, METHODS[1]!, 1, [], 'd1');
    expect(factorised.needsNxN).toBe(false);
    expect(factorised.warning).toBeNull();
    expect(factorised.methodBytes).toBe(2 * 6 * 20_000 * 64 * 8);
    const e = estimateRun(summary, METHODS[1]!, 1, [], 'd1', { path: 'dense' });
    expect(e.dataBytes).toBe((20_000 * 10 + 10_000 * 5) * 8);
    expect(e.methodBytes).toBe(4 * 20_000 * 20_000 * 8);
    expect(e.methodBytes).toBeGreaterThan(NN_WARN_BYTES);
    expect(e.warning).toMatch(/4 dense 20,000 × 20,000 matrices \(about 11\.9 GB\)/);
    expect(e.seconds).toBeNull();
    const history = [
      run('r1', { status: 'done', method: 'bsv', seconds: 2, seeds: 1 }),
      run('r2', { status: 'done', method: 'bsv', seconds: 40, seeds: 10 }),
      run('r3', { status: 'done', method: 'bsv', seconds: 3, seeds: 1 }),
    ];
    const f = estimateRun(summary, METHODS[0]!, 5, history, 'd1');
    expect(f.warning).toBeNull();
    expect(f.seconds).toBe(15);
    expect(f.basis).toBe('from 3 earlier runs (3.00 s per seed)');
    // No run on this dataset: runs on another one, scaled by n·Σd (here 20,000 · 15 against
    // 1,000 · 15: ×20), and said to be rough.
    const other = [
      run('r4', { status: 'done', method: 'bsv', seconds: 4, seeds: 2, datasetId: 'd2' }),
    ];
    const g = estimateRun(summary, METHODS[0]!, 1, other, 'd1', {}, { d2: 1_000 * 15 });
    expect(g.seconds).toBe(40);
    expect(g.basis).toBe('rough: scaled by data size from 1 run on other datasets');
    expect(estimateRun(summary, METHODS[0]!, 1, other, 'd1').seconds).toBeNull();
  });
});

describe('findSpectrum', () => {
  it('reads a flat list as bars and CGL’s Fourier slices as lines per index', () => {
    expect(findSpectrum({ singularValues: [3, 2, 1] })).toEqual({
      kind: 'bars',
      values: [3, 2, 1],
    });
    expect(
      findSpectrum({
        spectrum: {
          slices: [0, 5],
          sigma: [
            [4, 1],
            [3, 0.5],
          ],
          kept: [
            [3, 0],
            [2, 0],
          ],
          keptSum: 0.8,
        },
      }),
    ).toEqual({
      kind: 'slices',
      slices: [0, 5],
      sigma: [
        [4, 3],
        [1, 0.5],
      ],
      kept: [
        [3, 2],
        [0, 0],
      ],
    });
    expect(findSpectrum({ missingPerView: [1, 2] })).toBeNull();
  });
});

describe('RunsState selection', () => {
  it('loads the result of a selected run when it finishes, even one it did not start', async () => {
    const host = fakeHost({ 'runs:result': ({ id }) => ({ id }) as RunResult });
    const s = new RunsState(host.call);
    s.update(run('r7', { status: 'running' }));
    s.select('r7');
    expect(s.result).toBeNull();
    s.update(run('r7', { status: 'done', seconds: 1 }));
    await new Promise((r) => setTimeout(r, 0));
    expect(s.result?.id).toBe('r7');
    expect(host.calls.filter((c) => c.channel === 'runs:result')).toHaveLength(1);
  });
});
