/**
 * The run driver both solver hosts share (the worker, worker/execute.ts, and the CLI,
 * cli/run.ts): it drives the evaluation protocol's generator to its end, times each `next()`
 * into the stage of the step it returned (core/protocol.ts's timing contract), keeps each
 * seed's traces and the first solve's output, and reports every step to the host. An async
 * host (the worker) passes `beforeStep`, awaited before every `next()`, to yield to its event
 * loop so that a cancel can arrive (it throws to stop the run); the CLI passes none and the
 * loop never awaits.
 *
 * Pure of IO: the clock is `performance.now()`, the host's, as STYLE.md rule 1 wants.
 */
import type { MultiViewDataset } from '../core/dataset';
import {
  evaluate,
  type ProtocolOptions,
  type ProtocolResult,
  type ProtocolStep,
} from '../core/protocol';
import type { Params, Solver, SolverOutput, SolverStep } from '../core/solvers/types';

export interface DriveHooks {
  /** Awaited before every `next()`; throws to stop the run (the worker's cancel). */
  readonly beforeStep?: () => Promise<void>;
  /** Every step, after it was timed. */
  readonly onStep?: (step: ProtocolStep) => void;
  /**
   * Every solve's output, in order, as the solver returns it (inside a timed `next()`: keep
   * it, do the work in `onStep`).
   */
  readonly onOutput?: (output: SolverOutput) => void;
}

export interface Driven {
  readonly result: ProtocolResult;
  /** The first solve's output (embedding, charts, diagnostics); null if no solve returned. */
  readonly firstOutput: SolverOutput | null;
  /** Seconds per stage, in the order the stages first appeared. */
  readonly stageSeconds: Record<string, number>;
  /** Objective per iteration of each stage of the first seed (see `recordTrace`). */
  readonly traces: Record<string, number[]>;
  /** The same for every seed, in order (seedTraces[0] is `traces`). */
  readonly seedTraces: readonly Record<string, number[]>[];
  /** Seconds of the solver's own stages (every stage but 'kmeans' and 'metrics'). */
  readonly solve_s: number;
  /** Seconds of the 'kmeans' stage. */
  readonly kmeans_s: number;
}

/** Seconds since `t0` (performance.now() milliseconds). */
export const since = (t0: number): number => (performance.now() - t0) / 1000;

/**
 * Runs `solver` under the protocol on `ds` to its end. `params` are validated by the protocol;
 * its errors (and `beforeStep`'s) propagate unchanged.
 */
export async function drive(
  ds: MultiViewDataset,
  solver: Solver,
  params: Params,
  k: number,
  options: ProtocolOptions,
  hooks: DriveHooks = {},
): Promise<Driven> {
  // The first solve's output, caught on its way to the protocol.
  let firstOutput: SolverOutput | null = null;
  const watched: Solver = {
    ...solver,
    run: function* (d, p, kk, rng) {
      const out = yield* solver.run(d, p, kk, rng);
      firstOutput ??= out;
      hooks.onOutput?.(out);
      return out;
    },
  };
  const gen = evaluate(ds, watched, params, k, options);
  const stageSeconds: Record<string, number> = {};
  const traces: Record<string, number[]> = {};
  const seedTraces: Record<string, number[]>[] = [traces];
  let solve_s = 0;
  let kmeans_s = 0;
  for (;;) {
    if (hooks.beforeStep) await hooks.beforeStep();
    const t = performance.now();
    const r = gen.next();
    const dt = since(t);
    if (r.done) {
      return { result: r.value, firstOutput, stageSeconds, traces, seedTraces, solve_s, kmeans_s };
    }
    const stage = r.value.step.stage;
    stageSeconds[stage] = (stageSeconds[stage] ?? 0) + dt;
    const seedIndex = r.value.seedIndex;
    recordTrace((seedTraces[seedIndex - 1] ??= {}), r.value.step);
    if (stage === 'kmeans') kmeans_s += dt;
    else if (stage !== 'metrics') solve_s += dt;
    hooks.onStep?.(r.value);
  }
}

/**
 * Keeps the objective per iteration of each stage of a seed (k-means: its first replicate),
 * for the convergence chart; closing steps (values.end) are not iterations.
 */
function recordTrace(traces: Record<string, number[]>, step: SolverStep): void {
  if (step.objective === null || step.values?.['end'] === 1) return;
  if (step.stage === 'kmeans' && (step.values?.['replicate'] ?? 0) !== 0) return;
  (traces[step.stage] ??= []).push(step.objective);
}
