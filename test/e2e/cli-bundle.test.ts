/**
 * End to end, in Chromium against `startServer` with the real library, worker and job manager:
 * work survives a restart. A run made in the app reopens in a new session from its bundle
 * folder, with its metrics and charts; so does a run made by `mvstudio run` on a dataset of two
 * CSV view files and a labels file; a bundle without view.json (written before it was kept)
 * reopens saying what it lacks; a damaged bundle gives an error naming its file.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from './browser';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';
import type { RunInfo, RunResult } from '../../src/shared/contract';
import { fromWireJson } from '../../src/shared/wire';

const SAMPLE = join(REPO, 'resources', 'datasets', 'NGs_Per0.5.mat');

/** One app session: a server with its own worker and job manager. */
interface Session {
  server: RunningServer;
  host: WorkerHost;
  library: DatasetLibrary;
}

let out: string;
let session: Session | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let page: Page;
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

async function startSession(name: string): Promise<Session> {
  const library = new DatasetLibrary({ bundled: [SAMPLE] });
  const host = new WorkerHost({
    spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
  });
  const runs = new RunManager({ host, library, bundleRoot: join(out, name, 'runs') });
  const server = await startServer({
    port: 0,
    library,
    staticDir: WEB,
    runs,
    dataDir: join(out, name, 'data'),
  });
  return { server, host, library };
}

async function stopSession(s: Session | undefined): Promise<void> {
  if (!s) return;
  s.host.dispose();
  s.library.dispose();
  await s.server.close();
}

/** A channel of the web host called with the session's token, as a script would. */
async function api<T>(s: Session, channel: string, request: unknown): Promise<T> {
  const res = await fetch(`${s.server.url}/api/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${s.server.token}` },
    body: JSON.stringify(request),
  });
  const envelope = fromWireJson(await res.text()) as
    { ok: true; value: T } | { ok: false; error: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
  return envelope.value;
}

interface CanvasLike {
  width: number;
  height: number;
  getContext(type: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

/** Pixels drawn on a canvas (alpha ≠ 0). */
function painted(canvas: Locator): Promise<number> {
  return canvas.evaluate((el) => {
    const c = el as unknown as CanvasLike;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) count++;
    return count;
  });
}

beforeAll(async () => {
  missing = setupProblem() ?? undefined;
  if (missing) return;
  out = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-bundle-'));
  profile = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 960 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(30_000);
  page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
  await context?.close();
  await stopSession(session);
  if (profile) await rm(profile, { recursive: true, force: true });
  if (out) await rm(out, { recursive: true, force: true });
});

/** Types a bundle path in the sidebar's "Reopen a saved run" field and opens it. */
async function reopen(path: string): Promise<void> {
  await page.getByTestId('run-path-input').fill(path);
  await page.getByTestId('open-run').click();
}

describe('reopening a run bundle in the app (runs:open)', () => {
  it('a run of the app reopens in a new session with its metrics and charts', async () => {
    ready();
    // The first session: a run on the sample, started as the page would, saved as a bundle.
    const first = await startSession('first');
    session = first;
    const [sample] = await api<{ id: string }[]>(first, 'datasets:list', null);
    const started = await api<RunInfo>(first, 'runs:start', {
      datasetId: sample!.id,
      method: 'kmeans-concat',
      params: {},
      seed: 1,
      protocol: 'paper',
      seeds: 3,
    });
    let info = started;
    for (let i = 0; i < 600 && (info.status === 'queued' || info.status === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      info = (await api<RunInfo[]>(first, 'runs:list', null)).find((r) => r.id === started.id)!;
    }
    expect(info.status).toBe('done');
    const original = await api<RunResult>(first, 'runs:result', { id: started.id });
    expect(original.bundle).not.toBeNull();
    // The restart: the first session ends; a new one knows nothing of the run.
    await stopSession(first);
    session = await startSession('second');
    await page.goto(session.server.launchUrl);
    await page.getByTestId('dataset-item').first().waitFor();
    await reopen(original.bundle!);

    await page.getByTestId('results').waitFor();
    const acc = original.metrics['ACC']!;
    expect(await page.getByTestId('metrics-table').textContent()).toContain(
      `${acc.mean.toFixed(4)} ± ${acc.std.toFixed(4)}`,
    );
    for (const id of ['chart-scatter', 'chart-confusion', 'chart-timing']) {
      const canvas = page.getByTestId(id);
      await canvas.waitFor();
      expect(await painted(canvas), id).toBeGreaterThan(500);
    }
    expect(await page.getByTestId('results').textContent()).not.toContain('not kept');
    // The queue lists it as done; its result is the bundle's, arrays included.
    const runs = await api<RunInfo[]>(session, 'runs:list', null);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'done', method: 'kmeans-concat', seed: 1, seeds: 3 });
    const back = await api<RunResult>(session, 'runs:result', { id: runs[0]!.id });
    expect(back.metrics).toEqual(original.metrics);
    expect(back.perSeed).toEqual(original.perSeed);
    expect([...back.clusters]).toEqual([...original.clusters]);
    expect([...back.truth!]).toEqual([...original.truth!]);
    expect([...back.projection.x]).toEqual([...original.projection.x]);
    expect([...back.missingViews]).toEqual([...original.missingViews]);
    expect(back.confusion).toEqual(original.confusion);
  });

  it('a bundle of `mvstudio run` on two CSV views and a labels file reopens with its charts', async () => {
    ready();
    const folder = join(out, 'csv');
    await mkdir(folder, { recursive: true });
    const a = ['x,y'];
    const b = ['p,q,r'];
    const l = ['class'];
    for (let i = 0; i < 60; i++) {
      const g = i % 3;
      const jitter = ((i * 7) % 11) / 11;
      a.push(`${g * 10 + jitter},${g * 6 - jitter}`);
      b.push(`${-g * 8 + jitter},${jitter},${g * 4 + jitter}`);
      l.push(String(g + 1));
    }
    const files = ['view1.csv', 'view2.csv', 'labels.csv'].map((f) => join(folder, f));
    await Promise.all([a, b, l].map((rows, i) => writeFile(files[i]!, rows.join('\n') + '\n')));
    const run = spawnSync(
      process.execPath,
      [
        join(REPO, 'bin/mvstudio.mjs'),
        ...['run', 'kmeans-concat', files[0]!, files[1]!, '--labels-file', files[2]!],
        ...['--json', '--out', join(out, 'cli-runs')],
      ],
      { cwd: REPO, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { bundle: string; V: number };
    expect(summary.V).toBe(2);

    await reopen(join(summary.bundle, 'run.json'));
    await page.getByTestId('results').filter({ hasText: 'n × Σd = 60 × 5' }).waitFor();
    expect(await page.getByTestId('metrics-table').textContent()).toMatch(/ACC\s*1\.0000/);
    for (const id of ['chart-scatter', 'chart-confusion']) {
      const canvas = page.getByTestId(id);
      await canvas.waitFor();
      expect(await painted(canvas), id).toBeGreaterThan(500);
    }
    expect(await page.getByTestId('results').textContent()).not.toContain('not kept');

    // A bundle written before view.json was kept: what it lacks is said on the page.
    await rm(join(summary.bundle, 'view.json'));
    await reopen(summary.bundle);
    await page.getByTestId('results').filter({ hasText: 'not kept in this bundle' }).waitFor();
    expect(await page.getByTestId('metrics-table').textContent()).toMatch(/ACC\s*1\.0000/);
    const confusion = page.getByTestId('chart-confusion');
    await confusion.waitFor();
    expect(await painted(confusion)).toBeGreaterThan(500);
  });

  it('a damaged bundle: an error naming run.json, and nothing added to the queue', async () => {
    ready();
    const dir = join(out, 'damaged');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'run.json'), '{"version": 1, "dataset":');
    const before = (await api<RunInfo[]>(session!, 'runs:list', null)).length;
    await reopen(dir);
    const alert = page.getByTestId('error-message');
    await alert.filter({ hasText: 'run.json' }).waitFor();
    expect(await alert.textContent()).toContain(
      `${join(dir, 'run.json')}: is not valid JSON (the run record is damaged or truncated)`,
    );
    expect(await api<RunInfo[]>(session!, 'runs:list', null)).toHaveLength(before);
  });
});
