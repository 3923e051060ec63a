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
import { patternCounts, sampleOrder } from '../../../../src/renderer/src/lib/presence';
import { spectrumLines, weightTraceLines } from '../../../../src/renderer/src/lib/spectrum';
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
    preprocess: 'none',
    fill: null,
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

  it('open: a reopened bundle joins the list, is selected and its result loaded', async () => {
    const result = { id: 'r7' } as RunResult;
    const host = fakeHost({
      'runs:open': () => run('r7', { status: 'done', seconds: 2 }),
      'runs:result': () => result,
    });
    const s = new RunsState(host.call);
    const info = await s.open('/runs/x-bsv-1');
    expect(info?.id).toBe('r7');
    expect(host.calls[0]).toEqual({ channel: 'runs:open', request: { path: '/runs/x-bsv-1' } });
    expect(s.selectedId).toBe('r7');
    await new Promise((r) => setTimeout(r, 0));
    expect(s.result).toBe(result);
    const failing = new RunsState(fakeHost({}).call);
    expect(await failing.open('/nope')).toBeNull();
    expect(failing.error?.message).toBe('runs:open: no answer');
  });

  it('keeps a run that failed before runs:start answered as failed', async () => {
    const failed = run('r2', { status: 'failed', error: { name: 'DataError', message: 'gone' } });
    const host = fakeHost({
      // The host pushes the failure event before its answer (still "queued") arrives.
      'runs:start': () => {
        s.update(failed);
        return run('r2');
      },
    });
    const s = new RunsState(host.call);
    await s.start({ datasetId: 'd1', method: 'bsv', params: {}, seed: 1, protocol: 'single' });
    expect(s.runs.map((r) => r.status)).toEqual(['failed']);
    expect(s.active).toEqual([]);
    s.update(run('r2', { status: 'running' }));
    expect(s.runs[0]!.status).toBe('failed');
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
    // The preprocessing: absent while 'none' (the default), else carried.
    expect(form.preprocess).toBe('none');
    form.preprocess = 'l2-rows';
    expect(form.request('d1')?.preprocess).toBe('l2-rows');
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

  // The memory part (CGL's dense path warned about, its factorised one not) is the host's
  // now: test/backend/estimate.test.ts, with the same figures.
});

describe('the typed charts’ lines', () => {
  it('draws a sliced spectrum as one line per index over the slices, kept ones dashed', () => {
    const lines = spectrumLines({
      kind: 'slices',
      title: 'σ',
      slices: [0, 5],
      sigma: [
        [4, 1],
        [3, 0.5],
      ],
      kept: [
        [3, 0],
        [2, 0],
      ],
    });
    expect(lines.map((l) => [l.label, l.y, l.dashed])).toEqual([
      ['σ1', [4, 3], false],
      ['σ2', [1, 0.5], false],
      ['σ1 kept', [3, 2], true],
      ['σ2 kept', [0, 0], true],
    ]);
    expect(lines.every((l) => l.x.join() === '0,5')).toBe(true);
    expect(
      spectrumLines({ kind: 'slices', title: 'σ', slices: [0], sigma: [[2]], kept: null }),
    ).toHaveLength(1);
  });

  it('draws a weights trace as one line per item over iterations 1..T', () => {
    const chart = {
      title: 'α',
      labels: ['a', 'b'],
      values: [0.25, 0.75],
      trace: [
        [0.5, 0.5],
        [0.25, 0.75],
      ],
    };
    expect(weightTraceLines(chart)).toEqual([
      { label: 'a', x: [1, 2], y: [0.5, 0.25], index: 0, dashed: false },
      { label: 'b', x: [1, 2], y: [0.5, 0.75], index: 1, dashed: false },
    ]);
    expect(weightTraceLines({ title: 'α', labels: ['a'], values: [1] })).toEqual([]);
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

describe('RunsState seeds and re-runs', () => {
  it('shows another seed of the selected run, and exports that seed’s labels', async () => {
    const host = fakeHost({
      'runs:result': ({ id, seed }) => ({ id, seed: seed ?? 3 }) as RunResult,
      'runs:exportLabels': ({ path }) => ({ path, rows: 4 }),
    });
    const s = new RunsState(host.call);
    s.update(run('r2', { status: 'done', protocol: 'paper', seed: 3, seeds: 4, seconds: 1 }));
    s.select('r2');
    await new Promise((r) => setTimeout(r, 0));
    expect(s.result?.seed).toBe(3);
    await s.showSeed(5);
    expect(s.result).toEqual({ id: 'r2', seed: 5 });
    expect(host.calls.at(-1)).toEqual({ channel: 'runs:result', request: { id: 'r2', seed: 5 } });
    expect(await s.exportLabels('r2', '/tmp/l.csv', 5)).toBe(4);
    expect(host.calls.at(-1)!.request).toEqual({ id: 'r2', path: '/tmp/l.csv', seed: 5 });
  });

  it('runs a cancelled run again as it was asked for, and follows it', async () => {
    const host = fakeHost({ 'runs:start': () => run('r9') });
    const s = new RunsState(host.call);
    const old = run('r8', {
      status: 'cancelled',
      params: { neighbors: 7 },
      k: 4,
      seed: 2,
      protocol: 'paper',
      seeds: 6,
      batch: 'b1',
    });
    s.update(old);
    await s.runAgain(old);
    expect(host.calls[0]!.request).toEqual({
      datasetId: 'd1',
      method: 'bsv',
      params: { neighbors: 7 },
      k: 4,
      seed: 2,
      protocol: 'paper',
      seeds: 6,
    });
    expect(s.selectedId).toBe('r9');
  });
});
