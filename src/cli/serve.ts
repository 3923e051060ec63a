/**
 * `mvstudio serve`: the app in a browser. Serves the web build (out/web) and the backend's
 * channels as `POST /api/<channel>` (JSON body in, JSON Envelope out), on 127.0.0.1 only.
 *
 * The same handlers as Electron's main process answer the calls; the differences are the
 * dialogs: `dialog:openDataset` returns null here (the page offers a path field instead) and
 * `dialog:saveFile` confirms and grants a typed path.
 *
 * Every `/api/*` request (and the event stream) must carry the per-launch token, as Jupyter
 * does: `mvstudio serve` prints `http://127.0.0.1:<port>/?token=…`; opening it sets an
 * HttpOnly cookie and redirects to the page without the token. Scripts send the token as
 * `Authorization: Bearer …` or `X-Mvstudio-Token`. Static files need no token.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { APP_CSP, contentTypeOf, isInsideFolder } from '../backend/app-url';
import { createHandlers, invoke } from '../backend/handlers';
import { DatasetLibrary } from '../backend/library';
import { RunManager } from '../backend/runs';
import { WorkerHost, forkWorker } from '../backend/worker-host';
import { hostWireParts } from '../backend/wire';
import { isChannel } from '../shared/contract';
import type { Envelope, EventName, EventPayload } from '../shared/contract';
import { ensureWebBuild } from './web-build';

/** Largest request body accepted on /api/* (bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_PORT = 5173;
/** Event streams open at once per server; one more is refused with 503. */
export const MAX_EVENT_STREAMS = 16;
/** What a request without the token is told. */
export const UNAUTHORIZED_MESSAGE =
  'not authorised: open the address `mvstudio serve` printed, with its token';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_DIR = join(REPO_ROOT, 'out', 'web');
export const BUNDLED_DATASETS = [join(REPO_ROOT, 'resources', 'datasets', 'NGs_Per0.5.mat')];
/** The solver worker's entry, run through tsx (a dependency) so the sources need no build. */
export const WORKER_ENTRY = join(REPO_ROOT, 'src', 'worker', 'index.ts');
/** The dataset loader's entry (src/worker/loader.ts), likewise. */
export const LOADER_ENTRY = join(REPO_ROOT, 'src', 'worker', 'loader.ts');

/** A WorkerHost whose worker is src/worker/index.ts in a forked Node (tests and `serve`). */
export function sourceWorkerHost(): WorkerHost {
  return new WorkerHost({ spawn: () => forkWorker(WORKER_ENTRY, ['--import', 'tsx']) });
}

export interface ServeOptions {
  /** 0 picks a free port; the URL returned says which. */
  port: number;
  host?: '127.0.0.1';
  library: DatasetLibrary;
  /** The web build to serve (out/web). */
  staticDir: string;
  /** The runs; without it the run channels answer 'Unavailable'. */
  runs?: RunManager;
  /**
   * Where generated files (missing-view masks) go; default a private folder (mkdtemp, 0700)
   * removed by close().
   */
  dataDir?: string;
  /** The home folder a typed `~` stands for (tests); default os.homedir(). */
  home?: string;
}

export interface RunningServer {
  /** The origin, `http://127.0.0.1:<port>`, without the token. */
  readonly url: string;
  /** The per-launch secret: 32 random bytes, base64url. */
  readonly token: string;
  /** The address to open: `<url>/?token=<token>`. */
  readonly launchUrl: string;
  close(): Promise<void>;
}

/** A private folder in the OS temp dir: a random name (mkdtemp), mode 0700. */
export async function makePrivateTemp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o700);
  return dir;
}

/** Constant-time equality of two strings (compared as SHA-256 digests: equal lengths). */
function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** The value of cookie `name` in a Cookie header, or null. */
function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const found = await realpath(resolve(opts.staticDir)).catch(() => null);
  if (found === null || !existsSync(join(found, 'index.html'))) {
    throw new Error(
      `the web build is missing (${join(resolve(opts.staticDir), 'index.html')}): run \`npm run build:web\` first`,
    );
  }
  const staticDir: string = found;
  const token = randomBytes(32).toString('base64url');
  // Our own private folder unless the caller gave one; removed by close().
  const ownDataDir = opts.dataDir === undefined ? await makePrivateTemp('mvstudio-data-') : null;
  const handlers = createHandlers(
    opts.library,
    {
      pickFile: async () => null,
      dataDir: opts.dataDir ?? ownDataDir!,
      ...(opts.home !== undefined ? { home: opts.home } : {}),
      onStudyUpdate: (info) => broadcast('studies:update', info),
    },
    opts.runs,
  );
  let cookieName = 'mvstudio-token';

  /** True when the request carries the token: the cookie, a Bearer header or X-Mvstudio-Token. */
  function authorised(req: IncomingMessage): boolean {
    const candidates: string[] = [];
    const auth = req.headers.authorization;
    if (auth !== undefined && /^Bearer /i.test(auth)) candidates.push(auth.slice(7).trim());
    const header = req.headers['x-mvstudio-token'];
    if (typeof header === 'string') candidates.push(header.trim());
    const cookie = cookieValue(req.headers.cookie, cookieName);
    if (cookie !== null) candidates.push(cookie);
    let ok = false;
    for (const c of candidates) ok = sameSecret(c, token) || ok;
    return ok;
  }

  // Server-Sent Events (`GET /api/events`): the web host's side of the Electron events.
  const streams = new Set<ServerResponse>();
  function broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of streams) res.write(frame);
  }
  const unsubscribe = opts.runs?.subscribe((run) => broadcast('runs:update', run));
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': keep-alive\n\n');
  }, 15_000);
  heartbeat.unref();

  // Filled in once listening: requests must name this server (defeats DNS rebinding).
  let origins: string[] = [];
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendText(res, 500, 'internal error');
      else res.destroy();
      process.stderr.write(
        `mvstudio serve: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hostHeader = req.headers.host ?? '';
    if (!origins.includes(`http://${hostHeader}`)) {
      return sendText(res, 403, `unexpected Host header '${hostHeader}'`);
    }
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    if (rawPath.startsWith('/api/') || rawPath === '/api') {
      if (!authorised(req)) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return rawPath === '/api/events'
          ? sendText(res, 401, UNAUTHORIZED_MESSAGE)
          : sendEnvelope(res, 401, failure('Unauthorized', UNAUTHORIZED_MESSAGE));
      }
    }
    if (rawPath === '/api/events') return handleEvents(req, res);
    if (rawPath.startsWith('/api/')) return handleApi(req, res, rawPath.slice('/api/'.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, 'method not allowed');
    }
    const query = new URLSearchParams((req.url ?? '').split('?').slice(1).join('?'));
    const offered = query.get('token');
    if (offered !== null && req.method === 'GET' && sameSecret(offered, token)) {
      // The token moves into a cookie, and out of the address bar and history.
      query.delete('token');
      const rest = query.toString();
      res.writeHead(302, {
        Location: rawPath + (rest === '' ? '' : `?${rest}`),
        'Set-Cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'Cache-Control': 'no-store',
        ...securityHeaders(),
      });
      res.end();
      return;
    }
    return serveStatic(req, res, rawPath);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return sendText(res, 405, 'method not allowed');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) {
      return sendText(res, 403, `cross-origin request from ${origin}`);
    }
    if (streams.size >= MAX_EVENT_STREAMS) {
      res.setHeader('Retry-After', '5');
      return sendText(
        res,
        503,
        `too many event streams: ${MAX_EVENT_STREAMS} are open (close a tab of the app)`,
      );
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      ...securityHeaders(),
    });
    res.write('retry: 1000\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    let channel: string;
    try {
      channel = decodeURIComponent(name);
    } catch {
      return sendEnvelope(res, 400, failure('BadRequest', 'malformed channel name'));
    }
    if (!isChannel(channel)) {
      return sendEnvelope(res, 404, failure('NotFound', `unknown channel '${channel}'`));
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendEnvelope(res, 405, failure('MethodNotAllowed', `${channel}: use POST`));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) {
      return sendEnvelope(res, 403, failure('Forbidden', `cross-origin request from ${origin}`));
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return sendEnvelope(res, 415, failure('BadRequest', 'Content-Type must be application/json'));
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === null) {
      res.setHeader('Connection', 'close');
      return sendEnvelope(
        res,
        413,
        failure('PayloadTooLarge', `request body over ${MAX_BODY_BYTES} bytes`),
      );
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return sendEnvelope(
        res,
        400,
        failure('BadRequest', `request body is not valid JSON: ${why}`),
      );
    }
    const envelope = await invoke(handlers, channel, payload);
    const status = !envelope.ok && envelope.error.name === 'InvalidRequest' ? 400 : 200;
    return sendEnvelope(res, status, envelope);
  }

  async function serveStatic(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string,
  ): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return sendText(res, 400, 'malformed path');
    }
    if (decoded.includes('\0')) return sendText(res, 400, 'malformed path');
    let target = resolve(staticDir, '.' + (decoded.startsWith('/') ? decoded : '/' + decoded));
    if (!isInsideFolder(staticDir, target)) return sendText(res, 403, 'forbidden');
    let info = await stat(target).catch(() => null);
    if (info?.isDirectory()) {
      target = join(target, 'index.html');
      info = await stat(target).catch(() => null);
    }
    if (!info?.isFile()) return sendText(res, 404, 'not found');
    // Symbolic links must not lead out of the build either.
    if (!isInsideFolder(staticDir, await realpath(target))) return sendText(res, 403, 'forbidden');
    const data = await readFile(target);
    res.writeHead(200, {
      'Content-Type': contentTypeOf(target),
      'Content-Length': data.length,
      'Cache-Control': 'no-cache',
      ...securityHeaders(),
    });
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  await listen(server, opts.port, host);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no address');
  const port = address.port;
  origins = [`http://${host}:${port}`, `http://localhost:${port}`];
  // Cookies ignore ports: two servers on one host must not read each other's.
  cookieName = `mvstudio-token-${port}`;
  const url = `http://${host}:${port}`;
  return {
    url,
    token,
    launchUrl: `${url}/?token=${token}`,
    close: async () => {
      await new Promise<void>((resolveClose, rejectClose) => {
        unsubscribe?.();
        clearInterval(heartbeat);
        for (const res of streams) res.end();
        streams.clear();
        server.close((e) => (e ? rejectClose(e) : resolveClose()));
        server.closeAllConnections();
      });
      if (ownDataDir !== null) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `mvstudio serve [--port p]`: builds the web interface when it is missing or stale
 * (./web-build.ts), then runs until SIGINT or SIGTERM.
 */
export async function runServe(argv: string[]): Promise<number> {
  let port = DEFAULT_PORT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: mvstudio serve [--port p]   (p = 0 picks a free port)\n');
      return 0;
    }
    const value = arg === '--port' ? argv[++i] : arg.startsWith('--port=') ? arg.slice(7) : null;
    if (value === null) {
      process.stderr.write(`mvstudio serve: unknown option '${arg}'\n`);
      return 2;
    }
    const p = Number(value);
    if (value === undefined || value.trim() === '' || !Number.isInteger(p) || p < 0 || p > 65535) {
      process.stderr.write(
        `mvstudio serve: --port expects an integer 0..65535, got '${value ?? ''}'\n`,
      );
      return 2;
    }
    port = p;
  }

  // A fresh clone has no out/web, a pulled one an old one: build it before serving it.
  try {
    await ensureWebBuild(REPO_ROOT, WEB_DIR, (line) =>
      process.stdout.write(`mvstudio serve: ${line}\n`),
    );
  } catch (e) {
    process.stderr.write(`mvstudio serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }

  const library = new DatasetLibrary({
    bundled: BUNDLED_DATASETS.filter((p) => existsSync(p)),
    spawnLoader: () => forkWorker(LOADER_ENTRY, ['--import', 'tsx']),
  });
  // One private folder (random name, 0700) for the run bundles and generated masks, removed
  // at exit: a predictable name could be a symlink or folder planted by another user.
  const privateRoot = await makePrivateTemp('mvstudio-serve-');
  const host = sourceWorkerHost();
  const runs = new RunManager({ host, library, bundleRoot: join(privateRoot, 'runs') });
  let server: RunningServer;
  try {
    server = await startServer({
      port,
      library,
      staticDir: WEB_DIR,
      runs,
      dataDir: join(privateRoot, 'data'),
    });
  } catch (e) {
    host.dispose();
    await rm(privateRoot, { recursive: true, force: true });
    library.dispose();
    process.stderr.write(`mvstudio serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  process.stdout.write(`mvstudio serve: ${server.launchUrl}\n`);
  void library.ready.then(() => {
    for (const f of library.startupFailures) {
      process.stderr.write(
        `mvstudio serve: could not open bundled ${f.path}: ${f.error.message}\n`,
      );
    }
  });

  await new Promise<void>((resolveStop) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  host.dispose();
  library.dispose();
  await server.close();
  await rm(privateRoot, { recursive: true, force: true });
  return 0;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
}

/** The body, or null when it exceeds `limit` bytes (the rest is drained, not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolveBody, rejectBody) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', rejectBody);
  });
}

function failure(name: string, message: string): Envelope<never> {
  return { ok: false, error: { name, message } };
}

function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': APP_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * The Envelope as JSON with typed arrays as tagged base64, encoded a slice per turn of the
 * event loop (backend/wire.ts) so a 10^6-sample result never holds up other requests.
 */
async function sendEnvelope(
  res: ServerResponse,
  status: number,
  envelope: Envelope<unknown>,
): Promise<void> {
  const parts = await hostWireParts(envelope);
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': length,
    'Cache-Control': 'no-store',
    ...securityHeaders(),
  });
  for (const part of parts) res.write(part);
  res.end();
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...securityHeaders(),
  });
  res.end(text);
}
