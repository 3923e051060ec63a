/**
 * The reference harness (STYLE.md rule 6): one JSON shape for reference runs, the shape of
 * ../shared/reference/*.json, a typed reader, and `referenceSuite`, which registers the
 * describe/it blocks that run a solver under the evaluation protocol on each recorded run's
 * file and compare what the tolerances name (iteration count, objective trace, metric means).
 *
 * A reference file: { description, code, environment, protocol, notes, runs: ReferenceRun[] }.
 * Each run: the dataset file (relative to ../shared/datasets), the method, its parameters, the
 * iteration count, the objective per iteration, free-form checks, metrics { mean, std } over
 * the reference protocol's k-means runs, and the runtime.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../src/core/dataset';
import { evaluate, type ProtocolOptions, type ProtocolResult } from '../../src/core/protocol';
import type { ParamValue, Solver } from '../../src/core/solvers/types';
import { loadDataset } from '../../src/io/load';
import { DATASETS, SHARED } from './paths';
import { drain } from './toy';

/** Mean and standard deviation (N − 1) of one metric over the reference's k-means runs. */
export interface MetricSummary {
  readonly mean: number;
  readonly std: number;
}

/** One recorded run. Fields beyond these stay available as `checks` / `raw`. */
export interface ReferenceRun {
  /** Dataset path relative to ../shared/datasets. */
  readonly file: string;
  readonly method: string;
  /** The reference code's parameters, under its own names. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Number of objective values recorded (absent, or null in the file, without iterations). */
  readonly iterations?: number;
  /** Objective per iteration. */
  readonly objective?: readonly number[];
  /** Metric name → mean ± std. */
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  /** Clusters (the files call it c or k). */
  readonly k?: number;
  /** Every other field of the run whose name contains 'check' (independent checks, …). */
  readonly checks: Readonly<Record<string, unknown>>;
  /** Seconds, from runtime_s or timings_s. */
  readonly runtime: Readonly<Record<string, unknown>>;
  /** The run as stored. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A reference file: provenance and its runs. */
export interface ReferenceFile {
  readonly description: string;
  readonly runs: readonly ReferenceRun[];
  /** The file as stored (code, environment, protocol, notes, …). */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** The parsed JSON of ../shared/reference/<name>.json, as stored. */
export function readReferenceJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SHARED, 'reference', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** One stored run checked against the shape; `where` names it in errors. */
export function parseRun(x: unknown, where: string): ReferenceRun {
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (!isRecord(x)) return fail('not an object');
  if (typeof x['file'] !== 'string') fail("'file' is not a string");
  if (typeof x['method'] !== 'string') fail("'method' is not a string");
  const params = x['params'] ?? {};
  if (!isRecord(params)) fail("'params' is not an object");
  const iterations = x['iterations'] ?? undefined;
  if (iterations !== undefined && !Number.isInteger(iterations))
    fail("'iterations' not an integer");
  const objective = x['objective'] ?? undefined;
  if (
    objective !== undefined &&
    !(Array.isArray(objective) && objective.every((v) => typeof v === 'number'))
  ) {
    fail("'objective' is not a list of numbers");
  }
  const metrics = x['metrics'] ?? {};
  if (!isRecord(metrics)) return fail("'metrics' is not an object");
  for (const [name, m] of Object.entries(metrics)) {
    if (!isRecord(m) || typeof m['mean'] !== 'number' || typeof m['std'] !== 'number') {
      fail(`metric '${name}' is not { mean, std }`);
    }
  }
  const k = x['c'] ?? x['k'];
  const checks = Object.fromEntries(Object.entries(x).filter(([key]) => key.includes('check')));
  const runtime = x['runtime_s'] ?? x['timings_s'] ?? {};
  return {
    file: x['file'] as string,
    method: x['method'] as string,
    params: params as Record<string, unknown>,
    ...(iterations !== undefined ? { iterations: iterations as number } : {}),
    ...(objective !== undefined ? { objective: objective as number[] } : {}),
    metrics: metrics as Record<string, MetricSummary>,
    ...(typeof k === 'number' ? { k } : {}),
    checks,
    runtime: isRecord(runtime) ? runtime : {},
    raw: x,
  };
}

/**
 * ../shared/reference/<name>.json read as a reference file; throws naming the run and field
 * that does not fit the shape. Failed runs (status 'failed', no metrics) are left out.
 */
export function readReference(name: string): ReferenceFile {
  const raw = readReferenceJson(name);
  const runs = raw['runs'];
  if (!Array.isArray(runs)) throw new Error(`${name}.json: no 'runs' list`);
  return {
    description: typeof raw['description'] === 'string' ? raw['description'] : '',
    runs: runs.flatMap((r, i) =>
      isRecord(r) && r['status'] === 'failed' ? [] : [parseRun(r, `${name}.json runs[${i}]`)],
    ),
    raw,
  };
}

/** What a reference suite compares, and how a recorded run becomes a run of ours. */
export interface ReferenceTolerances {
  /** The describe block's title. */
  readonly title: string;
  /** Which recorded runs to test (default: all). */
  readonly select?: (run: ReferenceRun) => boolean;
  /** When set, the number of selected runs is asserted first. */
  readonly expectedRuns?: number;
  /** The it block's title for a run. */
  readonly name: (run: ReferenceRun) => string;
  /** The run's parameters under the solver's schema. */
  readonly params: (run: ReferenceRun) => Readonly<Record<string, ParamValue>>;
  /** Clusters; default the run's c / k, else the dataset's classes. */
  readonly k?: (run: ReferenceRun, ds: MultiViewDataset) => number;
  readonly protocol: ProtocolOptions;
  /** Same iteration count and every objective value within `relative` (strictly below). */
  readonly objective?: { readonly relative: number };
  /** |our mean − the reference mean| ≤ band for each named metric. */
  readonly metrics?: {
    readonly names: readonly string[];
    readonly band: number | ((ref: MetricSummary) => number);
  };
  /** Further assertions on the protocol's result. */
  readonly check?: (result: ProtocolResult, run: ReferenceRun) => void;
  /** Per-run timeout (ms). */
  readonly timeout?: number;
}

/** Largest |a_i − b_i| / |b_i|; asserts the lengths agree. */
export function maxRelativeError(a: readonly number[], b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  return Math.max(...a.map((x, i) => Math.abs(x - b[i]!) / Math.abs(b[i]!)));
}

/**
 * Registers a describe block with one it block per selected run of `json`: the solver (or the
 * one `solver(run)` picks) runs under `tolerances.protocol` on the run's file, and what the
 * tolerances name is compared with the record.
 */
export function referenceSuite(
  solver: Solver | ((run: ReferenceRun) => Solver),
  json: ReferenceFile,
  tolerances: ReferenceTolerances,
): void {
  const t = tolerances;
  const runs = json.runs.filter(t.select ?? (() => true));
  describe(t.title, () => {
    if (t.expectedRuns !== undefined) {
      it(`has ${t.expectedRuns} runs recorded`, () => expect(runs.length).toBe(t.expectedRuns));
    }
    for (const [i, run] of runs.entries()) {
      it(t.name(run), t.timeout !== undefined ? { timeout: t.timeout } : {}, async () => {
        const ds = await loadDataset(join(DATASETS, run.file));
        const s = typeof solver === 'function' ? solver(run) : solver;
        const k = t.k?.(run, ds) ?? run.k ?? ds.labels!.classes.length;
        const { output } = drain(evaluate(ds, s, t.params(run), k, t.protocol));
        const lines: string[] = [];
        if (t.objective) {
          expect(run.objective, `${run.file}: no objective recorded`).toBeDefined();
          expect(output.iterations).toBe(run.iterations);
          const err = maxRelativeError(output.objective, run.objective!);
          lines.push(`max relative trace error ${err.toExponential(2)}`);
          expect(err, `run ${i}: max relative trace error`).toBeLessThan(t.objective.relative);
        }
        for (const m of t.metrics?.names ?? []) {
          const ref = run.metrics[m]!;
          const ours = output.metrics[m]!;
          const band = typeof t.metrics!.band === 'number' ? t.metrics!.band : t.metrics!.band(ref);
          lines.push(
            `${m} ${ours.mean.toFixed(4)}±${ours.std.toFixed(4)} (ref ${ref.mean.toFixed(4)}±` +
              `${ref.std.toFixed(4)}, band ±${band.toFixed(4)})`,
          );
          expect(Math.abs(ours.mean - ref.mean), `${run.file} ${m}`).toBeLessThanOrEqual(band);
        }
        t.check?.(output, run);
        console.log(`${run.file} ${run.method}: ${lines.join('; ')}`);
      });
    }
  });
}
