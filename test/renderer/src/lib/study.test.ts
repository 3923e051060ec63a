/**
 * The Study screen's spec draft (lib/study-spec.ts) and state (lib/study.svelte.ts), without a
 * DOM or a host: a spec built as the screen builds it is what core/study/spec.ts validates, a
 * spec file written for the CLI loads and saves back to the same spec, the grid text parses to
 * the schema's types (k-relative values for integers only), and the state follows a study to
 * its report through a fake `call`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { methodInfos } from '../../../../src/backend/runs';
import { expandCells, validateStudySpec } from '../../../../src/core/study/spec';
import type {
  Channel,
  DatasetEntry,
  MethodInfo,
  Request,
  Response,
} from '../../../../src/shared/contract';
import type { StudyInfo, StudyReport } from '../../../../src/shared/study';
import {
  cellCount,
  datasetEntry,
  datasetKey,
  datasetLabel,
  draftFromJson,
  draftToJson,
  emptyDraft,
  parseGridText,
} from '../../../../src/renderer/src/lib/study-spec';
import { POLL_MS, StudyState } from '../../../../src/renderer/src/lib/study.svelte';

const methods: readonly MethodInfo[] = methodInfos();
const method = (name: string): MethodInfo => methods.find((m) => m.name === name)!;
const param = (m: string, p: string) => method(m).params.find((x) => x.name === p)!;

const entry = (path: string, files = [path], options = {}): DatasetEntry =>
  ({
    id: path,
    path,
    files,
    options,
    summary: { n: 10, views: [] },
    bundled: false,
  }) as unknown as DatasetEntry;

/** The spec of docs/studies.md, as a user would write it for the CLI. */
const CLI_SPEC = {
  name: 'ngs-anchors',
  methods: [
    { method: 'imvc-cbg', label: 'IMVC-CBG', params: { iterations: 50 } },
    { method: 'kmeans-concat', label: 'Concat', params: { normalize: 'l2-rows' } },
  ],
  datasets: [
    { file: '/data/NGs/NGs_Per0.5.mat', label: 'NGs-half' },
    { files: ['/data/view1.csv', '/data/view2.csv'], labelsFile: '/data/labels.csv', label: 'toy' },
    { file: '/data/NGs.mat', missingRates: [0.1, 0.5], maskSeed: 3 },
  ],
  grid: { 'IMVC-CBG': { lambda: [0, 0.001, 0.1, 1, 10], anchors: ['k', '2k', '3k', '5k'] } },
  seeds: [1, 2, 5],
  protocol: { k: 5, preprocess: 'none', replicates: 20 },
  metrics: ['acc', 'nmi', 'purity', 'ari', 'f', 'silhouette'],
  selection: { oracle: 'acc', labelFree: 'auto' },
};

describe('the spec draft', () => {
  it('builds, from open datasets and the methods, a spec the validator accepts', () => {
    const s = new StudyState(async () => null as never);
    const a = entry('/data/3sources.mat');
    const b = entry('/data/v1.csv', ['/data/v1.csv', '/data/v2.csv'], {
      labelsFile: '/data/y.csv',
    });
    s.toggleDataset(datasetEntry(a, datasetLabel(s.draft, a)), true, datasetKey);
    s.toggleDataset(datasetEntry(b, datasetLabel(s.draft, b)), true, datasetKey);
    s.addMethod(method('imvc-cbg'));
    s.addMethod(method('imvc-cbg'));
    s.setGrid('imvc-cbg', param('imvc-cbg', 'lambda'), '0.1, 1');
    s.setGrid('imvc-cbg', param('imvc-cbg', 'anchors'), 'k, 2k');
    s.setFixed(1, 'iterations', 5);
    s.draft.seeds = 2;
    s.draft.metrics = ['acc', 'nmi'];
    expect(s.gridProblem(methods)).toBeNull();

    const json = JSON.parse(s.specText()) as unknown;
    expect(json).toEqual({
      name: 'study',
      methods: [
        { method: 'imvc-cbg', label: 'imvc-cbg', params: {} },
        { method: 'imvc-cbg', label: 'imvc-cbg 2', params: { iterations: 5 } },
      ],
      datasets: [
        { file: '/data/3sources.mat', label: '3sources' },
        { files: ['/data/v1.csv', '/data/v2.csv'], label: 'v1', labelsFile: '/data/y.csv' },
      ],
      grid: { 'imvc-cbg': { lambda: [0.1, 1], anchors: ['k', '2k'] } },
      seeds: 2,
      protocol: { preprocess: 'none', replicates: 20 },
      metrics: ['acc', 'nmi'],
      selection: { oracle: 'acc', labelFree: 'auto' },
    });
    const spec = validateStudySpec(json);
    // 2 × 2 grid points of the first entry, 1 of the second, on each of 2 datasets.
    expect(cellCount(s.draft)).toBe(10);
    expect(expandCells(spec, () => 4)).toHaveLength(10);
    expect(expandCells(spec, () => 4)[1]!.params['anchors']).toBe(8);
  });

  it('loads a spec written for the CLI and saves it back to the same spec', () => {
    const draft = draftFromJson(structuredClone(CLI_SPEC));
    const saved = draftToJson(draft);
    expect(saved).toEqual(CLI_SPEC);
    expect(validateStudySpec(saved)).toEqual(validateStudySpec(CLI_SPEC));
    expect(cellCount(draft)).toBe(20 * 4 + 4);
    // A minimal spec gets every field written out, and stays the same spec.
    const minimal = { methods: [{ method: 'bsv' }], datasets: [{ file: '/x.mat' }] };
    const full = draftToJson(draftFromJson(minimal));
    expect(validateStudySpec(full)).toEqual(validateStudySpec(minimal));
    expect(draftToJson(draftFromJson(full))).toEqual(full);
  });

  it('names what is wrong with a file that is no spec', () => {
    expect(() => draftFromJson([])).toThrow('the spec file holds no JSON object');
    expect(() => draftFromJson({ methods: [{ label: 'x' }] })).toThrow(
      'methods[0]: expected {method, label?, params?}',
    );
    expect(() => draftFromJson({ grid: { a: { b: 1 } } })).toThrow('grid.a');
    const s = new StudyState(async () => null as never);
    s.loadSpec('{ not json');
    expect(s.error?.message).toBe('the spec file is not valid JSON');
    s.loadSpec(JSON.stringify(CLI_SPEC));
    expect(s.error).toBeNull();
    expect(s.gridText['IMVC-CBG']).toEqual({
      lambda: '0, 0.001, 0.1, 1, 10',
      anchors: 'k, 2k, 3k, 5k',
    });
  });

  it('parses grid text to the schema types, k-relative values for integers only', () => {
    expect(parseGridText(param('imvc-cbg', 'anchors'), ' k, 2k,0.5k , 7 ')).toEqual({
      values: ['k', '2k', '0.5k', 7],
      problem: null,
    });
    expect(parseGridText(param('imvc-cbg', 'lambda'), '2k').problem).toBe(
      "lambda: '2k' is not a number",
    );
    expect(parseGridText(param('imvc-cbg', 'anchors'), '1.5').problem).toBe(
      "anchors: '1.5' is not a whole number or k, 2k, …",
    );
    expect(parseGridText(param('imvc-cbg', 'normalize'), 'true, false').values).toEqual([
      true,
      false,
    ]);
    expect(parseGridText(param('kmeans-concat', 'normalize'), 'zscore, whiten').problem).toBe(
      "normalize: 'whiten' is not one of none, zscore, l2-rows",
    );
    // Every value the parser lets through a grid, the validator accepts for that parameter.
    const spec = validateStudySpec({
      methods: [{ method: 'imvc-cbg' }],
      datasets: [{ file: '/x.mat' }],
      grid: {
        'imvc-cbg': {
          anchors: parseGridText(param('imvc-cbg', 'anchors'), 'k, 2k, 7').values,
          lambda: parseGridText(param('imvc-cbg', 'lambda'), '0, 0.5').values,
        },
      },
    });
    expect(expandCells(spec, () => 3).map((c) => c.grid)).toHaveLength(6);
    const s = new StudyState(async () => null as never);
    s.addMethod(method('kmeans-concat'));
    s.setGrid('kmeans-concat', param('kmeans-concat', 'normalize'), 'zscore, whiten');
    expect(s.gridProblem(methods)).toBe(
      "kmeans-concat: normalize: 'whiten' is not one of none, zscore, l2-rows",
    );
    s.setGrid('kmeans-concat', param('kmeans-concat', 'normalize'), '');
    expect(s.draft.grid['kmeans-concat']).toEqual({});
    s.removeMethod(0);
    expect(s.draft.methods).toEqual([]);
    expect(emptyDraft().seeds).toBe(5);
  });
});

describe('StudyState with a host', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const info = (patch: Partial<StudyInfo>): StudyInfo => ({
    id: 's1',
    name: 'study',
    dir: '/s',
    status: 'queued',
    done: 0,
    total: null,
    etaSeconds: null,
    error: null,
    ...patch,
  });
  const report: StudyReport = {
    name: 'study',
    metric: 'acc',
    rule: 'oracle',
    tables: ['<table></table>'],
    charts: [],
    failures: [],
  };

  it('grants the folder, starts, polls until the end, then loads the report', async () => {
    const calls: { channel: Channel; request: unknown }[] = [];
    const statuses = [info({ status: 'running', done: 1, total: 4 }), info({ status: 'done' })];
    const call = async <C extends Channel>(channel: C, req: Request<C>): Promise<Response<C>> => {
      calls.push({ channel, request: req });
      if (channel === 'dialog:saveFile') {
        const r = req as Request<'dialog:saveFile'>;
        if (!r.overwrite) throw Object.assign(new Error('exists'), { name: 'Exists' });
        return r.path as Response<C>;
      }
      if (channel === 'studies:start') return info({}) as Response<C>;
      if (channel === 'studies:status') return statuses.shift() as Response<C>;
      if (channel === 'studies:report') return report as Response<C>;
      return null as Response<C>;
    };
    const s = new StudyState(call);
    s.addMethod(method('kmeans-concat'));
    const asked: string[] = [];
    await s.start('/s', (p) => (asked.push(p), true));
    expect(asked).toEqual(['/s']);
    expect(s.running).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(s.info).toMatchObject({ status: 'running', done: 1, total: 4 });
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(s.info?.status).toBe('done');
    expect(s.report).toEqual(report);
    expect(calls.map((c) => c.channel)).toEqual([
      'dialog:saveFile',
      'dialog:saveFile',
      'studies:start',
      'studies:status',
      'studies:status',
      'studies:report',
    ]);
    expect(calls[2]!.request).toMatchObject({
      dir: '/s',
      spec: { methods: [{ method: 'kmeans-concat' }] },
    });

    // A pushed state of another study is ignored; of this one, shown, and its end reads the report.
    s.follow(info({ id: 's9', status: 'failed' }));
    expect(s.info?.status).toBe('done');
    s.info = info({ status: 'running', done: 2, total: 4 });
    s.report = null;
    s.follow(info({ status: 'running', done: 3, total: 4 }));
    expect(s.info).toMatchObject({ done: 3, total: 4 });
    expect(s.report).toBeNull();
    s.follow(info({ status: 'done', done: 4, total: 4 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.report).toEqual(report);

    // Declining to resume in an existing folder starts nothing.
    const before = calls.length;
    await s.start('/s', () => false);
    expect(calls.slice(before).map((c) => c.channel)).toEqual(['dialog:saveFile']);
    expect(s.error).toBeNull();
  });
});
