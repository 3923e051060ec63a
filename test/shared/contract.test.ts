import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  EVENTS,
  isChannel,
  isEventName,
  parseRequest,
  reviveError,
  serializeError,
} from '../../src/shared/contract';
import { fromWireJson, toWireJson } from '../../src/shared/wire';
import type { ChooseKInfo } from '../../src/shared/choose-k';
import type { StudyInfo } from '../../src/shared/study';
import type {
  Channel,
  DatasetEntry,
  Envelope,
  EventName,
  EventPayload,
  Request,
  Response,
  RunInfo,
  RunResult,
} from '../../src/shared/contract';

const entry: DatasetEntry = {
  id: '0123456789abcdef',
  path: '/data/NGs_Per0.5.mat',
  files: ['/data/NGs_Per0.5.mat'],
  options: { mask: 'folds.mat', fold: 2, orientation: 'd x n' },
  bundled: true,
  summary: {
    file: '/data/NGs_Per0.5.mat',
    format: 'mat-v5',
    n: 500,
    views: [
      { name: 'data{1}', d: 2000, present: 374, sparse: false, nanCount: 0 },
      { name: 'data{2}', d: 2000, present: 372, sparse: true, nanCount: 3 },
    ],
    labels: { source: 'truelabel{1}', classes: [1, 2, 'x'], sizes: [100, 100, 300] },
    samplesByViewCount: [100, 400],
    missingness: 'nan-columns',
    variables: ['data', 'truelabel', 'index'],
    orientation: ['d x n', 'd x n'],
    decisions: [
      { topic: 'views', choice: 'data', reason: 'a cell of matrices', overridden: false },
    ],
    warnings: ['one warning'],
  },
};

const run: RunInfo = {
  id: 'r1',
  datasetId: entry.id,
  datasetPath: entry.path,
  method: 'bsv',
  methodTitle: 'BSV',
  params: { neighbors: 10, gap: 'eigengap', flag: true },
  k: null,
  seed: 1,
  protocol: 'paper',
  seeds: 5,
  batch: 'b1',
  preprocess: 'l2-rows',
  fill: null,
  status: 'running',
  progress: {
    seedIndex: 2,
    seedCount: 5,
    stage: 'kmeans',
    iteration: 3,
    objective: 1.5,
    elapsed: 0.7,
  },
  maxIterations: null,
  queuedAt: 1_764_480_000_000,
  startedAt: 1_764_480_000_100,
  finishedAt: null,
  error: null,
  metrics: null,
  seconds: null,
};

const result: RunResult = {
  id: 'r1',
  method: 'bsv',
  k: 2,
  params: { neighbors: 10 },
  protocol: 'single',
  seeds: [1],
  preprocess: 'zscore',
  fill: 'missing samples imputed',
  metrics: { ACC: { mean: 0.75, std: 0 } },
  perSeed: [{ seed: 1, metrics: { ACC: 0.75 } }],
  seed: 1,
  sharedSolve: false,
  objective: [3, 2, 1],
  traces: { kmeans: [5, 4] },
  iterations: 3,
  converged: true,
  notes: [],
  stages: [{ stage: 'load', seconds: 0.1 }],
  totalSeconds: 0.2,
  projection: {
    x: Float32Array.from([0, 1, 2, 3]),
    y: Float32Array.from([1, 0, 1, 0]),
    explained: [0.8, 0.2],
    dims: 2,
  },
  clusters: Uint8Array.from([0, 0, 1, 1]),
  truth: Uint8Array.from([0, 1, 1, 1]),
  classes: [1, 2],
  missingViews: Uint8Array.from([0, 1, 0, 0]),
  sampleIds: null,
  confusion: {
    counts: [
      [1, 0],
      [1, 2],
    ],
    clusterOrder: [0, 1],
  },
  charts: {
    spectrum: { kind: 'bars', title: 'σ', values: [3, 2, 1] },
    weights: { title: 'α', labels: ['a', 'b'], values: [0.4, 0.6], trace: [[0.5, 0.5]] },
    heatmap: { title: 'W', rows: ['a'], cols: ['x', 'y'], values: [[1, 2]] },
  },
  diagnostics: { spectrum: [3, 2, 1] },
  bundle: null,
};

const chooseK: ChooseKInfo = {
  id: 'c1',
  datasetId: entry.id,
  method: 'bsv',
  from: 2,
  to: 3,
  status: 'done',
  progress: { index: 2, count: 2, k: 3, stage: 'metrics' },
  result: {
    method: 'bsv',
    from: 2,
    to: 3,
    seed: 0,
    points: [
      { k: 2, silhouette: 0.5, objective: null, clusters: 2 },
      { k: 3, silhouette: null, objective: 1.5, clusters: 2 },
    ],
    eigengap: { source: 'g', eigenvalues: [1, 0.9, 0.2, 0.1], gaps: [0.1, 0.7, 0.1], suggested: 2 },
    silhouetteK: 2,
    silhouetteNote: 'views',
  },
  error: null,
};

const study: StudyInfo = {
  id: 's1',
  name: 'toy',
  dir: '/studies/toy',
  status: 'running',
  done: 1,
  total: 4,
  etaSeconds: 3.5,
  error: null,
};

/** One request and one response per channel; a missing channel is a compile error. */
const EXAMPLES: { [C in Channel]: { request: Request<C>; responses: Response<C>[] } } = {
  'datasets:list': { request: null, responses: [[], [entry]] },
  'datasets:open': {
    request: { path: '/data/x.mat', options: { views: 'X', labels: 'none', labelsFile: 'y.csv' } },
    responses: [entry],
  },
  'datasets:remove': { request: { id: entry.id }, responses: [null] },
  'datasets:presence': {
    request: { id: entry.id },
    responses: [{ n: 3, views: ['a', 'b'], bits: [Uint8Array.from([7]), Uint8Array.from([2])] }],
  },
  'datasets:generateMissing': {
    request: { id: entry.id, completeFraction: 0.5, seed: 3 },
    responses: [{ entry, protocol: '50% of the samples stay complete' }],
  },
  'datasets:save': {
    request: { id: entry.id, path: '/data/x-missing.mat' },
    responses: [{ path: '/data/x-missing.mat', format: 'mat' }],
  },
  'dialog:openDataset': { request: null, responses: ['/data/x.mat', null] },
  'dialog:openDatasetFiles': { request: null, responses: [['/data/a.csv', '/data/b.csv'], null] },
  'dialog:saveFile': { request: { defaultName: 'labels.csv' }, responses: ['/x/labels.csv', null] },
  'methods:list': {
    request: null,
    responses: [
      [
        {
          name: 'bsv',
          title: 'BSV',
          description: 'd',
          deterministic: true,
          params: [
            {
              name: 'neighbors',
              spec: { type: 'int', min: 3, max: 100, default: 10, doc: 'k' },
              expects: 'an integer from 3 to 100',
            },
          ],
        },
      ],
    ],
  },
  'runs:estimate': {
    request: { datasetId: entry.id, method: 'bsv', params: { neighbors: 10 }, k: 5 },
    responses: [
      {
        dataBytes: 800,
        methodBytes: 6400,
        quadratic: true,
        note: '4 dense n × n arrays',
        warning: 'BSV keeps 4 dense n × n arrays with n = 20,000: it may run out of memory',
        refusal: null,
      },
    ],
  },
  'runs:start': {
    request: {
      datasetId: entry.id,
      method: 'bsv',
      params: { neighbors: 10, gap: 'x', on: false, sigma: [0.5, 2], widths: null },
      k: 5,
      seed: 0,
      protocol: 'paper',
      seeds: 5,
      batch: 'b1',
      preprocess: 'zscore',
    },
    responses: [run],
  },
  'runs:list': { request: null, responses: [[], [run]] },
  'runs:cancel': { request: { id: 'r1' }, responses: [null] },
  'runs:result': { request: { id: 'r1', seed: 1 }, responses: [result] },
  'runs:open': { request: { path: '/runs/x-bsv-1-20261202T000000000Z' }, responses: [run] },
  'runs:exportLabels': {
    request: { id: 'r1', path: '/tmp/labels.csv', seed: 1 },
    responses: [{ path: '/tmp/labels.csv', rows: 4 }],
  },
  'runs:exportBundle': {
    request: { id: 'r1', path: '/tmp/run' },
    responses: [{ path: '/tmp/run' }],
  },
  'runs:chooseK': {
    request: { datasetId: entry.id, method: 'bsv', params: {}, from: 2, to: 4, seed: 0 },
    responses: [chooseK],
  },
  'runs:chooseKStatus': { request: { id: 'c1' }, responses: [chooseK] },
  'runs:chooseKCancel': { request: { id: 'c1' }, responses: [null] },
  'studies:start': {
    request: { spec: { methods: [{ method: 'bsv' }], datasets: [{ file: '/x.mat' }] }, dir: '/s' },
    responses: [study],
  },
  'studies:status': { request: { id: 's1' }, responses: [study] },
  'studies:cancel': { request: { id: 's1' }, responses: [null] },
  'studies:open': { request: { path: '/studies/toy' }, responses: [{ ...study, status: 'done' }] },
  'studies:report': {
    request: { id: 's1', metric: 'nmi', rule: 'label-free' },
    responses: [
      {
        name: 'toy',
        metric: 'nmi',
        rule: 'label-free',
        tables: ['<table class="study"></table>'],
        charts: [{ title: 'bsv on x', svg: '<svg></svg>' }],
        failures: [],
      },
    ],
  },
  'files:saveText': {
    request: { path: '/tmp/t.csv', text: 'a,b\n' },
    responses: [{ path: '/tmp/t.csv' }],
  },
  'files:savePng': {
    request: { path: '/tmp/c.png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' },
    responses: [{ path: '/tmp/c.png' }],
  },
};

const EVENT_EXAMPLES: { [E in EventName]: EventPayload<E> } = {
  'menu:open': null,
  'menu:run': null,
  'menu:cancel': null,
  'runs:update': run,
  'menu:openRun': { path: '/runs/x-bsv-1-20261202T000000000Z' },
  'studies:update': study,
};

describe('contract', () => {
  it('lists every channel and event exactly once', () => {
    expect([...CHANNELS].sort()).toEqual(Object.keys(EXAMPLES).sort());
    expect([...EVENTS].sort()).toEqual(Object.keys(EVENT_EXAMPLES).sort());
    expect(CHANNELS.every(isChannel)).toBe(true);
    expect(EVENTS.every(isEventName)).toBe(true);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isEventName('datasets:list')).toBe(false);
  });

  it('example values survive structured clone and the web host’s JSON (typed arrays tagged)', () => {
    for (const channel of CHANNELS) {
      const { request, responses } = EXAMPLES[channel];
      expect(structuredClone(request)).toEqual(request);
      expect(JSON.parse(JSON.stringify(request))).toEqual(request);
      for (const response of responses) {
        const envelope: Envelope<unknown> = { ok: true, value: response };
        expect(structuredClone(envelope)).toEqual(envelope);
        expect(fromWireJson(toWireJson(envelope))).toStrictEqual(envelope);
      }
    }
    for (const payload of Object.values(EVENT_EXAMPLES)) {
      expect(structuredClone(payload)).toEqual(payload);
    }
  });

  it('every example request passes its own validation unchanged', () => {
    for (const channel of CHANNELS) {
      const { request } = EXAMPLES[channel];
      expect(parseRequest(channel, structuredClone(request))).toEqual(request);
    }
  });

  it('refuses malformed run requests naming the field', () => {
    const ok = EXAMPLES['runs:start'].request;
    const bad =
      (patch: Record<string, unknown>): (() => unknown) =>
      () =>
        parseRequest('runs:start', { ...ok, ...patch });
    expect(bad({ seed: -1 })).toThrow("runs:start: 'seed' must be a non-negative integer");
    expect(bad({ protocol: 'x' })).toThrow("'protocol' must be 'single' or 'paper'");
    expect(bad({ k: 0 })).toThrow("'k' must be a positive integer");
    expect(bad({ params: { a: [1, 'x'] } })).toThrow(
      "parameter 'a' must be a number, boolean, string, list of numbers or null",
    );
    expect(bad({ params: { a: { b: 1 } } })).toThrow("parameter 'a' must be a number");
    expect(bad({ preprocess: 'whiten' })).toThrow(
      "runs:start: 'preprocess' must be one of 'none', 'l2-rows', 'zscore', got \"whiten\"",
    );
    expect(bad({ preprocess: 1 })).toThrow("'preprocess' must be one of");
    expect(bad({ extra: 1 })).toThrow("unknown field 'extra'");
    expect(() =>
      parseRequest('files:savePng', { path: '/x', dataUrl: 'data:text/html,x' }),
    ).toThrow('data:image/png');
    expect(() => parseRequest('studies:start', { spec: [], dir: '/s' })).toThrow(
      "studies:start: 'spec' must be an object",
    );
    expect(() => parseRequest('studies:report', { id: 's1', rule: 'best' })).toThrow(
      "'rule' must be 'oracle' or 'label-free'",
    );
    expect(() => parseRequest('studies:open', { path: ' ' })).toThrow(
      "studies:open: 'path' must be a non-empty string",
    );
  });

  it('round-trips errors with name, message and data', () => {
    const e = Object.assign(new Error('/x.mat: variable X is not a cell'), {
      name: 'DataError',
      data: { file: '/x.mat', variables: ['X', 'Y'] },
    });
    const wire = structuredClone(serializeError(e));
    expect(wire).toEqual({
      name: 'DataError',
      message: '/x.mat: variable X is not a cell',
      data: { file: '/x.mat', variables: ['X', 'Y'] },
    });
    const back = reviveError(JSON.parse(JSON.stringify(wire)));
    expect(back).toBeInstanceOf(Error);
    expect(back.name).toBe('DataError');
    expect(back.message).toBe(e.message);
    expect((back as Error & { data?: unknown }).data).toEqual(e.data);

    expect(serializeError(new TypeError('t'))).toEqual({ name: 'TypeError', message: 't' });
    expect(serializeError('plain string')).toEqual({ name: 'Error', message: 'plain string' });
    expect('data' in reviveError({ name: 'E', message: 'm' })).toBe(false);
  });
});
