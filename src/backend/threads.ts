/**
 * The Node implementation of core's `ThreadPool` (`core/parallel.ts`): worker_threads running
 * the task table of `core/tasks.ts`.
 *
 * The solver's thread blocks while helpers work (solvers are synchronous generators), so the
 * answer cannot come back as an event: a helper posts its result on a MessagePort of its own,
 * then raises a flag in shared memory; `finish` sleeps on the flag (Atomics.wait) and takes the
 * message with `receiveMessageOnPort`. Tasks go out with `worker.postMessage`, which the idle
 * helper's event loop picks up.
 *
 * Helpers are unref'ed: an idle pool never keeps a process alive. A host that bundles its code
 * (the CLI, the Electron worker) passes its own bundle as the entry and calls `runHelperIfThread`
 * first thing, so that the bundle becomes a helper when started as one; TypeScript hosts (tests,
 * benchmarks) use `thread-entry.ts` under tsx.
 */
import { availableParallelism } from 'node:os';
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
  isMainThread,
  parentPort,
  workerData,
} from 'node:worker_threads';
import { setThreadPool, threadPool, type ThreadPool } from '../core/parallel';
import { isTaskName, TASKS, type TaskName } from '../core/tasks';

/** What marks a worker_thread as one of ours (its workerData). */
interface HelperData {
  readonly mvstudioHelper: true;
  readonly port: MessagePort;
  readonly flag: SharedArrayBuffer;
  /** The module the helper runs (href). */
  readonly entry: string;
}

type Reply = { ok: true; output: unknown } | { ok: false; name: string; message: string };

const IDLE = 0;
const BUSY = 1;
const DONE = 2;

function isHelperData(d: unknown): d is HelperData {
  return typeof d === 'object' && d !== null && (d as HelperData).mvstudioHelper === true;
}

/**
 * In a helper thread started by `startThreadPool`: serves tasks and returns true (the caller
 * must then do nothing else). Anywhere else: returns false.
 */
export function runHelperIfThread(): boolean {
  if (isMainThread || !isHelperData(workerData) || !parentPort) return false;
  const { port, flag } = workerData;
  const state = new Int32Array(flag);
  parentPort.on('message', (m: { task: string; input: unknown }) => {
    port.postMessage(runTask(m.task, m.input));
    Atomics.store(state, 0, DONE);
    Atomics.notify(state, 0);
  });
  return true;
}

interface Helper {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly state: Int32Array;
  /** Set from the worker's 'error' / 'exit' events (seen when this thread's event loop runs). */
  exited: string | null;
  /** Why the helper cannot work; its tasks then run on the calling thread. */
  broken: string | null;
  /** The task in flight, kept to run it here should the helper turn out broken. */
  pending: { readonly task: TaskName; readonly input: unknown } | null;
  /** The answer of a task run here, for the next `finish`. */
  local: Reply | null;
}

/** Runs a task of `TASKS` on `input`; its error, if any, as a plain reply. */
function runTask(task: string, input: unknown): Reply {
  try {
    if (!isTaskName(task)) throw new Error(`no task named '${task}'`);
    const fn = TASKS[task] as (input: unknown) => unknown;
    return { ok: true, output: fn(input) };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { ok: false, name: err.name, message: err.message };
  }
}

/** A task run on this thread, over a structured clone of its input as a helper would get. */
function runHere(task: TaskName, input: unknown): Reply {
  return runTask(task, structuredClone(input));
}

function unwrap(reply: Reply): unknown {
  if (!reply.ok) {
    const err = new Error(reply.message);
    err.name = reply.name;
    throw err;
  }
  return reply.output;
}

/**
 * Helper threads a host should start: MVSTUDIO_THREADS (a whole number; 0 turns helpers off) or
 * by default the machine's parallelism − 1. A malformed value is an error naming the variable.
 */
export function helperCountFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.MVSTUDIO_THREADS;
  if (raw === undefined || raw === '') return Math.max(0, availableParallelism() - 1);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 64) {
    throw new Error(
      `MVSTUDIO_THREADS must be a whole number of helper threads 0..64, got '${raw}'`,
    );
  }
  return n;
}

export interface PoolOptions {
  /** Helper threads; default: the machine's parallelism − 1 (none on one core). */
  readonly helpers?: number;
  /** The module a helper runs; it must call `runHelperIfThread`. Default: thread-entry.ts. */
  readonly entry?: URL;
  /**
   * Told once per helper that cannot work (it did not start, or stopped) and whose tasks now
   * run on the calling thread. Default: a line on stderr.
   */
  readonly onBroken?: (message: string) => void;
}

/**
 * What a helper runs: a small script that imports the entry and, should that fail, says so
 * through the flag (slot 1) and the port instead of leaving `finish` waiting. A TypeScript entry
 * (tests, benchmarks) first gets tsx's loader registered in the helper: loader hooks of the
 * parent thread do not reach a worker_thread.
 */
function helperScript(entry: URL): string {
  const load = entry.pathname.endsWith('.ts')
    ? `import(${JSON.stringify(new URL('./tsx-thread.mjs', import.meta.url).href)})`
    : `import(${JSON.stringify(entry.href)})`;
  return (
    `const { workerData } = require('node:worker_threads');\n` +
    `${load}.catch((e) => {\n` +
    `  const state = new Int32Array(workerData.flag);\n` +
    `  workerData.port.postMessage({ ok: false, name: 'Error', message: 'the helper thread did not start: ' + (e && e.message) });\n` +
    `  Atomics.store(state, 1, 1);\n` +
    `  Atomics.notify(state, 0);\n` +
    `});\n`
  );
}

/**
 * Starts a pool and installs it for core (`setThreadPool`); returns null (and installs nothing)
 * when there is no second core or `helpers` is 0. `stopThreadPool` ends it.
 */
export function startThreadPool(options: PoolOptions = {}): ThreadPool | null {
  const count = options.helpers ?? Math.max(0, availableParallelism() - 1);
  if (count <= 0) return null;
  const entry = options.entry ?? new URL('./thread-entry.ts', import.meta.url);
  const script = helperScript(entry);
  const helpers: Helper[] = [];
  for (let h = 0; h < count; h++) {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(8);
    const data: HelperData = { mvstudioHelper: true, port: port2, flag, entry: entry.href };
    const worker = new Worker(script, { workerData: data, transferList: [port2], eval: true });
    worker.unref();
    port1.unref();
    const helper: Helper = {
      worker,
      port: port1,
      state: new Int32Array(flag),
      exited: null,
      broken: null,
      pending: null,
      local: null,
    };
    // Seen only when this thread gets back to its event loop (between runs); `finish` checks.
    worker.on('error', (e) => (helper.exited = e.message));
    worker.on('exit', (code) => (helper.exited ??= `exit code ${code}`));
    helpers.push(helper);
  }
  const onBroken =
    options.onBroken ?? ((message: string) => process.stderr.write(`mvstudio: ${message}\n`));
  /** Marks helper h broken (once) with the reason its port or events give. */
  const markBroken = (h: number, helper: Helper): void => {
    if (helper.broken) return;
    let reason = helper.exited;
    for (let got = receiveMessageOnPort(helper.port); got; got = receiveMessageOnPort(helper.port))
      reason ??= (got.message as { message?: string }).message ?? null;
    helper.broken = reason ?? 'it stopped';
    Atomics.store(helper.state, 0, IDLE);
    onBroken(`helper thread ${h} cannot work (${helper.broken}); its work runs on one thread`);
  };
  const isDown = (helper: Helper): boolean =>
    helper.exited !== null || Atomics.load(helper.state, 1) !== 0;
  const pool: ThreadPool & { stop(): Promise<void> } = {
    helpers: count,
    start(h, task, input, transfer) {
      const helper = helpers[h]!;
      if (helper.local || Atomics.load(helper.state, 0) !== IDLE) {
        // A task nobody waited for (its caller was closed early, e.g. a cancelled run): wait
        // for it and drop its answer.
        try {
          pool.finish(h);
        } catch {
          // Its error belongs to nobody either.
        }
      }
      if (!helper.broken && isDown(helper)) markBroken(h, helper);
      if (helper.broken) {
        helper.local = runHere(task, input);
        return;
      }
      helper.pending = { task, input };
      Atomics.store(helper.state, 0, BUSY);
      helper.worker.postMessage({ task, input }, transfer ?? []);
    },
    finish(h) {
      const helper = helpers[h]!;
      if (helper.local) {
        const reply = helper.local;
        helper.local = null;
        return unwrap(reply);
      }
      // A helper that dies mid-task never raises the flag: wake up now and then to look.
      while (Atomics.load(helper.state, 0) === BUSY && !isDown(helper))
        Atomics.wait(helper.state, 0, BUSY, 1000);
      const pending = helper.pending;
      helper.pending = null;
      if (Atomics.load(helper.state, 0) !== DONE) {
        // The helper went down before answering: its task runs here (same code, same result).
        markBroken(h, helper);
        if (!pending) throw new Error(`helper thread ${h} has no task to finish`);
        return unwrap(runHere(pending.task, pending.input));
      }
      const got = receiveMessageOnPort(helper.port);
      Atomics.store(helper.state, 0, IDLE);
      if (!got) throw new Error(`helper thread ${h} finished without an answer`);
      return unwrap(got.message as Reply);
    },
    async stop() {
      await Promise.all(helpers.map((x) => x.worker.terminate()));
    },
  };
  setThreadPool(pool);
  return pool;
}

/** Blocks until every helper of `pool` has started and answered (a round trip of 'ping'). */
export function awaitHelpers(pool: ThreadPool): void {
  for (let h = 0; h < pool.helpers; h++) pool.start(h, 'ping', h);
  for (let h = 0; h < pool.helpers; h++) pool.finish(h);
}

/** Uninstalls and ends the installed pool (if it is one of ours). */
export async function stopThreadPool(): Promise<void> {
  const p = threadPool() as (ThreadPool & { stop?: () => Promise<void> }) | null;
  setThreadPool(null);
  await p?.stop?.();
}
