import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetLibrary } from '../../src/backend/library';
import {
  MAX_BODY_BYTES,
  MAX_EVENT_STREAMS,
  UNAUTHORIZED_MESSAGE,
  startServer,
} from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';
import { CHANNELS } from '../../src/shared/contract';
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

/**
 * A raw HTTP request: unlike fetch, it sends the path exactly as given (no `..` folding).
 * Carries the server's token as a Bearer header unless `headers` says otherwise.
 */
function raw(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { Authorization: `Bearer ${server.token}` },
  to: RunningServer = server,
): Promise<Reply> {
  const url = new URL(to.url);
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

const post = (channel: string, body: string, to: RunningServer = server): Promise<Reply> =>
  raw(
    'POST',
    `/api/${channel}`,
    body,
    { 'Content-Type': 'application/json', Authorization: `Bearer ${to.token}` },
    to,
  );

/** The answer's envelope of a channel called with the token. */
async function call(
  channel: string,
  payload: unknown,
  to: RunningServer = server,
): Promise<{
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string };
}> {
  return JSON.parse((await post(channel, JSON.stringify(payload), to)).body);
}

/** Opens the event stream; resolves with the status once the head arrives (the stream stays open). */
function openStream(
  headers: Record<string, string>,
): Promise<{ status: number; close: () => void }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: 'GET', path: '/api/events', headers },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

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
  await mkdir(join(dir, 'home'));
  server = await startServer({ port: 0, library, staticDir: web, home: join(dir, 'home') });
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
    const auth = { Authorization: `Bearer ${server.token}` };
    const crossOrigin = await raw('POST', '/api/datasets:list', 'null', {
      ...auth,
      'Content-Type': 'application/json',
      Origin: 'http://evil.example',
    });
    expect(crossOrigin.status).toBe(403);
    const form = await raw('POST', '/api/datasets:list', 'null', {
      ...auth,
      'Content-Type': 'text/plain',
    });
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

describe('the per-launch token', () => {
  const none = { 'Content-Type': 'application/json' };

  it('is 32 random bytes in base64url, printed in the launch URL', () => {
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.launchUrl).toBe(`${server.url}/?token=${server.token}`);
  });

  it('without it every channel and the event stream answer 401', async () => {
    for (const channel of [...CHANNELS, 'datasets:explode']) {
      const reply = await raw('POST', `/api/${channel}`, 'null', none);
      expect(reply.status, channel).toBe(401);
      expect(JSON.parse(reply.body), channel).toEqual({
        ok: false,
        error: { name: 'Unauthorized', message: UNAUTHORIZED_MESSAGE },
      });
    }
    const events = await raw('GET', '/api/events', undefined, {});
    expect([events.status, events.body]).toEqual([401, UNAUTHORIZED_MESSAGE]);
    expect((await raw('GET', '/api/datasets:list', undefined, {})).status).toBe(401);
  });

  it('refuses a wrong token in every place it may be sent', async () => {
    const port = new URL(server.url).port;
    const wrong = server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A');
    for (const headers of [
      { Authorization: `Bearer ${wrong}` },
      { Authorization: 'Bearer ' },
      { 'X-Mvstudio-Token': wrong },
      { Cookie: `mvstudio-token-${port}=${wrong}` },
      // The right token under another server's cookie name is not this server's cookie.
      { Cookie: `mvstudio-token-1=${server.token}` },
      { Authorization: `Basic ${server.token}` },
    ]) {
      const reply = await raw('POST', '/api/datasets:list', 'null', { ...none, ...headers });
      expect(reply.status, JSON.stringify(headers)).toBe(401);
      expect((await openStream(headers)).status, JSON.stringify(headers)).toBe(401);
    }
  });

  it('accepts it as a Bearer header, an X-Mvstudio-Token header or the cookie', async () => {
    const port = new URL(server.url).port;
    for (const headers of [
      { Authorization: `Bearer ${server.token}` },
      { 'X-Mvstudio-Token': server.token },
      { Cookie: `other=1; mvstudio-token-${port}=${server.token}` },
    ]) {
      const reply = await raw('POST', '/api/datasets:list', 'null', { ...none, ...headers });
      expect(reply.status, JSON.stringify(headers)).toBe(200);
      const stream = await openStream(headers);
      expect(stream.status).toBe(200);
      stream.close();
    }
  });

  it('moves from the launch URL into an HttpOnly cookie, with a redirect', async () => {
    const port = new URL(server.url).port;
    const launch = await raw('GET', `/?token=${server.token}`, undefined, {});
    expect(launch.status).toBe(302);
    expect(launch.headers['location']).toBe('/');
    const cookie = String(launch.headers['set-cookie']);
    expect(cookie).toContain(`mvstudio-token-${port}=${server.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    const kept = await raw('GET', `/index.html?x=1&token=${server.token}`, undefined, {});
    expect(kept.headers['location']).toBe('/index.html?x=1');

    // A wrong token sets nothing; the page and its files need no token.
    const wrong = await raw('GET', '/?token=nope', undefined, {});
    expect(wrong.status).toBe(200);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await raw('GET', '/assets/app.js', undefined, {})).status).toBe(200);
  });
});

describe('writes only where the user chose', () => {
  const png = 'data:image/png;base64,' + Buffer.from('png bytes').toString('base64');

  it('refuses every write channel for a path not chosen in a save field', async () => {
    const target = join(dir, 'unchosen', 'x.csv');
    const relative = `mvstudio-relative-${process.pid}.csv`;
    for (const path of [target, relative]) {
      for (const [channel, payload] of [
        ['files:saveText', { path, text: 'a' }],
        ['files:savePng', { path, dataUrl: png }],
        ['runs:exportLabels', { id: 'r1', path }],
        ['runs:exportBundle', { id: 'r1', path }],
      ] as const) {
        const reply = await call(channel, payload);
        expect(reply.ok, channel).toBe(false);
        expect(reply.error?.name, channel).toBe('Forbidden');
        expect(reply.error?.message).toContain('not chosen in a save field');
      }
    }
    expect(existsSync(join(dir, 'unchosen'))).toBe(false);
    expect(existsSync(join(process.cwd(), relative))).toBe(false);
  });

  it('grants a typed full path for one write', async () => {
    const path = join(dir, 'table.csv');
    expect(await call('dialog:saveFile', { defaultName: 'table.csv', path })).toEqual({
      ok: true,
      value: path,
    });
    expect(await call('files:saveText', { path, text: 'a,b\n' })).toEqual({
      ok: true,
      value: { path },
    });
    expect(await readFile(path, 'utf8')).toBe('a,b\n');
    // Once: a second write needs a second choice.
    const again = await call('files:saveText', { path, text: 'evil' });
    expect(again.error?.name).toBe('Forbidden');
    expect(await readFile(path, 'utf8')).toBe('a,b\n');
  });

  it('refuses a relative path, expands ~ and makes no folder', async () => {
    const relative = await call('dialog:saveFile', { defaultName: 'x.csv', path: 'x.csv' });
    expect(relative.error?.name).toBe('InvalidPath');
    expect(relative.error?.message).toContain('type a full path');

    const home = await call('dialog:saveFile', { defaultName: 'x.png', path: '~/chart.png' });
    expect(home.value).toBe(join(dir, 'home', 'chart.png'));
    expect((await call('files:savePng', { path: home.value, dataUrl: png })).ok).toBe(true);
    expect(await readFile(join(dir, 'home', 'chart.png'), 'utf8')).toBe('png bytes');

    const deep = join(dir, 'no', 'such', 'x.csv');
    const missing = await call('dialog:saveFile', { defaultName: 'x.csv', path: deep });
    expect(missing.error?.name).toBe('NotFound');
    expect(missing.error?.message).toContain('no such folder');
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });

  it('overwrites an existing file only when told to', async () => {
    const path = join(dir, 'exists.csv');
    await writeFile(path, 'old');
    const first = await call('dialog:saveFile', { defaultName: 'x.csv', path });
    expect(first.error?.name).toBe('Exists');
    expect((await call('files:saveText', { path, text: 'new' })).error?.name).toBe('Forbidden');
    expect(await readFile(path, 'utf8')).toBe('old');
    const confirmed = await call('dialog:saveFile', {
      defaultName: 'x.csv',
      path,
      overwrite: true,
    });
    expect(confirmed.value).toBe(path);
    expect((await call('files:saveText', { path, text: 'new' })).ok).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('new');
  });

  it('validates the typed fields of dialog:saveFile', async () => {
    const reply = await call('dialog:saveFile', { defaultName: 'x', overwrite: 'yes' });
    expect(reply.error).toEqual({
      name: 'InvalidRequest',
      message: "dialog:saveFile: 'overwrite' must be a boolean",
    });
    expect(await call('dialog:saveFile', { defaultName: 'x' })).toEqual({ ok: true, value: null });
  });
});

describe('event streams', () => {
  it(`accepts ${MAX_EVENT_STREAMS} at once and refuses one more with 503`, async () => {
    const auth = { Authorization: `Bearer ${server.token}` };
    const open: { status: number; close: () => void }[] = [];
    try {
      for (let i = 0; i < MAX_EVENT_STREAMS; i++) open.push(await openStream(auth));
      expect(open.map((s) => s.status)).toEqual(new Array(MAX_EVENT_STREAMS).fill(200));
      const extra = await raw('GET', '/api/events', undefined, auth);
      expect(extra.status).toBe(503);
      expect(extra.body).toContain(`too many event streams: ${MAX_EVENT_STREAMS} are open`);
    } finally {
      for (const s of open) s.close();
    }
    // Closed streams free their places.
    await new Promise((r) => setTimeout(r, 100));
    const again = await openStream(auth);
    expect(again.status).toBe(200);
    again.close();
  });
});

describe('private folders', () => {
  it('makes the masks folder with mkdtemp (0700), never a planted one, and removes it', async () => {
    const tmp = join(dir, 'tmp');
    const planted = join(dir, 'planted');
    await mkdir(tmp);
    await mkdir(planted);
    // The old predictable name, planted in advance by another user.
    await symlink(planted, join(tmp, 'mvstudio-data'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
    let own: RunningServer | undefined;
    try {
      const library = new DatasetLibrary({ load: fakeLoader(), bundled: [dataset] });
      own = await startServer({ port: 0, library, staticDir: web });
      const [entry] = (await call('datasets:list', null, own)).value as { id: string }[];
      const made = await call(
        'datasets:generateMissing',
        { id: entry!.id, completeFraction: 0.5, seed: 1 },
        own,
      );
      if (!made.ok) throw new Error(made.error?.message);
      const mask = (made.value as { entry: { options: { mask: string } } }).entry.options.mask;
      expect(await readdir(planted)).toEqual([]);
      const dataDir = join(mask, '..', '..');
      expect(dataDir.startsWith(join(tmp, 'mvstudio-data-'))).toBe(true);
      expect((await lstat(dataDir)).isSymbolicLink()).toBe(false);
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      await own.close();
      own = undefined;
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await own?.close();
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
    }
  });
});

describe('errors quote no file content', () => {
  it('datasets:open with a labelsFile pointing at a system text file echoes none of its lines', async () => {
    const lines = [
      'root:x:0:0:root:/root:/bin/bash',
      'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
      'secret-token-line-3',
    ];
    const passwd = join(dir, 'passwd');
    await writeFile(passwd, lines.join('\n') + '\n');
    const csv = join(dir, 'two-rows.csv');
    await writeFile(csv, '1,2\n3,4\n');
    const real = await startServer({ port: 0, library: new DatasetLibrary(), staticDir: web });
    try {
      for (const options of [
        { labelsFile: passwd },
        { labelsFile: join(dir, 'passwd-link.csv') },
      ]) {
        if (options.labelsFile.endsWith('.csv')) await symlink(passwd, options.labelsFile);
        const reply = await post('datasets:open', JSON.stringify({ path: csv, options }), real);
        for (const line of lines) {
          expect(reply.body).not.toContain(line);
          for (const field of line.split(':').filter((f) => f.length > 4)) {
            expect(reply.body).not.toContain(field);
          }
        }
      }
    } finally {
      await real.close();
    }
  });
});

describe('`mvstudio serve`', () => {
  const REPO = fileURLToPath(new URL('../..', import.meta.url));

  it('prints the launch URL and keeps its runs in a private folder, removed at exit', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'mvstudio-serve-cli-'));
    const planted = join(tmp, 'planted');
    await mkdir(planted);
    const child = spawn(
      process.execPath,
      [join(REPO, 'bin/mvstudio.mjs'), 'serve', '--port', '0'],
      {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // The old predictable runs folder, planted before the server could make it.
    await symlink(planted, join(tmp, `mvstudio-serve-runs-${child.pid}`));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const launch = await new Promise<string>((resolveUrl, rejectUrl) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /mvstudio serve: (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43})\n/.exec(
            out,
          );
          if (m) resolveUrl(m[1]!);
        });
        void exited.then((code) => rejectUrl(new Error(`serve exited ${code}: ${stderr}`)));
        setTimeout(
          () => rejectUrl(new Error(`no launch URL printed within 30 s: ${out}`)),
          30_000,
        ).unref();
      });
      const url = new URL(launch);
      const token = url.searchParams.get('token')!;
      const to = { url: url.origin, token } as RunningServer;
      expect(
        (await raw('POST', '/api/runs:list', 'null', { 'Content-Type': 'application/json' }, to))
          .status,
      ).toBe(401);

      const own = (await readdir(tmp)).filter((n) => /^mvstudio-serve-(?!runs-)/.test(n));
      expect(own).toHaveLength(1);
      const root = join(tmp, own[0]!);
      expect((await stat(root)).mode & 0o777).toBe(0o700);

      // A run writes its bundle: into the private folder, not through the planted link.
      let datasets: { id: string }[] = [];
      for (let i = 0; i < 200 && datasets.length === 0; i++) {
        datasets = (await call('datasets:list', null, to)).value as { id: string }[];
        if (datasets.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      const started = await call(
        'runs:start',
        {
          datasetId: datasets[0]!.id,
          method: 'kmeans-concat',
          params: {},
          seed: 1,
          protocol: 'single',
        },
        to,
      );
      if (!started.ok) throw new Error(started.error?.message);
      const id = (started.value as { id: string }).id;
      let status = '';
      for (let i = 0; i < 600 && !['done', 'failed', 'cancelled'].includes(status); i++) {
        const runs = (await call('runs:list', null, to)).value as { id: string; status: string }[];
        status = runs.find((r) => r.id === id)?.status ?? '';
        if (!['done', 'failed', 'cancelled'].includes(status))
          await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('done');
      const result = await call('runs:result', { id }, to);
      const bundle = (result.value as { bundle: string }).bundle;
      expect(bundle.startsWith(join(root, 'runs') + '/')).toBe(true);
      expect(await readdir(planted)).toEqual([]);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(root)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await rm(tmp, { recursive: true, force: true });
    }
  }, 90_000);
});
