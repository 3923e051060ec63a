/**
 * The evaluation protocol: a solver run turned into labels and metrics, once ('single') or as
 * the papers report it ('paper': specs/metrics.md, mean ± std over 20 seeds, each k-means the
 * best of 20 replicates).
 *
 * For each seed s (single: `seed`; paper: seed, seed + 1, …, seed + seeds − 1):
 * 1. rng = createRng(s); the solver's generator runs with it (its steps are re-yielded, wrapped
 *    with the seed's 1-based index). A deterministic solver is solved once, for the first seed,
 *    and its output reused by every seed (only k-means then differs).
 * 2. labels = output.labels when the method makes its own, else k-means on output.embedding
 *    (n, c) with `replicates` starts (lowest SSE kept) and stream rng.fork('kmeans').
 * 3. metrics: with ground truth, every external metric of `clusteringMetrics(truth, labels)`;
 *    without, the silhouette of the labels on the embedding (stream rng.fork('silhouette'), used
 *    only above 5,000 samples) under the name 'Silhouette'.
 *
 * Summary over seeds: mean and the sample standard deviation with N − 1 in the denominator,
 * √(Σ (x_i − mean)² / (N − 1)), as MATLAB's `std` (what the reference code reports); with one
 * seed the std is 0 (not N − 1 = 0's NaN, which JSON cannot hold).
 *
 * Timing contract (STYLE.md rule 1: the host owns the clock): the work a host waits for in one
 * `next()` call belongs to the stage of the step that call returns. The protocol yields a
 * closing step after the solver returns (stage 'solve', iteration 0, values.end = 1), one per
 * k-means Lloyd iteration and a closing one (stage 'kmeans'), and one after the metrics (stage
 * 'metrics'), so no work falls between stages. Stages other than 'kmeans' and 'metrics' are the
 * solver's own ('prepare', 'solve', 'embed', …).
 *
 * Pure: no IO, no clock; randomness only from the seeds (STYLE.md rule 9).
 */
import { kmeansSteps, type KmeansResult } from './cluster/kmeans';
import type { MultiViewDataset } from './dataset';
import type { Mat } from './linalg/types';
import { clusteringMetrics, silhouette } from './metrics';
import { createRng, type Rng } from './random';
import { validateParams } from './solvers/params';
import type { ParamValue, Solver, SolverOutput, SolverStep } from './solvers/types';

export type ProtocolKind = 'single' | 'paper';

export interface ProtocolOptions {
  readonly protocol: ProtocolKind;
  /** First seed: a non-negative safe integer. */
  readonly seed: number;
  /** Paper protocol: number of seeds (default 20). Ignored by 'single' (always 1). */
  readonly seeds?: number;
  /** k-means starts per seed: default 1 for 'single', 20 for 'paper'. */
  readonly replicates?: number;
  /** Cap on Lloyd iterations per k-means start (default 100). */
  readonly kmeansMaxIterations?: number;
}

/** A step of the protocol: a solver (or k-means, or metrics) step and the seed it belongs to. */
export interface ProtocolStep {
  /** 1-based index of the seed, and the number of seeds. */
  readonly seedIndex: number;
  readonly seedCount: number;
  readonly step: SolverStep;
}

/** Mean and sample standard deviation (N − 1) of one metric over the seeds. */
export interface MetricSummary {
  readonly mean: number;
  readonly std: number;
}

/** What one seed produced. */
export interface SeedRun {
  readonly seed: number;
  /** Metric name -> value: the external metrics with labels, else { Silhouette }. */
  readonly metrics: Readonly<Record<string, number>>;
  /** Solver iterations of the output this seed used (the shared one for deterministic solvers). */
  readonly iterations: number;
  /** Solver converged and, when k-means ran, k-means converged too. */
  readonly converged: boolean;
}

export interface ProtocolResult {
  /** (n,) 0-based cluster of each sample, from the first seed. */
  readonly labels: Int32Array;
  readonly perSeed: readonly SeedRun[];
  /** Metric name -> mean ± std over the seeds. */
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  /** The first solve's objective per iteration. */
  readonly objective: readonly number[];
  /** The first solve's iteration count. */
  readonly iterations: number;
  /** True when every seed converged (see SeedRun.converged). */
  readonly converged: boolean;
  /** The solver's notes (first solve) followed by the protocol's own. */
  readonly notes: readonly string[];
  /** The seeds used, in order. */
  readonly seeds: readonly number[];
}

interface Resolved {
  readonly seeds: readonly number[];
  readonly replicates: number;
  readonly maxIterations: number;
}

/** Checks the options and k against the dataset; returns the seeds and k-means settings. */
function resolveOptions(ds: MultiViewDataset, k: number, o: ProtocolOptions): Resolved {
  const count = o.protocol === 'paper' ? (o.seeds ?? 20) : 1;
  const positiveInt = (name: string, v: number): void => {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`${name} must be a whole number from 1, got ${v}`);
    }
  };
  if (o.protocol !== 'single' && o.protocol !== 'paper') {
    throw new RangeError(`protocol must be 'single' or 'paper', got '${String(o.protocol)}'`);
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0 || !Number.isSafeInteger(o.seed + count - 1)) {
    throw new RangeError(`seed must be a non-negative safe integer, got ${o.seed}`);
  }
  positiveInt('seeds', count);
  const replicates = o.replicates ?? (o.protocol === 'paper' ? 20 : 1);
  positiveInt('replicates', replicates);
  const maxIterations = o.kmeansMaxIterations ?? 100;
  positiveInt('kmeansMaxIterations', maxIterations);
  if (!Number.isInteger(k) || k < 1 || k > ds.n) {
    throw new RangeError(`k must be a whole number from 1 to ${ds.n} (the samples), got ${k}`);
  }
  return { seeds: Array.from({ length: count }, (_, i) => o.seed + i), replicates, maxIterations };
}

/** Drives the solver, re-yielding its steps, then yields the closing 'solve' step. */
function* solveOnce(
  ds: MultiViewDataset,
  solver: Solver,
  params: Readonly<Record<string, ParamValue>>,
  k: number,
  rng: Rng,
  wrap: (step: SolverStep) => ProtocolStep,
): Generator<ProtocolStep, SolverOutput, void> {
  const output = yield* wrapSteps(solver.run(ds, params, k, rng), wrap);
  yield wrap({ stage: 'solve', iteration: 0, objective: null, values: { end: 1 } });
  return output;
}

/** Re-yields every step of `gen` through `wrap`; returns its result. */
function* wrapSteps<T>(
  gen: Generator<SolverStep, T, void>,
  wrap: (step: SolverStep) => ProtocolStep,
): Generator<ProtocolStep, T, void> {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
    yield wrap(r.value);
  }
}

/** k-means on the embedding, one step per Lloyd iteration plus a closing one. */
function* clusterEmbedding(
  embedding: Mat,
  k: number,
  resolved: Resolved,
  rng: Rng,
  wrap: (step: SolverStep) => ProtocolStep,
): Generator<ProtocolStep, KmeansResult, void> {
  const steps = kmeansSteps(
    embedding,
    k,
    { replicates: resolved.replicates, maxIterations: resolved.maxIterations },
    rng,
  );
  for (;;) {
    const r = steps.next();
    if (r.done) {
      const { sse, iterations } = r.value;
      yield wrap({ stage: 'kmeans', iteration: iterations, objective: sse, values: { end: 1 } });
      return r.value;
    }
    const s = r.value;
    yield wrap({
      stage: 'kmeans',
      iteration: s.iteration,
      objective: s.sse,
      values: { replicate: s.replicate, changed: s.changed },
    });
  }
}

/** The metrics of one labelling: external ones with ground truth, else the silhouette. */
function scoreLabels(
  ds: MultiViewDataset,
  embedding: Mat,
  labels: Int32Array,
  rng: Rng,
  notes: string[],
): Record<string, number> {
  if (ds.labels) return { ...clusteringMetrics(ds.labels.codes, labels) };
  const s = silhouette(embedding, labels, rng);
  if (!s.exact) {
    const note = `silhouette computed on a random subset of ${s.sampleSize} of ${s.n} samples`;
    if (!notes.includes(note)) notes.push(note);
  }
  return { Silhouette: s.score };
}

/** Mean and sample std (N − 1; 0 for a single value) of each metric over the runs. */
export function summarizeMetrics(
  runs: readonly { readonly metrics: Readonly<Record<string, number>> }[],
): Record<string, MetricSummary> {
  const out: Record<string, MetricSummary> = {};
  const first = runs[0];
  if (!first) return out;
  for (const name of Object.keys(first.metrics)) {
    const xs = runs.map((r) => r.metrics[name] ?? NaN);
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const ss = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0);
    out[name] = { mean, std: xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : 0 };
  }
  return out;
}

/**
 * Runs `solver` on `ds` under the protocol (see the file comment). `params` are validated
 * against the solver's schema here (raw CLI strings are accepted); k in 1..n. Yields every
 * step; returns the labels of the first seed, per-seed and summarised metrics.
 */
export function* evaluate(
  ds: MultiViewDataset,
  solver: Solver,
  params: Readonly<Record<string, ParamValue>>,
  k: number,
  options: ProtocolOptions,
): Generator<ProtocolStep, ProtocolResult, void> {
  const valid = validateParams(solver.schema, params);
  const resolved = resolveOptions(ds, k, options);
  const seedCount = resolved.seeds.length;
  const perSeed: SeedRun[] = [];
  const notes: string[] = [];
  let first: { output: SolverOutput; labels: Int32Array } | null = null;
  for (const [index, seed] of resolved.seeds.entries()) {
    const wrap = (step: SolverStep): ProtocolStep => ({ seedIndex: index + 1, seedCount, step });
    const rng = createRng(seed);
    const output: SolverOutput =
      solver.deterministic && first
        ? first.output
        : yield* solveOnce(ds, solver, valid, k, rng, wrap);
    let labels: Int32Array;
    let kmeansConverged = true;
    if (output.labels) labels = output.labels;
    else {
      const km = yield* clusterEmbedding(output.embedding, k, resolved, rng.fork('kmeans'), wrap);
      labels = km.labels;
      kmeansConverged = km.converged;
    }
    const metrics = scoreLabels(ds, output.embedding, labels, rng.fork('silhouette'), notes);
    yield wrap({ stage: 'metrics', iteration: 0, objective: null });
    perSeed.push({
      seed,
      metrics,
      iterations: output.iterations,
      converged: output.converged && kmeansConverged,
    });
    first ??= { output, labels };
  }
  const { output, labels } = first!;
  if (solver.deterministic && seedCount > 1) {
    notes.unshift(
      `deterministic method: solved once; only k-means differs across the ${seedCount} seeds`,
    );
  }
  return {
    labels,
    perSeed,
    metrics: summarizeMetrics(perSeed),
    objective: [...output.objective],
    iterations: output.iterations,
    converged: perSeed.every((r) => r.converged),
    notes: [...output.notes, ...notes],
    seeds: resolved.seeds,
  };
}
