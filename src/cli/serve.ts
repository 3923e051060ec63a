/**
 * `mvstudio serve`: the app in a browser. Serves the web build (out/web) and the backend's
 * channels as `POST /api/<channel>` (JSON body in, JSON Envelope out), on 127.0.0.1 only.
 *
 * The same handlers as Electron's main process answer the calls; the only difference is
 * `dialog:openDataset`, which returns null here (the page offers a path field instead).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { createHandlers, invoke } from '../backend/handlers';
import { DatasetLibrary } from '../backend/library';
import { RunManager } from '../backend/runs';
import { WorkerHost, forkWorker } from '../backend/worker-host';
import { hostWireJson } from '../backend/wire';
import { isChannel } from '../shared/contract';
import type { Envelope, EventName, EventPayload } from '../shared/contract';

/** Largest request body accepted on /api/* (bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_PORT = 5173;

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

/** The page's policy; index.html carries the same one in a meta tag for Electron. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ServeOptions {
  /** 0 picks a free port; the URL returned says which. */
  port: number;
  host?: '127.0.0.1';
  library: DatasetLibrary;
  /** The web build to serve (out/web). */
  staticDir: string;
  /** The runs; without it the run channels answer 'Unavailable'. */
  runs?: RunManager;
  /** Where generated files (missing-view masks) go; default a folder in the OS temp dir. */
  dataDir?: string;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
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
  const handlers = createHandlers(
    opts.library,
    {
      pickFile: async () => null,
      ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
    },
    opts.runs,
  );

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
    if (rawPath === '/api/events') return handleEvents(req, res);
    if (rawPath.startsWith('/api/')) return handleApi(req, res, rawPath.slice('/api/'.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, 'method not allowed');
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
    if (!isInside(staticDir, target)) return sendText(res, 403, 'forbidden');
    let info = await stat(target).catch(() => null);
    if (info?.isDirectory()) {
      target = join(target, 'index.html');
      info = await stat(target).catch(() => null);
    }
    if (!info?.isFile()) return sendText(res, 404, 'not found');
    // Symbolic links must not lead out of the build either.
    if (!isInside(staticDir, await realpath(target))) return sendText(res, 403, 'forbidden');
    const data = await readFile(target);
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
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
  const url = `http://${host}:${port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        unsubscribe?.();
        clearInterval(heartbeat);
        for (const res of streams) res.end();
        streams.clear();
        server.close((e) => (e ? rejectClose(e) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

/** `mvstudio serve [--port p]`: runs until SIGINT or SIGTERM. */
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

  const library = new DatasetLibrary({
    bundled: BUNDLED_DATASETS.filter((p) => existsSync(p)),
    spawnLoader: () => forkWorker(LOADER_ENTRY, ['--import', 'tsx']),
  });
  const host = sourceWorkerHost();
  const runs = new RunManager({
    host,
    library,
    bundleRoot: join(tmpdir(), `mvstudio-serve-runs-${process.pid}`),
  });
  let server: RunningServer;
  try {
    server = await startServer({ port, library, staticDir: WEB_DIR, runs });
  } catch (e) {
    host.dispose();
    library.dispose();
    process.stderr.write(`mvstudio serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  process.stdout.write(`mvstudio serve: ${server.url}\n`);
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

function isInside(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

function failure(name: string, message: string): Envelope<never> {
  return { ok: false, error: { name, message } };
}

function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

function sendEnvelope(res: ServerResponse, status: number, envelope: Envelope<unknown>): void {
  const body = hostWireJson(envelope);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...securityHeaders(),
  });
  res.end(body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...securityHeaders(),
  });
  res.end(text);
}
