/**
 * The host's side of the solver worker: starts it, sends runs, relays progress, cancels, and
 * survives it. A worker that exits or is killed mid-run (a crash, out of memory, SIGKILL) fails
 * that run with the reason; one that sends nothing for `stallMs` during a run is killed and the
 * run failed as "stopped answering" (a fresh worker's start-up, until its 'ready', may take up to
 * STARTUP_MS instead). The next run starts a fresh worker. Runs go one at a time
 * (the queue is here; the worker sees one run).
 *
 * How the process is started is injected (`spawn`): child_process.fork in the web host and the
 * tests (`forkWorker` below), Electron's utilityProcess in src/main.
 */
import { fork } from 'node:child_process';
import type { FromWorker, Progress, RunRequest, ToWorker } from '../shared/worker-protocol';
import type { SerializedError } from '../shared/contract';

/**
 * V8 options of every solver worker process (`forkWorker`, Electron's utilityProcess, the
 * benches that stand in for it). `--no-concurrent-recompilation`: V8 optimises hot functions
 * on the thread that runs them instead of on a background compiler thread. A solver process
 * keeps every core busy with its own threads (the solver's and one helper per other core), so
 * the background compiler competes with them and hot code runs unoptimised until it gets a
 * turn; measured on HW (CGL, 2 cores, fresh processes, interleaved): 8.5 s → 7.9 s end to end
 * and ~1 s less CPU. With one thread there is no such contention and no measurable difference.
 */
export const SOLVER_V8_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];

/** A started worker process, as the host sees it. */
export interface WorkerProcess {
  send(message: ToWorker): void;
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

interface Job {
  runId: string;
  request: RunRequest;
  onProgress: (p: Progress) => void;
  resolve: (o: RunOutcome) => void;
}

export interface WorkerHostOptions {
  spawn: () => WorkerProcess;
  /**
   * A run during which the worker sends nothing for this long is failed (default 120 s); the
   * clock starts when the worker is ready (start-up has STARTUP_MS).
   */
  stallMs?: number;
  /**
   * A cancelled run whose worker has not stopped within this long (a long step between two
   * boundaries) is ended by killing the worker (default 500 ms); the next run gets a fresh one.
   */
  cancelGraceMs?: number;
}

/** Longest a fresh worker may take to say 'ready' before its run is failed as stalled. */
export const STARTUP_MS = 60_000;

let counter = 0;

export class WorkerHost {
  readonly #spawn: () => WorkerProcess;
  readonly #stallMs: number;
  readonly #cancelGraceMs: number;
  #worker: WorkerProcess | null = null;
  #queue: Job[] = [];
  #active: Job | null = null;
  #stallTimer: NodeJS.Timeout | null = null;
  /** Workers that have sent 'ready'. */
  readonly #ready = new WeakSet<WorkerProcess>();
  #disposed = false;

  constructor(options: WorkerHostOptions) {
    this.#spawn = options.spawn;
    this.#stallMs = options.stallMs ?? 120_000;
    this.#cancelGraceMs = options.cancelGraceMs ?? 500;
  }

  /** Queues a run; progress arrives through `onProgress`, the end through `outcome`. */
  run(request: RunRequest, onProgress: (p: Progress) => void = () => {}): RunHandle {
    if (this.#disposed) throw new Error('the worker host was disposed');
    const runId = `run-${process.pid}-${++counter}`;
    const outcome = new Promise<RunOutcome>((resolve) => {
      this.#queue.push({ runId, request, onProgress, resolve });
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
    this.#armStall(this.#ready.has(worker) ? this.#stallMs : Math.max(this.#stallMs, STARTUP_MS));
    worker.send({ type: 'run', runId: job.runId, request: job.request });
  }

  #ensureWorker(): WorkerProcess {
    if (this.#worker) return this.#worker;
    const worker = this.#spawn();
    this.#worker = worker;
    worker.onMessage((m) => this.#onMessage(worker, m));
    worker.onExit((reason) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#finish({
        status: 'failed',
        error: { name: 'WorkerCrashed', message: `the solver worker stopped: ${reason}` },
      });
    });
    return worker;
  }

  #onMessage(worker: WorkerProcess, m: FromWorker): void {
    if (worker !== this.#worker) return;
    if (m.type === 'ready') {
      this.#ready.add(worker);
      if (this.#active) this.#armStall(this.#stallMs);
      return;
    }
    const job = this.#active;
    if (!job || m.runId !== job.runId) return;
    this.#armStall(this.#stallMs);
    switch (m.type) {
      case 'progress':
        job.onProgress(m.progress);
        break;
      case 'done':
        this.#finish({ status: 'done', result: m.result });
        break;
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
          message: `the solver worker stopped answering (nothing for ${ms / 1000} s); it was restarted`,
        },
      });
    }, ms);
    this.#stallTimer.unref();
  }

  #finish(outcome: RunOutcome): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = null;
    const job = this.#active;
    this.#active = null;
    job?.resolve(outcome);
    queueMicrotask(() => this.#pump());
  }
}

/**
 * Starts a worker with child_process.fork and structured-clone ('advanced') serialization, so
 * typed arrays cross intact, under SOLVER_V8_FLAGS. `execArgv` (after those) e.g.
 * ['--import', 'tsx'] to run a TypeScript entry.
 */
export function forkWorker(modulePath: string, execArgv: string[] = []): WorkerProcess {
  const child = fork(modulePath, [], {
    serialization: 'advanced',
    execArgv: [...SOLVER_V8_FLAGS, ...execArgv],
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
