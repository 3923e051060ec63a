/**
 * The web host's run channels and its Server-Sent Events (`GET /api/events`), with the real
 * worker: a run started over HTTP is pushed as 'runs:update' events until it is done; a
 * cross-origin page cannot listen.
 */
import { request } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetLibrary } from '../../src/backend/library';
import { fromWireJson } from '../../src/shared/wire';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import { startServer, type RunningServer } from '../../src/cli/serve';
import type { RunInfo } from '../../src/shared/contract';
import { REPO } from '../helpers/paths';

let dir: string;
let server: RunningServer;
let host: WorkerHost;
let library: DatasetLibrary;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvs-events-'));
  await mkdir(join(dir, 'web'));
  await writeFile(join(dir, 'web', 'index.html'), '<!doctype html><title>t</title>');
  library = new DatasetLibrary({ bundled: [join(REPO, 'resources/datasets/NGs_Per0.5.mat')] });
  host = new WorkerHost({
    spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
  });
  const runs = new RunManager({ host, library, bundleRoot: null });
  server = await startServer({ port: 0, library, staticDir: join(dir, 'web'), runs });
});

afterAll(async () => {
  host?.dispose();
  library?.dispose();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function post<T>(channel: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` },
    body: JSON.stringify(body),
  });
  const envelope = fromWireJson(await res.text()) as {
    ok: boolean;
    value: T;
    error?: { message: string };
  };
  if (!envelope.ok) throw new Error(envelope.error?.message);
  return envelope.value;
}

/** Opens the event stream; resolves with its status and a reader of parsed events. */
function listen(headers: Record<string, string> = {}): Promise<{
  status: number;
  events: { event: string; data: unknown }[];
  close: () => void;
}> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/api/events',
        headers: { Authorization: `Bearer ${server.token}`, ...headers },
      },
      (res) => {
        const events: { event: string; data: unknown }[] = [];
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
          }
        });
        resolve({ status: res.statusCode ?? 0, events, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the web host’s runs and events', () => {
  it('pushes runs:update events from queued to done', async () => {
    await library.ready;
    const stream = await listen();
    expect(stream.status).toBe(200);
    const [dataset] = await post<{ id: string }[]>('datasets:list', null);
    const started = await post<RunInfo>('runs:start', {
      datasetId: dataset!.id,
      method: 'bsv',
      params: {},
      seed: 2,
      protocol: 'single',
    });
    const deadline = Date.now() + 30_000;
    const statuses = (): string[] =>
      stream.events
        .filter((e) => e.event === 'runs:update' && (e.data as RunInfo).id === started.id)
        .map((e) => (e.data as RunInfo).status);
    while (!statuses().includes('done') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    stream.close();
    expect(statuses()[0]).toBe('queued');
    expect(statuses()).toContain('running');
    expect(statuses().at(-1)).toBe('done');
    const listed = await post<RunInfo[]>('runs:list', null);
    expect(listed.map((r) => r.status)).toEqual(['done']);
    const result = await post<{ clusters: Uint8Array }>('runs:result', { id: started.id });
    expect(result.clusters).toBeInstanceOf(Uint8Array);
    expect(result.clusters).toHaveLength(500);
  });

  it('refuses a cross-origin listener', async () => {
    const stream = await listen({ Origin: 'http://evil.example' });
    stream.close();
    expect(stream.status).toBe(403);
  });
});
