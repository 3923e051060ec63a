import { request } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetLibrary } from '../../src/backend/library';
import { MAX_BODY_BYTES, startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';
import { fakeLoader } from '../helpers/fake-dataset';

let dir: string;
let web: string;
let dataset: string;
let server: RunningServer;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: unlike fetch, it sends the path exactly as given (no `..` folding). */
function raw(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (channel: string, body: string): Promise<Reply> =>
  raw('POST', `/api/${channel}`, body, { 'Content-Type': 'application/json' });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-serve-'));
  web = join(dir, 'web');
  await mkdir(join(web, 'assets'), { recursive: true });
  await writeFile(join(web, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(web, 'assets', 'app.js'), 'console.log(1);');
  await writeFile(join(web, 'assets', 'app.css'), 'body{}');
  await writeFile(join(dir, 'secret.txt'), 'outside the web root');
  dataset = join(dir, 'sample.mat');
  await writeFile(dataset, 'x');
  const library = new DatasetLibrary({ load: fakeLoader(), bundled: [dataset] });
  server = await startServer({ port: 0, library, staticDir: web });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('mvstudio serve', () => {
  it('listens on 127.0.0.1 with a real port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  });

  it('serves the web build with content types', async () => {
    const index = await raw('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toContain('<title>t</title>');
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");

    const js = await raw('GET', '/assets/app.js?v=1');
    expect([js.status, js.headers['content-type'], js.body]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'console.log(1);',
    ]);
    const css = await raw('GET', '/assets/app.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

    const head = await raw('HEAD', '/index.html');
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await raw('GET', '/nope.js')).status).toBe(404);
    expect((await raw('DELETE', '/')).status).toBe(405);
  });

  it('refuses paths that leave the web root', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
    ]) {
      const reply = await raw('GET', path);
      expect(reply.status, path).toBe(403);
      expect(reply.body).not.toContain('outside the web root');
    }
    expect((await raw('GET', '/../package.json')).status).toBe(403);
    expect((await raw('GET', '/%00')).status).toBe(400);
  });

  it('answers channels with envelopes', async () => {
    const list = await post('datasets:list', 'null');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const envelope = JSON.parse(list.body);
    expect(envelope.ok).toBe(true);
    expect(envelope.value).toHaveLength(1);
    expect(envelope.value[0]).toMatchObject({ path: dataset, bundled: true });
    expect(envelope.value[0].summary.views).toHaveLength(2);

    const dialog = await post('dialog:openDataset', 'null');
    expect(JSON.parse(dialog.body)).toEqual({ ok: true, value: null });
  });

  it('returns 404 for an unknown channel', async () => {
    const reply = await post('datasets:explode', 'null');
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({
      ok: false,
      error: { name: 'NotFound', message: "unknown channel 'datasets:explode'" },
    });
    expect((await post('toString', 'null')).status).toBe(404);
  });

  it('returns 400 for bad JSON and for invalid payloads', async () => {
    const reply = await post('datasets:open', '{"path": ');
    expect(reply.status).toBe(400);
    const body = JSON.parse(reply.body);
    expect(body.ok).toBe(false);
    expect(body.error.name).toBe('BadRequest');
    expect(body.error.message).toMatch(/^request body is not valid JSON/);

    const invalid = await post('datasets:open', '{"path": 3}');
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body).error).toEqual({
      name: 'InvalidRequest',
      message: "datasets:open: 'path' must be a non-empty string",
    });
  });

  it('returns 413 for a body over 1 MB', async () => {
    const big = JSON.stringify({ path: 'x'.repeat(MAX_BODY_BYTES) });
    const reply = await post('datasets:open', big);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error.name).toBe('PayloadTooLarge');
  });

  it('wraps a failing open in an error envelope', async () => {
    const bad = join(dir, 'bad.mat');
    await writeFile(bad, 'x');
    const reply = await post('datasets:open', JSON.stringify({ path: bad }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      ok: false,
      error: { name: 'DataError', message: `${bad}: not a MAT-file (fake loader)` },
    });
    const missing = join(dir, 'missing.mat');
    const notFound = await post('datasets:open', JSON.stringify({ path: missing }));
    expect(JSON.parse(notFound.body).error).toEqual({
      name: 'NotFound',
      message: `${missing}: no such file`,
    });
  });

  it('refuses foreign hosts, foreign origins and non-JSON bodies', async () => {
    const rebinding = await raw('GET', '/', undefined, { Host: 'evil.example:80' });
    expect(rebinding.status).toBe(403);
    const crossOrigin = await raw('POST', '/api/datasets:list', 'null', {
      'Content-Type': 'application/json',
      Origin: 'http://evil.example',
    });
    expect(crossOrigin.status).toBe(403);
    const form = await raw('POST', '/api/datasets:list', 'null', { 'Content-Type': 'text/plain' });
    expect(form.status).toBe(415);
    expect((await raw('GET', '/api/datasets:list')).status).toBe(405);
  });

  it('says how to build the web app when the build is missing', async () => {
    await expect(
      startServer({
        port: 0,
        library: new DatasetLibrary({ load: fakeLoader() }),
        staticDir: join(dir, 'no-such-build'),
      }),
    ).rejects.toThrow('run `npm run build:web` first');
  });
});
