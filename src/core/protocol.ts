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
 * Checks (every method, every host): the views' values must be finite (NaN/Inf is refused,
 * naming the view, sample and feature, never cleaned); the embedding of each solve and the
 * k-means SSE must be finite, else the run fails naming the likely cause and the largest
 * magnitude of each view (overflow above 1e150, whose squares leave the double range); a
 * numerical failure inside the solver (NumericalError) fails it the same way. Fewer non-empty
 * clusters than k is a note, and without ground truth the silhouette is left out (with a
 * note) when the labels have fewer than 2 or more than n − 1 clusters. These failures are
 * SolverInputError, which hosts report as bad input.
 *
 * Input: the solver reads one label-free SolverInput built once per call (no labels, no
 * provenance), the same object for every seed. A solver declaring `input: 'complete'` gets it
 * with every view's missing samples filled by the one rule of `solvers/complete.ts`, and the
 * run's notes say so (the solver's own note when it placed it, else the protocol's).
 * `options.preprocess` (views/preprocess.ts) is applied before that fill, to the present
 * samples only, so a filled sample takes the mean of the preprocessed ones; its note comes
 * first in the run's notes and the mode is returned in `preprocess`.
 *
 * Every seed's labels are returned (4 bytes a sample a seed), so a host can show any seed's
 * clusters; the metrics of every seed are in `perSeed`.
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
import { kmeansOctaveSteps } from './cluster/kmeans-octave';
import type { MultiViewDataset } from './dataset';
import { MAX_SEEDS } from './limits';
import { NumericalError } from './linalg/errors';
import type { Mat } from './linalg/types';
import { clusteringMetrics, silhouette } from './metrics';
import { createRng, type Rng } from './random';
import { fillMissing } from './solvers/complete';
import { checkPreprocess, preprocessViews, type Preprocess } from './views/preprocess';
import { SolverInputError, validateParams } from './solvers/params';
import type { ParamValue, Solver, SolverInput, SolverOutput, SolverStep } from './solvers/types';

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
  /** Shared preprocessing of the views (views/preprocess.ts): default 'none', the reference. */
  readonly preprocess?: Preprocess;
  /**
   * Which k-means clusters the embedding: 'matlab' (default; cluster/kmeans.ts, the best of
   * `replicates` independent starts) or 'octave-1.5.3' (cluster/kmeans-octave.ts, GNU Octave's
   * statistics 1.5.3 `kmeans` with its replicate rule, the evaluation of the recorded
   * reference runs; for comparisons with those records).
   */
  readonly kmeansRule?: KmeansRule;
}

/** The k-means rules `evaluate` knows (see ProtocolOptions.kmeansRule). */
export type KmeansRule = 'matlab' | 'octave-1.5.3';

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
  /** (n,) 0-based cluster of each sample, from the first seed (seedLabels[0]). */
  readonly labels: Int32Array;
  /** (n,) labels of each seed, in the order of `seeds`: what a host shows for another seed. */
  readonly seedLabels: readonly Int32Array[];
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
  /** The preprocessing the solver's views went through ('none': the raw features). */
  readonly preprocess: Preprocess;
  /** The fill rule's note when missing samples were filled for a 'complete' method, else null. */
  readonly fill: string | null;
}

interface Resolved {
  readonly seeds: readonly number[];
  readonly replicates: number;
  readonly maxIterations: number;
  readonly kmeansRule: KmeansRule;
}

/** k-means starts per seed unless the options say otherwise (the time estimate reads it too). */
export function defaultReplicates(protocol: ProtocolKind): number {
  return protocol === 'paper' ? 20 : 1;
}

/** Checks the options and k against the dataset; returns the seeds and k-means settings. */
function resolveOptions(ds: MultiViewDataset, k: number, o: ProtocolOptions): Resolved {
  const count = o.protocol === 'paper' ? (o.seeds ?? 20) : 1;
  const wholeNumber = (name: string, v: number, max: number): void => {
    if (!Number.isInteger(v) || v < 1 || v > max) {
      throw new SolverInputError(`${name} must be a whole number from 1 to ${max}, got ${v}`);
    }
  };
  if (o.protocol !== 'single' && o.protocol !== 'paper') {
    throw new SolverInputError(`protocol must be 'single' or 'paper', got '${String(o.protocol)}'`);
  }
  wholeNumber('seeds', count, MAX_SEEDS);
  if (!Number.isSafeInteger(o.seed) || o.seed < 0 || !Number.isSafeInteger(o.seed + count - 1)) {
    throw new SolverInputError(`seed must be a non-negative safe integer, got ${o.seed}`);
  }
  const replicates = o.replicates ?? defaultReplicates(o.protocol);
  wholeNumber('replicates', replicates, Number.MAX_SAFE_INTEGER);
  const maxIterations = o.kmeansMaxIterations ?? 100;
  wholeNumber('kmeansMaxIterations', maxIterations, Number.MAX_SAFE_INTEGER);
  if (!Number.isInteger(k) || k < 2 || k > ds.n) {
    throw new SolverInputError(
      ds.n < 2
        ? `k must be a whole number from 2 to n, but the dataset has ${ds.n} sample(s)`
        : `k must be a whole number from 2 to ${ds.n} (the samples), got ${k}`,
    );
  }
  const kmeansRule = o.kmeansRule ?? 'matlab';
  if (kmeansRule !== 'matlab' && kmeansRule !== 'octave-1.5.3') {
    throw new SolverInputError(
      `kmeansRule must be 'matlab' or 'octave-1.5.3', got '${String(kmeansRule)}'`,
    );
  }
  return {
    seeds: Array.from({ length: count }, (_, i) => o.seed + i),
    replicates,
    maxIterations,
    kmeansRule,
  };
}

/** A view's largest magnitude among its present samples' values. */
interface ViewMagnitude {
  readonly name: string;
  readonly maxAbs: number;
}

/**
 * Refuses a view holding NaN or ±Inf (naming the view, the 1-based sample and feature); returns
 * each view's largest |value|, which the overflow messages quote. O(stored values).
 */
function checkInput(ds: MultiViewDataset, method: string): ViewMagnitude[] {
  return ds.views.map((v) => {
    const x = v.values;
    const cols = x.kind === 'csr' ? null : x.cols;
    let maxAbs = 0;
    for (let p = 0; p < x.data.length; p++) {
      const a = Math.abs(x.data[p]!);
      if (a <= maxAbs) continue;
      if (a === Infinity || Number.isNaN(a)) {
        const [row, feature] =
          cols === null ? csrPosition(x as CsrValues, p) : [Math.floor(p / cols), p % cols];
        throw new SolverInputError(
          `${method}: view '${v.name}' holds ${x.data[p]} at sample ${v.present[row]! + 1}, ` +
            `feature ${feature + 1} (1-based); runs refuse NaN and Inf values: remove or ` +
            'impute them (or mark the sample missing in this view) before running',
        );
      }
      maxAbs = a;
    }
    return { name: v.name, maxAbs };
  });
}

type CsrValues = Extract<MultiViewDataset['views'][number]['values'], { kind: 'csr' }>;

/** Row and column of stored entry p of a CSR matrix. */
function csrPosition(x: CsrValues, p: number): [number, number] {
  let row = 0;
  while (row + 1 < x.rows && x.indptr[row + 1]! <= p) row++;
  return [row, x.indices[p]!];
}

/** Above this magnitude squared distances can leave the double range (√max ≈ 1.3e154). */
const OVERFLOW_MAGNITUDE = 1e150;

/** 1e200, 3.5, 0.00012: a magnitude the way a user writes it. */
function magnitude(x: number): string {
  if (x !== 0 && (x >= 1e6 || x < 1e-3)) {
    const [m, e] = x.toExponential(2).split('e');
    return `${m!.replace(/\.?0+$/, '')}e${e!.replace('+', '')}`;
  }
  return String(Number(x.toPrecision(3)));
}

/**
 * "<method>: <what>: <cause>": the likely cause of a non-finite result from the views'
 * magnitudes (overflow when one is above OVERFLOW_MAGNITUDE), with every view's largest value.
 */
function nonFinite(
  method: string,
  what: string,
  views: readonly ViewMagnitude[],
): SolverInputError {
  const list = views.map((v) => `'${v.name}' up to ${magnitude(v.maxAbs)}`).join(', ');
  const huge = views.filter((v) => v.maxAbs > OVERFLOW_MAGNITUDE);
  const cause = huge.length
    ? `the distances overflow (view${huge.length > 1 ? 's' : ''} ` +
      `${huge.map((v) => `'${v.name}'`).join(', ')} hold${huge.length > 1 ? '' : 's'} values up ` +
      `to ${magnitude(Math.max(...huge.map((v) => v.maxAbs)))}): rescale the data`
    : `the data do not overflow (largest values: ${list}), so the method broke down on them ` +
      'numerically: they may be degenerate (constant or duplicate samples) or badly scaled; ' +
      'rescale them or try another k';
  return new SolverInputError(
    `${method}: ${what}: ${cause}` +
      (huge.length && views.length > 1 ? ` (largest values: ${list})` : ''),
  );
}

/** Index of the first non-finite entry of `data`, or -1. */
function firstNonFinite(data: Float64Array): number {
  for (let p = 0; p < data.length; p++) if (!Number.isFinite(data[p]!)) return p;
  return -1;
}

/** Number of distinct values of 0-based labels (clusters with at least one sample). */
function nonEmptyClusters(labels: Int32Array, k: number): number {
  const seen = new Uint8Array(Math.max(k, 1));
  let count = 0;
  for (const c of labels) {
    if (c >= 0 && c < k && !seen[c]) {
      seen[c] = 1;
      count++;
    }
  }
  return count;
}

/** Drives the solver, re-yielding its steps, then yields the closing 'solve' step. */
function* solveOnce(
  ds: SolverInput,
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
  const settings = { replicates: resolved.replicates, maxIterations: resolved.maxIterations };
  const steps =
    resolved.kmeansRule === 'octave-1.5.3'
      ? kmeansOctaveSteps(embedding, k, settings, rng)
      : kmeansSteps(embedding, k, settings, rng);
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
  clusters: number,
  rng: Rng,
  notes: string[],
): Record<string, number> {
  if (ds.labels) return { ...clusteringMetrics(ds.labels.codes, labels) };
  if (clusters < 2 || clusters > ds.n - 1) {
    // scikit-learn's definition needs 2..n − 1 clusters; a made-up score would mislead.
    const note = `silhouette left out: it needs 2 to n − 1 = ${ds.n - 1} clusters, the labels have ${clusters}`;
    if (!notes.includes(note)) notes.push(note);
    return {};
  }
  const s = silhouette(embedding, labels, rng);
  if (!s.exact) {
    const note = `silhouette computed on a random subset of ${s.sampleSize} of ${s.n} samples`;
    if (!notes.includes(note)) notes.push(note);
  }
  return { Silhouette: s.score };
}

/**
 * Mean and sample std (N − 1; 0 for a single value) of each metric over the runs that have it
 * (a seed can lack the silhouette, see scoreLabels); names in first-seen order.
 */
export function summarizeMetrics(
  runs: readonly { readonly metrics: Readonly<Record<string, number>> }[],
): Record<string, MetricSummary> {
  const out: Record<string, MetricSummary> = {};
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.metrics)))];
  for (const name of names) {
    const xs = runs.flatMap((r) => (r.metrics[name] === undefined ? [] : [r.metrics[name]]));
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const ss = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0);
    out[name] = { mean, std: xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : 0 };
  }
  return out;
}

/**
 * Runs `solver` on `ds` under the protocol (see the file comment). `params` are validated
 * against the solver's schema here (raw CLI strings are accepted); k in 2..n. Yields every
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
  const magnitudes = checkInput(ds, solver.name);
  const preprocess = checkPreprocess(options.preprocess ?? 'none');
  // Preprocessing first, on the present samples only; then the fill of a 'complete' method.
  const pre = preprocessViews(ds.views, preprocess);
  // One label-free input for every seed (a solver may cache what it prepares from it), filled
  // once for a method that needs complete views.
  const given: SolverInput = { n: ds.n, views: pre.views, sampleIds: ds.sampleIds };
  const { input, note: fillNote } =
    solver.input === 'complete' ? fillMissing(given) : { input: given, note: null };
  const seedCount = resolved.seeds.length;
  const perSeed: SeedRun[] = [];
  const seedLabels: Int32Array[] = [];
  const notes: string[] = [];
  /** Seeds whose labels left clusters empty, with the count of non-empty ones. */
  const short: { seed: number; clusters: number }[] = [];
  let first: { output: SolverOutput; labels: Int32Array } | null = null;
  for (const [index, seed] of resolved.seeds.entries()) {
    const wrap = (step: SolverStep): ProtocolStep => ({ seedIndex: index + 1, seedCount, step });
    const rng = createRng(seed);
    let output: SolverOutput;
    if (solver.deterministic && first) output = first.output;
    else {
      try {
        output = yield* solveOnce(input, solver, valid, k, rng, wrap);
      } catch (e) {
        if (!(e instanceof NumericalError)) throw e;
        throw nonFinite(solver.name, `a numerical step failed (${e.message})`, magnitudes);
      }
      const bad = firstNonFinite(output.embedding.data);
      if (bad >= 0) {
        const row = Math.floor(bad / Math.max(output.embedding.cols, 1));
        throw nonFinite(
          solver.name,
          `the embedding is not finite (${output.embedding.data[bad]} at sample ${row + 1})`,
          magnitudes,
        );
      }
    }
    let labels: Int32Array;
    let kmeansConverged = true;
    if (output.labels) labels = output.labels;
    else {
      const km = yield* clusterEmbedding(output.embedding, k, resolved, rng.fork('kmeans'), wrap);
      if (!Number.isFinite(km.sse)) {
        throw nonFinite(solver.name, `the k-means objective (SSE) is ${km.sse}`, magnitudes);
      }
      labels = km.labels;
      kmeansConverged = km.converged;
    }
    const clusters = nonEmptyClusters(labels, k);
    if (clusters < k) short.push({ seed, clusters });
    const metrics = scoreLabels(
      ds,
      output.embedding,
      labels,
      clusters,
      rng.fork('silhouette'),
      notes,
    );
    yield wrap({ stage: 'metrics', iteration: 0, objective: null });
    perSeed.push({
      seed,
      metrics,
      iterations: output.iterations,
      converged: output.converged && kmeansConverged,
    });
    seedLabels.push(labels);
    first ??= { output, labels };
  }
  const { output, labels } = first!;
  if (resolved.kmeansRule === 'octave-1.5.3' && !output.labels) {
    notes.push(
      'k-means by GNU Octave statistics 1.5.3’s rule (its replicates after one whose last ' +
        'decrease was at most 0.001 are not iterated), the evaluation of the recorded reference runs',
    );
  }
  if (solver.deterministic && seedCount > 1) {
    notes.unshift(
      `deterministic method: solved once; only k-means differs across the ${seedCount} seeds`,
    );
  }
  if (short.length) {
    const s0 = short[0]!;
    notes.unshift(
      `only ${s0.clusters} of the k = ${k} clusters are non-empty (seed ${s0.seed}` +
        (short.length > 1 ? `; ${short.length} of ${seedCount} seeds had empty clusters` : '') +
        '): the data may hold fewer than k distinct points, or the method merged clusters',
    );
  }
  return {
    labels,
    seedLabels,
    perSeed,
    metrics: summarizeMetrics(perSeed),
    objective: [...output.objective],
    iterations: output.iterations,
    converged: perSeed.every((r) => r.converged),
    notes: [
      ...(pre.note !== null ? [pre.note] : []),
      ...output.notes,
      ...(fillNote !== null && !output.notes.includes(fillNote) ? [fillNote] : []),
      ...notes,
    ],
    seeds: resolved.seeds,
    preprocess,
    fill: fillNote,
  };
}
