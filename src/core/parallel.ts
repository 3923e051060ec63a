/**
 * Helper threads behind a narrow interface (STYLE.md: "a faster backend (WASM SIMD, threads) can
 * slot in behind it"). Core may not start threads (no node:*): a host that can (the CLI, the
 * solver worker, the benchmarks) installs a `ThreadPool` with `setThreadPool`, and the solvers
 * that split their work (CGL's per-view H-step and graphs) ask `threadPool()`; with none, they
 * run the same code serially.
 *
 * A task is a named pure function of `core/tasks.ts`, run on a helper over a structured clone of
 * its input; the caller blocks until the helper is done (solvers are synchronous generators).
 * Results do not depend on the pool: a task computes exactly what the caller would have computed
 * itself, so the same seed gives the same bits with or without helpers.
 */
import type { TaskName } from './tasks';

export interface ThreadPool {
  /** Number of helper threads (≥ 1). */
  readonly helpers: number;
  /**
   * Starts `task` on helper h (0 ≤ h < helpers), which must be idle, over a structured clone of
   * `input` (the buffers in `transfer` are moved instead of copied).
   */
  start(h: number, task: TaskName, input: unknown, transfer?: ArrayBuffer[]): void;
  /** Blocks until helper h's task has finished; returns its output or throws its error. */
  finish(h: number): unknown;
}

let pool: ThreadPool | null = null;

/** Installs (or with null removes) the pool the solvers use. */
export function setThreadPool(p: ThreadPool | null): void {
  pool = p;
}

/** The installed pool, if any. */
export function threadPool(): ThreadPool | null {
  return pool;
}

/**
 * A zero-filled Float64Array of `length`, in shared memory when `shared` (and the platform has
 * SharedArrayBuffer): what a solver hands to its helpers every pass, so that posting it to a
 * helper shares it instead of copying it. The solver must not write it while a helper reads it.
 */
export function float64Array(length: number, shared: boolean): Float64Array {
  if (shared && typeof SharedArrayBuffer === 'function') {
    return new Float64Array(new SharedArrayBuffer(8 * length));
  }
  return new Float64Array(length);
}

/**
 * Splits items 0 … count − 1 into `parts` contiguous chunks as even as possible: chunk t is
 * [bounds[t], bounds[t + 1]).
 */
export function chunkBounds(count: number, parts: number): number[] {
  const p = Math.max(1, Math.min(parts, count));
  const bounds = [0];
  for (let t = 1; t <= p; t++) bounds.push(Math.round((t * count) / p));
  return bounds;
}

/**
 * Runs `chunks` pieces of work: chunk 0 on this thread (`local`), chunk t ≥ 1 on helper t − 1 as
 * `task` over `input(t)` (each returning an array); returns the arrays concatenated in chunk
 * order. The helpers start first, so they work while this thread does chunk 0; every started
 * helper is waited for, even after an error (the first error is then thrown).
 */
export function runChunks<T>(
  pool: ThreadPool | null,
  chunks: number,
  task: TaskName,
  input: (t: number) => unknown,
  local: () => T[],
): T[] {
  if (chunks > 1 && (!pool || chunks - 1 > pool.helpers)) {
    throw new Error(`runChunks: ${chunks} chunks need ${chunks - 1} helper threads`);
  }
  for (let t = 1; t < chunks; t++) pool!.start(t - 1, task, input(t));
  let out: T[] = [];
  let error: unknown = null;
  try {
    out = local();
  } catch (e) {
    error = e;
  }
  for (let t = 1; t < chunks; t++) {
    try {
      out.push(...(pool!.finish(t - 1) as T[]));
    } catch (e) {
      error ??= e;
    }
  }
  if (error !== null) throw error;
  return out;
}

/** The input of a task that shares items out by `claimEach`: the claim order and its counter. */
export interface ClaimInput {
  /** The items (e.g. views) in the order they are claimed: the costliest first. */
  readonly order: readonly number[];
  /** Claim counter, in shared memory when helpers take part: order[Atomics.add(claim, 0, 1)] is next. */
  readonly claim: Int32Array;
}

/** Items 0 … costs.length − 1 by decreasing cost (ties by index): the claim order of `claimAll`. */
function costliestFirst(costs: readonly number[]): number[] {
  return [...costs.keys()].sort((a, b) => costs[b]! - costs[a]! || a - b);
}

/**
 * Runs f on each item this thread claims from `input` until none is left; returns the
 * [item, result] pairs. Every thread sharing the counter runs this loop, so each item is done
 * once, by whichever thread claims it, and a thread that finishes early takes the next.
 */
export function claimEach<T>(input: ClaimInput, f: (item: number) => T): [number, T][] {
  const { order, claim } = input;
  const out: [number, T][] = [];
  for (let k = Atomics.add(claim, 0, 1); k < order.length; k = Atomics.add(claim, 0, 1)) {
    const item = order[k]!;
    out.push([item, f(item)]);
  }
  return out;
}

/**
 * Items 0 … costs.length − 1 done by this thread and the installed pool's helpers together, the
 * costliest first: the task's input is `fields` with the claim order and a fresh counter, `task`
 * the helper task that runs `run` on it (a `claimEach` loop), and this thread runs `run` on the
 * same input. Without helpers (or one item, or no shared memory, or `threads` false: work too
 * small to repay a helper's copy of the input) this thread does every item. Returns the results
 * by item; since each item's result is a pure function of the input, they are the same either way.
 */
export function claimAll<T, F extends object>(
  task: TaskName,
  costs: readonly number[],
  fields: F,
  run: (input: F & ClaimInput) => [number, T][],
  threads = true,
): T[] {
  const p = threads ? threadPool() : null;
  const chunks =
    p && costs.length > 1 && typeof SharedArrayBuffer === 'function'
      ? Math.min(costs.length, p.helpers + 1)
      : 1;
  const claim = new Int32Array(chunks > 1 ? new SharedArrayBuffer(4) : new ArrayBuffer(4));
  const input: F & ClaimInput = { ...fields, order: costliestFirst(costs), claim };
  const out = new Array<T>(costs.length);
  for (const [item, r] of runChunks(
    p,
    chunks,
    task,
    () => input,
    () => run(input),
  ))
    out[item] = r;
  return out;
}
