/**
 * The fuzz harness: runs every corpus file through the CLI (`mvstudio info`, then `run
 * kmeans-concat --k 2` for what loads) and through the web host (`datasets:open` on a server in
 * a child process, pinged with `methods:list` between files), and classifies each attempt.
 *
 * A file passes a leg when it ends in a dataset or a clear error (one paragraph, no stack
 * trace, no quoted secret) within LIMITS.timeoutMs and under LIMITS.memoryBytes of resident
 * memory, and (serve) the server then answers a ping within LIMITS.pingMs. Peak memory is
 * VmHWM of /proc/<pid>/status (reset per file through clear_refs in the long-lived server),
 * polled every 50 ms; a process over the limit is killed there.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES, makeCase, prepareBases } from './corpus';
import type { Family, FuzzCase } from './corpus';

export const LIMITS = {
  timeoutMs: 20_000,
  memoryBytes: 1.5 * 2 ** 30,
  pingMs: 200,
} as const;

export const OUTCOMES = [
  'dataset',
  'error',
  'crash',
  'timeout',
  'memory',
  'unresponsive',
  'leak',
] as const;
/** dataset / error pass; the rest fail (leak: an error quoting the file's content). */
export type Outcome = (typeof OUTCOMES)[number];
export const PASSING: ReadonlySet<Outcome> = new Set(['dataset', 'error']);

export type Leg = 'cli' | 'serve';

export interface LegResult {
  readonly leg: Leg;
  readonly fuzzCase: FuzzCase;
  readonly outcome: Outcome;
  readonly ms: number;
  /** Peak resident memory seen, MiB (0 when not measured). */
  readonly peakMiB: number;
  /** The error text, or why the attempt failed. */
  readonly detail: string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'mvstudio.mjs');
const SERVE_CHILD = join(ROOT, 'test', 'fuzz', 'serve-child.ts');
const KEEP = 64 * 1024; // bytes of a child's output kept; the rest is drained

/** Why `text` is not a clear error message, or null when it is one. */
export function unclear(text: string, secret?: string): string | null {
  const t = text.trim();
  if (t === '') return 'no error message';
  if (/^\s+at\s/m.test(t)) return 'a stack trace';
  const internal =
    /\b(TypeError|RangeError|ReferenceError|SyntaxError|AssertionError|EvalError)\b|node:internal|Uncaught|FATAL ERROR|Aborted|RuntimeError/.exec(
      t,
    );
  if (internal) return `an internal error (${internal[0]})`;
  if (/\n\s*\n/.test(t)) return 'more than one paragraph';
  if (secret !== undefined && t.includes(secret)) return "it quotes the file's content";
  return null;
}

/** `pid` and its descendants (a loader or worker process the host starts counts too). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let k = 0; k < out.length; k++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${out[k]!}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const kids = readFileSync(`/proc/${out[k]!}/task/${tid}/children`, 'utf8');
        for (const c of kids.trim().split(/\s+/)) if (c !== '') out.push(Number(c));
      } catch {
        // The task ended while being read.
      }
    }
  }
  return out;
}

/**
 * Peak and current resident memory of a process and its descendants, bytes (sums over the
 * tree, so the peak is an upper bound); null once the process is gone.
 */
function memoryOf(pid: number): { hwm: number; rss: number } | null {
  let hwm = 0;
  let rss = 0;
  for (const p of processTree(pid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      if (p === pid) return null;
      continue;
    }
    const kb = (key: string): number =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    hwm += kb('VmHWM');
    rss += kb('VmRSS');
  }
  return { hwm, rss };
}

/** Resets VmHWM to the current RSS over the tree (Linux: write 5 to clear_refs). */
function resetPeak(pid: number): void {
  for (const p of processTree(pid)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, '5');
    } catch {
      // Not ours or gone: its peak then stays an upper bound.
    }
  }
}

/** Watches a process's memory every 50 ms; calls `over` once it exceeds the limit. */
function watchMemory(pid: number, over: () => void): { peak: () => number; stop: () => void } {
  let peak = 0;
  const poll = (): void => {
    const m = memoryOf(pid);
    if (m === null) return;
    peak = Math.max(peak, m.hwm, m.rss);
    if (m.rss > LIMITS.memoryBytes) over();
  };
  poll();
  const timer = setInterval(poll, 50);
  return {
    peak: () => {
      poll();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  peak: number;
  killed: 'timeout' | 'memory' | null;
}

/** Runs `node bin/mvstudio.mjs ...args` under the time and memory limits. */
function runCli(args: readonly string[], cwd: string): Promise<ChildRun> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MVSTUDIO_THREADS: '0', NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < KEEP) stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < KEEP) stderr += c.toString('utf8');
    });
    let killed: ChildRun['killed'] = null;
    const kill = (why: 'timeout' | 'memory'): void => {
      if (killed === null) killed = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), LIMITS.timeoutMs);
    const mem = child.pid !== undefined ? watchMemory(child.pid, () => kill('memory')) : null;
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const peak = mem?.peak() ?? 0;
      mem?.stop();
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, peak, killed });
    });
  });
}

const MiB = (b: number): number => Math.round(b / 2 ** 20);

function classifyCli(c: FuzzCase, what: string, r: ChildRun): { outcome: Outcome; detail: string } {
  if (r.killed === 'timeout')
    return { outcome: 'timeout', detail: `${what}: killed after ${LIMITS.timeoutMs / 1000} s` };
  if (r.killed === 'memory' || r.peak > LIMITS.memoryBytes) {
    return {
      outcome: 'memory',
      detail: `${what}: ${MiB(r.peak)} MiB resident (limit ${MiB(LIMITS.memoryBytes)})`,
    };
  }
  const err = r.stderr.trim();
  if (r.code === 0) return { outcome: 'dataset', detail: `${what}: exit 0` };
  if (r.code === 2) {
    const why = unclear(err, c.secret);
    if (why === null) return { outcome: 'error', detail: err };
    return {
      outcome: why.startsWith('it quotes') ? 'leak' : 'crash',
      detail: `${what}: exit 2 with ${why}: ${tail(err)}`,
    };
  }
  return { outcome: 'crash', detail: `${what}: exit ${r.code ?? r.signal}: ${tail(err)}` };
}

function tail(s: string): string {
  const lines = s.trim().split('\n');
  // The thrown error's own line (`RangeError: ...`) rather than the source line above it.
  const first =
    lines.find((l) => /^\s*[A-Z]\w*Error\b.*:/.test(l)) ??
    lines.find((l) => /error/i.test(l)) ??
    lines[0] ??
    '';
  return first.trim().slice(0, 400);
}

/** The CLI leg for one file: `info`, then `run kmeans-concat --k 2` if it loaded. */
export async function cliLeg(c: FuzzCase, work: string): Promise<LegResult> {
  const info = await runCli(['info', c.path], work);
  let { outcome, detail } = classifyCli(c, 'info', info);
  let ms = info.ms;
  let peak = info.peak;
  if (outcome === 'dataset') {
    const run = await runCli(
      ['run', 'kmeans-concat', c.path, '--k', '2', '--seed', '1', '--out', join(work, 'runs')],
      work,
    );
    ({ outcome, detail } = classifyCli(c, 'run kmeans-concat --k 2', run));
    ms += run.ms;
    peak = Math.max(peak, run.peak);
    rmSync(join(work, 'runs'), { recursive: true, force: true });
  }
  return { leg: 'cli', fuzzCase: c, outcome, ms, peakMiB: MiB(peak), detail };
}

// ---------------------------------------------------------------------------------------------
// The serve leg

interface ApiReply {
  status: number;
  body: string;
}

/**
 * The one place the harness talks HTTP to the web host: POST /api/<channel> with a JSON body.
 * Every header the server requires (the per-launch token, once it exists) is added here.
 */
export function apiCall(
  base: string,
  channel: string,
  payload: unknown,
  timeoutMs: number,
): Promise<ApiReply> {
  const url = new URL(`/api/${channel}`, base);
  const token = new URL(base).searchParams.get('token') ?? '';
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Authorization: `Bearer ${token}`,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (ch: Buffer) => {
        size += ch.length;
        if (size <= 4 * KEEP) chunks.push(ch);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A web host in a child process, restarted whenever a file kills or wedges it. */
export class ServeHost {
  #child: ChildProcess | null = null;
  #url = '';
  #stderr = '';
  #exit: string | null = null;
  restarts = 0;
  readonly #folder: string;

  /** `folder`: where the servers keep their files; the caller removes it. */
  constructor(folder: string) {
    this.#folder = folder;
  }

  async #start(): Promise<void> {
    this.#stderr = '';
    this.#exit = null;
    const child = spawn(process.execPath, ['--import', 'tsx', SERVE_CHILD, this.#folder], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    this.#child = child;
    child.stderr.on('data', (c: Buffer) => {
      if (this.#child === child && this.#stderr.length < KEEP) this.#stderr += c.toString('utf8');
    });
    child.on('exit', (code, signal) => {
      // A server killed earlier exits late: only the current one's exit counts.
      if (this.#child === child) this.#exit = `exit ${code ?? signal}`;
    });
    this.#url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (c: Buffer): void => {
        out += c.toString('utf8');
        const line = out.split('\n')[0];
        if (out.includes('\n') && line !== undefined) {
          child.stdout.off('data', onData);
          child.stdout.resume();
          try {
            resolve((JSON.parse(line) as { url: string }).url);
          } catch {
            reject(new Error(`the fuzz server printed '${line}'`));
          }
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', () =>
        reject(new Error(`the fuzz server exited on start: ${this.#stderr}`)),
      );
    });
  }

  #started = false;

  async #restart(): Promise<void> {
    this.#kill();
    if (this.#started) this.restarts++;
    this.#started = true;
    await this.#start();
  }

  #kill(): void {
    if (this.#child !== null && this.#exit === null) this.#child.kill('SIGKILL');
    this.#child = null;
  }

  /** Opens one file through `datasets:open`, then pings; restarts the server after a failure. */
  async open(c: FuzzCase): Promise<LegResult> {
    if (this.#child === null || this.#exit !== null) await this.#restart();
    const child = this.#child!;
    const pid = child.pid!;
    resetPeak(pid);
    let killedFor: 'memory' | null = null;
    const mem = watchMemory(pid, () => {
      killedFor = 'memory';
      child.kill('SIGKILL');
    });
    const t0 = Date.now();
    const result = (outcome: Outcome, detail: string): LegResult => ({
      leg: 'serve',
      fuzzCase: c,
      outcome,
      ms: Date.now() - t0,
      peakMiB: MiB(mem.peak()),
      detail,
    });
    let reply: ApiReply | null = null;
    let failure = '';
    try {
      reply = await apiCall(this.#url, 'datasets:open', { path: c.path }, LIMITS.timeoutMs);
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    let res: LegResult;
    if (killedFor === 'memory' || mem.peak() > LIMITS.memoryBytes) {
      res = result(
        'memory',
        `server at ${MiB(mem.peak())} MiB resident (limit ${MiB(LIMITS.memoryBytes)})`,
      );
    } else if (reply === null) {
      await new Promise((r) => setTimeout(r, 100)); // let an exit be noticed
      res =
        this.#exit !== null
          ? result('crash', `the server died (${this.#exit}): ${tail(this.#stderr)}`)
          : Date.now() - t0 >= LIMITS.timeoutMs - 50
            ? result('timeout', `no answer to datasets:open within ${LIMITS.timeoutMs / 1000} s`)
            : result('crash', `request failed: ${failure}`);
    } else {
      res = this.#judge(c, reply, result);
      if (res.outcome === 'dataset') {
        const id = (JSON.parse(reply.body) as { value?: { id?: string } }).value?.id;
        if (id !== undefined)
          await apiCall(this.#url, 'datasets:remove', { id }, LIMITS.timeoutMs).catch(() => null);
      }
    }
    mem.stop();
    if (PASSING.has(res.outcome)) {
      const p0 = Date.now();
      const pong = await apiCall(this.#url, 'methods:list', null, LIMITS.pingMs).catch(
        (e: unknown) => String(e),
      );
      const waited = Date.now() - p0;
      if (typeof pong === 'string' || pong.status !== 200 || waited > LIMITS.pingMs) {
        res = {
          ...res,
          outcome: 'unresponsive',
          detail: `after ${res.outcome}: ping methods:list ${typeof pong === 'string' ? pong : `took ${waited} ms`}`,
        };
      }
    }
    if (!PASSING.has(res.outcome)) await this.#restart();
    return res;
  }

  #judge(c: FuzzCase, reply: ApiReply, result: (o: Outcome, d: string) => LegResult): LegResult {
    let env: { ok?: boolean; error?: { name?: string; message?: string } };
    try {
      env = JSON.parse(reply.body) as typeof env;
    } catch {
      return result('crash', `HTTP ${reply.status}, not an Envelope: ${reply.body.slice(0, 200)}`);
    }
    if (env.ok === true) return result('dataset', `HTTP ${reply.status} ok`);
    if (env.ok !== false || typeof env.error?.message !== 'string') {
      return result('crash', `HTTP ${reply.status}, not an Envelope: ${reply.body.slice(0, 200)}`);
    }
    const msg = env.error.message;
    const why = unclear(msg, c.secret);
    if (why === null) return result('error', `${env.error.name ?? 'Error'}: ${msg}`);
    return result(
      why.startsWith('it quotes') ? 'leak' : 'crash',
      `${env.error.name ?? 'Error'} with ${why}: ${tail(msg)}`,
    );
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child === null || this.#exit !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
    this.#child = null;
  }
}

// ---------------------------------------------------------------------------------------------
// The run

export interface FuzzOptions {
  readonly seed: number;
  /** Cases 0..files−1 of the corpus, or exactly `indices`. */
  readonly files?: number;
  readonly indices?: readonly number[];
  readonly legs?: readonly Leg[];
  /** Stop starting files after this long (ms); the summary says how many ran. */
  readonly budgetMs?: number;
  /** Files generated, run and deleted per batch (keeps the disk use small). */
  readonly batch?: number;
  readonly onResult?: (r: LegResult) => void;
}

export interface FuzzSummary {
  readonly seed: number;
  readonly planned: number;
  /** Files that went through every requested leg. */
  readonly ran: number;
  readonly results: readonly LegResult[];
  readonly serverRestarts: number;
  readonly ms: number;
}

/** Generates the corpus batch by batch and runs each batch through the legs (one file per leg at a time). */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const legs = opts.legs ?? ['cli', 'serve'];
  const batch = opts.batch ?? 100;
  const indices = opts.indices ?? Array.from({ length: opts.files ?? 0 }, (_, i) => i);
  const t0 = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'mvs-fuzz-'));
  const work = join(dir, 'work');
  const results: LegResult[] = [];
  const serve = legs.includes('serve') ? new ServeHost(join(dir, 'serve')) : null;
  let ran = 0;
  try {
    const bases = await prepareBases(join(dir, 'bases'));
    for (let start = 0; start < indices.length; start += batch) {
      if (opts.budgetMs !== undefined && Date.now() - t0 > opts.budgetMs) break;
      const files = join(dir, `batch-${start}`);
      mkdirSync(files, { recursive: true });
      mkdirSync(work, { recursive: true });
      const cases: FuzzCase[] = [];
      for (const i of indices.slice(start, start + batch))
        cases.push(makeCase(files, bases, opts.seed, i));
      let stop = false;
      const runLeg = async (leg: Leg): Promise<number> => {
        let done = 0;
        for (const c of cases) {
          if (stop || (opts.budgetMs !== undefined && Date.now() - t0 > opts.budgetMs)) {
            stop = true;
            break;
          }
          const r = leg === 'cli' ? await cliLeg(c, work) : await serve!.open(c);
          results.push(r);
          opts.onResult?.(r);
          done++;
        }
        return done;
      };
      const done = await Promise.all(legs.map(runLeg));
      ran += Math.min(...done);
      rmSync(files, { recursive: true, force: true });
      if (stop) break;
    }
  } finally {
    await serve?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    seed: opts.seed,
    planned: indices.length,
    ran,
    results,
    serverRestarts: serve?.restarts ?? 0,
    ms: Date.now() - t0,
  };
}

/** Counts per leg, family and outcome, and the failing files, as text. */
export function report(s: FuzzSummary): string {
  const lines: string[] = [];
  lines.push(
    `fuzz: seed ${s.seed}, ${s.ran} of ${s.planned} files through every leg in ${(s.ms / 1000).toFixed(0)} s, ${s.serverRestarts} server restarts`,
  );
  for (const leg of ['cli', 'serve'] as const) {
    const mine = s.results.filter((r) => r.leg === leg);
    if (mine.length === 0) continue;
    lines.push('', `${leg} (${mine.length} files)`);
    lines.push(['family'.padEnd(10), ...OUTCOMES.map((o) => o.padStart(12))].join(''));
    const row = (name: string, rs: readonly LegResult[]): string =>
      [
        name.padEnd(10),
        ...OUTCOMES.map((o) => String(rs.filter((r) => r.outcome === o).length).padStart(12)),
      ].join('');
    for (const f of FAMILIES as readonly Family[]) {
      const rs = mine.filter((r) => r.fuzzCase.family === f);
      if (rs.length > 0) lines.push(row(f, rs));
    }
    lines.push(row('all', mine));
  }
  const failing = s.results.filter((r) => !PASSING.has(r.outcome));
  lines.push('', `failing: ${failing.length}`);
  for (const r of failing) {
    lines.push(
      `  [${r.leg}] ${r.outcome} ${r.fuzzCase.path.split('/').pop()} (${r.ms} ms, ${r.peakMiB} MiB): ${r.fuzzCase.recipe}`,
    );
    lines.push(`      ${r.detail.split('\n')[0]!.slice(0, 300)}`);
  }
  return lines.join('\n');
}
