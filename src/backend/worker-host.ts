/**
 * The host's side of a worker process (the solver worker, or the dataset loader): starts it,
 * sends runs, relays progress, cancels, and survives it. A worker that exits or is killed
 * mid-run (a crash, out of memory, SIGKILL) fails that run with the reason; one that sends
 * nothing for `stallMs` during a run is killed and the run failed as "stopped answering" (a
 * fresh worker's start-up, until its 'ready', may take up to STARTUP_MS instead); one whose
 * resident memory grows past `memoryLimitBytes` during a run is killed and the run failed with
 * that reason. The next run starts a fresh worker. Runs go one at a time (the queue is here;
 * the worker sees one run).
 *
 * How the process is started is injected (`spawn`): child_process.fork in the web host and the
 * tests (`forkWorker` below), Electron's utilityProcess in src/main.
 */
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { PartAssembler } from '../shared/worker-protocol';
import type { FromWorker, Progress, RunRequest, ToWorker } from '../shared/worker-protocol';
import type { SerializedError } from '../shared/contract';

/** A started worker process, as the host sees it; `Req` is what one of its jobs asks. */
export interface WorkerProcess<Req = RunRequest> {
  /** The OS process id, for the memory watchdog; undefined when unknown (no watchdog). */
  readonly pid?: number | undefined;
  send(message: ToWorker<Req>): void;
  onMessage(listener: (message: FromWorker) => void): void;
  /** Called once when the process ends; `reason` in words ("killed by SIGKILL", "exit code 1"). */
  onExit(listener: (reason: string) => void): void;
  kill(): void;
}

export type RunOutcome =
  | { readonly status: 'done'; readonly result: unknown }
  | { readonly status: 'cancelled' }
  | { readonly status: 'failed'; readonly error: SerializedError };

export interface RunHandle {
  readonly runId: string;
  readonly outcome: Promise<RunOutcome>;
}

interface Job<Req> {
  runId: string;
  request: Req;
  /** Slices of the result's large arrays received so far. */
  parts: PartAssembler;
  onProgress: (p: Progress) => void;
  resolve: (o: RunOutcome) => void;
}

export interface WorkerHostOptions<Req = RunRequest> {
  spawn: () => WorkerProcess<Req>;
  /**
   * A run during which the worker sends nothing for this long is failed (default 120 s); the
   * clock starts when the worker is ready (start-up has STARTUP_MS). null: no stall clock (the
   * loader sends nothing while it reads, and a big file is no reason to stop it).
   */
  stallMs?: number | null;
  /**
   * A worker whose resident set grows past this many bytes during a run is killed and the run
   * failed (default: MVSTUDIO_MEMORY_LIMIT, else defaultSolverMemoryLimit()); null: no limit. Read from /proc (Linux); where
   * there is none the limit is not applied.
   */
  memoryLimitBytes?: number | null;
  /** How often the resident set is read during a run (default 100 ms). */
  memoryPollMs?: number;
  /** The process in messages: "the solver worker stopped: …" (default 'solver worker'). */
  processName?: string;
  /** What a run is in messages: "the run needed more than 1.5 GiB" (default 'the run'). */
  activity?: string;
  /**
   * A cancelled run whose worker has not stopped within this long (a long step between two
   * boundaries) is ended by killing the worker (default 500 ms); the next run gets a fresh one.
   */
  cancelGraceMs?: number;
}

/** Longest a fresh worker may take to say 'ready' before its run is failed as stalled. */
export const STARTUP_MS = 60_000;

/** The loader's default memory limit: 1.5 GiB resident (what a damaged file may cost). */
export const DEFAULT_MEMORY_LIMIT_BYTES = 1.5 * 1024 ** 3;

/** The variable that sets every worker's memory limit: bytes, or a size such as "8G", "1536M"; "none" for no limit. */
export const MEMORY_LIMIT_VARIABLE = 'MVSTUDIO_MEMORY_LIMIT';

/**
 * The memory limit `MVSTUDIO_MEMORY_LIMIT` asks for: bytes, null for "none", undefined when
 * unset. A malformed value is an error naming the variable, so a typo never removes the limit.
 */
export function memoryLimitFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): number | null | undefined {
  const raw = env[MEMORY_LIMIT_VARIABLE];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'none') return null;
  const m = /^([0-9]+(?:\.[0-9]+)?)([KMGT]?)i?B?$/i.exec(raw);
  const scale: Record<string, number> = {
    '': 1,
    K: 1024,
    M: 1024 ** 2,
    G: 1024 ** 3,
    T: 1024 ** 4,
  };
  const bytes = m ? Number(m[1]) * scale[m[2]!.toUpperCase()]! : NaN;
  if (!(bytes >= 64 * 1024 ** 2)) {
    throw new Error(
      `${MEMORY_LIMIT_VARIABLE}='${raw}': expected a size of at least 64M (e.g. 8G, 1536M) or 'none'`,
    );
  }
  return bytes;
}

/**
 * A solver worker's default limit: three quarters of the machine's memory (at least 1.5 GiB),
 * so a runaway run stops before the machine swaps, while real runs keep the room they need.
 */
export function defaultSolverMemoryLimit(): number {
  return Math.max(DEFAULT_MEMORY_LIMIT_BYTES, Math.floor(0.75 * totalmem()));
}

/**
 * The memory limit of a solver worker started now: MVSTUDIO_MEMORY_LIMIT's (null for 'none'),
 * else defaultSolverMemoryLimit(). The CLI, which solves in-process, refuses runs above it too.
 */
export function solverMemoryLimit(env: NodeJS.ProcessEnv = process.env): number | null {
  const fromEnv = memoryLimitFromEnv(env);
  return fromEnv === undefined ? defaultSolverMemoryLimit() : fromEnv;
}

let counter = 0;

export class WorkerHost<Req = RunRequest> {
  readonly #spawn: () => WorkerProcess<Req>;
  readonly #stallMs: number | null;
  readonly #cancelGraceMs: number;
  readonly #memoryLimit: number | null;
  readonly #memoryPollMs: number;
  readonly #processName: string;
  readonly #activity: string;
  #worker: WorkerProcess<Req> | null = null;
  #queue: Job<Req>[] = [];
  #active: Job<Req> | null = null;
  #stallTimer: NodeJS.Timeout | null = null;
  #memoryTimer: NodeJS.Timeout | null = null;
  #memoryReading = false;
  /** Workers that have sent 'ready'. */
  readonly #ready = new WeakSet<WorkerProcess<Req>>();
  #disposed = false;

  constructor(options: WorkerHostOptions<Req>) {
    this.#spawn = options.spawn;
    this.#stallMs = options.stallMs === undefined ? 120_000 : options.stallMs;
    this.#cancelGraceMs = options.cancelGraceMs ?? 500;
    this.#memoryLimit =
      options.memoryLimitBytes === undefined ? solverMemoryLimit() : options.memoryLimitBytes;
    this.#memoryPollMs = options.memoryPollMs ?? 100;
    this.#processName = options.processName ?? 'solver worker';
    this.#activity = options.activity ?? 'the run';
  }

  /** Resident bytes past which a run's worker is killed; null: no limit. */
  get memoryLimitBytes(): number | null {
    return this.#memoryLimit;
  }

  /** Queues a run; progress arrives through `onProgress`, the end through `outcome`. */
  run(request: Req, onProgress: (p: Progress) => void = () => {}): RunHandle {
    if (this.#disposed) throw new Error('the worker host was disposed');
    const runId = `run-${process.pid}-${++counter}`;
    const outcome = new Promise<RunOutcome>((resolve) => {
      this.#queue.push({ runId, request, onProgress, resolve, parts: new PartAssembler() });
    });
    this.#pump();
    return { runId, outcome };
  }

  /** Cancels a queued or running run (the worker stops at its next step boundary). */
  cancel(runId: string): void {
    const i = this.#queue.findIndex((j) => j.runId === runId);
    if (i >= 0) {
      const [job] = this.#queue.splice(i, 1);
      job!.resolve({ status: 'cancelled' });
      return;
    }
    const job = this.#active;
    if (job?.runId !== runId) return;
    const worker = this.#worker;
    worker?.send({ type: 'cancel', runId });
    // The worker stops at its next step boundary; a step that outlasts the grace is cut short.
    setTimeout(() => {
      if (this.#active !== job || this.#worker !== worker) return;
      this.#worker = null;
      worker?.kill();
      this.#finish({ status: 'cancelled' });
    }, this.#cancelGraceMs).unref();
  }

  /** Fails what is queued or running, and stops the worker. */
  dispose(): void {
    this.#disposed = true;
    const error = { name: 'Error', message: 'the application is closing' };
    for (const job of this.#queue.splice(0)) job.resolve({ status: 'failed', error });
    this.#finish({ status: 'failed', error });
    this.#worker?.kill();
    this.#worker = null;
  }

  #pump(): void {
    if (this.#active || this.#disposed) return;
    const job = this.#queue.shift();
    if (!job) return;
    this.#active = job;
    const worker = this.#ensureWorker();
    // A fresh worker's start-up (loading modules, on a busy machine) is not a stall: the stall
    // clock starts at its 'ready', within STARTUP_MS.
    if (this.#stallMs !== null) {
      this.#armStall(this.#ready.has(worker) ? this.#stallMs : Math.max(this.#stallMs, STARTUP_MS));
    }
    this.#watchMemory();
    worker.send({ type: 'run', runId: job.runId, request: job.request });
  }

  #ensureWorker(): WorkerProcess<Req> {
    if (this.#worker) return this.#worker;
    const worker = this.#spawn();
    this.#worker = worker;
    worker.onMessage((m) => this.#onMessage(worker, m));
    worker.onExit((reason) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#finish({
        status: 'failed',
        error: { name: 'WorkerCrashed', message: `the ${this.#processName} stopped: ${reason}` },
      });
    });
    return worker;
  }

  #onMessage(worker: WorkerProcess<Req>, m: FromWorker): void {
    if (worker !== this.#worker) return;
    if (m.type === 'ready') {
      this.#ready.add(worker);
      if (this.#active && this.#stallMs !== null) this.#armStall(this.#stallMs);
      return;
    }
    const job = this.#active;
    if (!job || m.runId !== job.runId) return;
    if (this.#stallMs !== null) this.#armStall(this.#stallMs);
    switch (m.type) {
      case 'progress':
        job.onProgress(m.progress);
        break;
      case 'part':
        job.parts.add(m);
        break;
      case 'done': {
        let result: unknown;
        try {
          result = job.parts.attach(m.result);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          this.#finish({ status: 'failed', error: { name: 'WorkerProtocol', message } });
          break;
        }
        this.#finish({ status: 'done', result });
        break;
      }
      case 'cancelled':
        this.#finish({ status: 'cancelled' });
        break;
      case 'failed':
        this.#finish({ status: 'failed', error: m.error });
        break;
    }
  }

  #armStall(ms: number): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = setTimeout(() => {
      const worker = this.#worker;
      this.#worker = null;
      worker?.kill();
      this.#finish({
        status: 'failed',
        error: {
          name: 'WorkerStalled',
          message: `the ${this.#processName} stopped answering (nothing for ${ms / 1000} s); it was restarted`,
        },
      });
    }, ms);
    this.#stallTimer.unref();
  }

  /** Reads the worker's resident set every `memoryPollMs` while a run is active. */
  #watchMemory(): void {
    if (this.#memoryLimit === null || this.#memoryTimer) return;
    this.#memoryTimer = setInterval(() => void this.#checkMemory(), this.#memoryPollMs);
    this.#memoryTimer.unref();
  }

  async #checkMemory(): Promise<void> {
    const limit = this.#memoryLimit;
    const worker = this.#worker;
    const job = this.#active;
    const pid = worker?.pid;
    if (limit === null || !job || pid === undefined || this.#memoryReading) return;
    this.#memoryReading = true;
    let rss: number | null;
    try {
      rss = await residentBytes(pid);
    } finally {
      this.#memoryReading = false;
    }
    if (rss === null || rss <= limit || this.#worker !== worker || this.#active !== job) return;
    this.#worker = null;
    worker?.kill();
    this.#finish({
      status: 'failed',
      error: {
        name: 'MemoryLimit',
        message:
          `${this.#activity} needed more than ${formatBytes(limit)}; the ${this.#processName} ` +
          `was stopped (set ${MEMORY_LIMIT_VARIABLE}, e.g. to 16G, to allow more)`,
      },
    });
  }

  #finish(outcome: RunOutcome): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
    if (this.#memoryTimer) clearInterval(this.#memoryTimer);
    this.#memoryTimer = null;
    const job = this.#active;
    this.#active = null;
    job?.resolve(outcome);
    queueMicrotask(() => this.#pump());
  }
}

/**
 * Starts a worker with child_process.fork and structured-clone ('advanced') serialization, so
 * typed arrays cross intact, under V8's default options (its background compiler included).
 * `execArgv`, e.g. ['--import', 'tsx'] to run a TypeScript entry.
 */
export function forkWorker<Req = RunRequest>(
  modulePath: string,
  execArgv: string[] = [],
): WorkerProcess<Req> {
  const child = fork(modulePath, [], {
    serialization: 'advanced',
    execArgv,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  // Pass the worker's stderr through, keeping its end: it says why a worker died (e.g. out
  // of memory).
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  return {
    pid: child.pid,
    send: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => child.on('message', (m) => listener(m as FromWorker)),
    onExit: (listener) =>
      child.once('exit', (code, signal) => {
        const how = signal ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`;
        listener(
          /heap out of memory|Allocation failed/i.test(tail) ? `out of memory (${how})` : how,
        );
      }),
    kill: () => child.kill('SIGKILL'),
  };
}

/**
 * The resident set of a process in bytes (VmRSS of /proc/<pid>/status, every thread
 * included), or null where it cannot be read (no /proc, the process has gone).
 */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Bytes in words: "1.5 GiB", "256 MiB". */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${+(bytes / size).toFixed(2)} ${unit}`;
  }
  return `${bytes} bytes`;
}
