/**
 * The study channels through the handlers both hosts use (`invoke`), with a worker host that
 * runs the solver worker's study executor (worker/study.ts) in this process: a 2 × 2 grid of
 * IMVC-CBG on 3Sources with 2 seeds runs into a granted folder with progress, its report has
 * the table marks and a heatmap of four cells, a reopened folder reports the same, and the path
 * rules hold: no grant, no study; relative or (under Electron) unchosen dataset paths and
 * folders are refused naming the field.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadGrants } from '../../../src/backend/grants';
import { createHandlers, invoke, type Handlers } from '../../../src/backend/handlers';
import { DatasetLibrary } from '../../../src/backend/library';
import type { RunManager } from '../../../src/backend/runs';
import { specWithPaths } from '../../../src/backend/study/manager';
import type { RunOutcome, WorkerHost } from '../../../src/backend/worker-host';
import { serializeError } from '../../../src/shared/contract';
import type { StudyInfo } from '../../../src/shared/study';
import type { Progress, RunRequest } from '../../../src/shared/worker-protocol';
import { Cancelled } from '../../../src/worker/serve';
import { executeStudy } from '../../../src/worker/study';
import { REPO } from '../../helpers/paths';

const SOURCES = resolve(REPO, '../shared/datasets/3Sources/3sources.mat');

const SPEC = {
  name: 'grid',
  methods: [{ method: 'imvc-cbg', label: 'IMVC-CBG', params: {} }],
  datasets: [{ file: SOURCES, label: '3sources' }],
  grid: { 'IMVC-CBG': { lambda: [0.1, 1], anchors: ['k', '2k'] } },
  seeds: 2,
  protocol: { preprocess: 'none', replicates: 2 },
  metrics: ['acc', 'nmi'],
  selection: { oracle: 'acc', labelFree: 'auto' },
};

let tmp: string;
const progress: Progress[] = [];
/** The `studies:update` events the host would push. */
const pushed: StudyInfo[] = [];

/** A worker host running studies in this process, as the solver worker would. */
function inProcessHost(): WorkerHost {
  let n = 0;
  const cancelled = new Set<string>();
  return {
    run(request: RunRequest, onProgress: (p: Progress) => void) {
      const runId = `w${++n}`;
      const hooks = {
        progress: (p: Progress) => {
          progress.push(p);
          onProgress(p);
        },
        step: async () => {
          await new Promise((r) => setImmediate(r));
          if (cancelled.has(runId)) throw new Cancelled();
        },
      };
      const outcome: Promise<RunOutcome> = executeStudy(request.study!, hooks).then(
        (result) => ({ status: 'done', result }),
        (e: unknown) =>
          e instanceof Cancelled
            ? { status: 'cancelled' }
            : { status: 'failed', error: serializeError(e) },
      );
      return { runId, outcome };
    },
    cancel: (id: string) => cancelled.add(id),
  } as unknown as WorkerHost;
}

function handlers(reads?: ReadGrants): Handlers {
  const runs = { host: inProcessHost() } as unknown as RunManager;
  const library = new DatasetLibrary({ load: async () => Promise.reject(new Error('unused')) });
  return createHandlers(
    library,
    {
      pickFile: async () => null,
      home: tmp,
      onStudyUpdate: (info) => pushed.push(info),
      ...(reads ? { readGrants: reads } : {}),
    },
    runs,
  );
}

async function ok<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>) {
  const e = await p;
  if (!e.ok) throw new Error(JSON.stringify(e.error));
  return e.value;
}

async function untilEnded(h: Handlers, id: string): Promise<StudyInfo> {
  for (;;) {
    const info = await ok(invoke(h, 'studies:status', { id }));
    if (info.status !== 'queued' && info.status !== 'running') return info;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mvstudio-study-manager-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('studies:* in a web host', () => {
  it('runs a granted study with progress, reports it, and reopens its folder', async () => {
    const h = handlers();
    const dir = join(tmp, 'grid');
    expect(await ok(invoke(h, 'dialog:saveFile', { defaultName: 'grid', path: dir }))).toBe(dir);
    const started = await ok(invoke(h, 'studies:start', { spec: SPEC, dir }));
    expect(started).toMatchObject({ name: 'grid', dir, status: 'queued', total: null });
    const ended = await untilEnded(h, started.id);
    expect(ended).toMatchObject({ status: 'done', done: 4, total: 4, error: null });
    // Progress counts cells: 0 of 4 at the start, then one report per cell.
    expect(progress.map((p) => [p.seedIndex, p.seedCount])).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(progress.at(-1)!.step.values?.['eta']).toBe(0);
    // The host pushes each change: running with the cells done, then done.
    const mine = pushed.filter((i) => i.id === started.id);
    expect(mine.map((i) => [i.status, i.done])).toEqual([
      ['running', 0],
      ['running', 1],
      ['running', 2],
      ['running', 3],
      ['running', 4],
      ['done', 4],
    ]);
    const csv = await readFile(join(dir, 'results.csv'), 'utf8');
    expect(csv.trim().split('\n')).toHaveLength(1 + 4 * 2);

    const report = await ok(invoke(h, 'studies:report', { id: started.id }));
    expect(report).toMatchObject({ name: 'grid', metric: 'acc', rule: 'oracle', failures: [] });
    expect(report.tables).toHaveLength(1);
    expect(report.tables[0]).toContain('<strong>');
    expect(report.charts).toHaveLength(1);
    expect(report.charts[0]!.svg.match(/<rect class="cell"/g)).toHaveLength(4);
    const free = await ok(invoke(h, 'studies:report', { id: started.id, rule: 'label-free' }));
    expect(free.rule).toBe('label-free');

    const opened = await ok(invoke(h, 'studies:open', { path: dir }));
    expect(opened).toMatchObject({ status: 'done', done: 4, total: 4, name: 'grid' });
    const again = await ok(invoke(h, 'studies:report', { id: opened.id }));
    expect(again.tables).toEqual(report.tables);
  }, 120_000);

  it('refuses a folder that was not granted, and spends no grant on a bad spec', async () => {
    const h = handlers();
    const dir = join(tmp, 'nogrant');
    const refused = await invoke(h, 'studies:start', { spec: SPEC, dir });
    expect(refused).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    await ok(invoke(h, 'dialog:saveFile', { defaultName: 'x', path: dir }));
    const bad = { ...SPEC, seeds: 0 };
    const invalid = await invoke(h, 'studies:start', { spec: bad, dir });
    expect(invalid).toMatchObject({ ok: false, error: { name: 'StudySpecError' } });
    expect(JSON.stringify(invalid)).toContain('seeds');
    const relative = { ...SPEC, datasets: [{ file: 'data/3sources.mat' }] };
    const rel = await invoke(h, 'studies:start', { spec: relative, dir });
    expect(rel).toMatchObject({ ok: false, error: { name: 'InvalidPath' } });
    expect(JSON.stringify(rel)).toContain('datasets[0].file');
    // The grant is still there for a good spec.
    const started = await ok(invoke(h, 'studies:start', { spec: SPEC, dir }));
    const cancelled = await ok(invoke(h, 'studies:cancel', { id: started.id }));
    expect(cancelled).toBeNull();
    const ended = await untilEnded(h, started.id);
    expect(ended.status).toBe('cancelled');
  }, 120_000);

  it('refuses a relative study folder to open', async () => {
    const h = handlers();
    const r = await invoke(h, 'studies:open', { path: 'grid' });
    expect(r).toMatchObject({ ok: false, error: { name: 'InvalidPath' } });
  });
});

describe('studies:* under Electron (read grants)', () => {
  it('reads only dataset files and folders the user chose', async () => {
    const reads = await ReadGrants.load(null);
    const h = handlers(reads);
    const dir = join(tmp, 'electron');
    const r = await invoke(h, 'studies:open', { path: dir });
    expect(r).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    await ok(invoke(h, 'dialog:saveFile', { defaultName: 'x', path: dir }));
    const refused = await invoke(h, 'studies:start', { spec: SPEC, dir });
    expect(refused).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    expect(JSON.stringify(refused)).toContain('datasets[0].file');
  });
});

describe('specWithPaths', () => {
  it('passes every path of the datasets through the rule, and nothing else', () => {
    const seen: string[] = [];
    const out = specWithPaths(
      {
        name: 'x',
        datasets: [
          { file: '~/a.mat', mask: 'folds', labels: 'Y' },
          { files: ['~/v1.csv', '~/v2.csv'], labelsFile: '~/y.csv', mask: '~/m.npz' },
        ],
      },
      (field, p) => {
        seen.push(field);
        return p.replace('~', '/home/u');
      },
    );
    expect(seen).toEqual([
      'datasets[0].file',
      'datasets[1].labelsFile',
      'datasets[1].mask',
      'datasets[1].files[0]',
      'datasets[1].files[1]',
    ]);
    expect(out).toEqual({
      name: 'x',
      datasets: [
        { file: '/home/u/a.mat', mask: 'folds', labels: 'Y' },
        {
          files: ['/home/u/v1.csv', '/home/u/v2.csv'],
          labelsFile: '/home/u/y.csv',
          mask: '/home/u/m.npz',
        },
      ],
    });
  });
});
