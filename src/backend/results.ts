/**
 * The result store: the run bundles in one folder (one sub-folder per run, written atomically
 * by the worker or the CLI). Lists them newest first, reads one, and clears the temporaries a
 * killed writer left. A folder whose run.json does not read is reported, not hidden. Reads a
 * bundle back as a finished run's result (`openStoredRun`, the `runs:open` channel).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeLabels } from '../core/dataset';
import { alignedConfusion } from '../core/project';
import type { SolverCharts } from '../core/solvers/types';
import { removeStaleTemporaries } from '../io/atomic';
import {
  bundleFolder,
  readBundleLabels,
  readBundleView,
  readRunBundle,
  type RunRecord,
} from '../io/bundle';
import { compactCodes, type RunInfo, type RunResult } from '../shared/contract';

export interface StoredRun {
  readonly dir: string;
  readonly record: RunRecord;
}

export interface UnreadableRun {
  readonly dir: string;
  readonly error: string;
}

export class ResultStore {
  constructor(readonly root: string) {}

  /** Removes `.tmp-*` leftovers; call once at start-up. Returns how many were removed. */
  clean(): Promise<number> {
    return removeStaleTemporaries(this.root);
  }

  /** Every bundle under the root, newest first, plus the folders that could not be read. */
  async list(): Promise<{ runs: StoredRun[]; unreadable: UnreadableRun[] }> {
    let names: string[];
    try {
      names = (await readdir(this.root, { withFileTypes: true }))
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], unreadable: [] };
      throw e;
    }
    const runs: StoredRun[] = [];
    const unreadable: UnreadableRun[] = [];
    for (const name of names) {
      const dir = join(this.root, name);
      try {
        runs.push({ dir, record: await readRunBundle(dir) });
      } catch (e) {
        unreadable.push({ dir, error: (e as Error).message });
      }
    }
    runs.sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt));
    return { runs, unreadable };
  }

  /** The bundle in `dir` (a folder under the root). */
  read(dir: string): Promise<RunRecord> {
    return readRunBundle(dir);
  }
}

/** The note a reopened run without view.json carries, shown with the run's notes. */
export const VIEW_NOT_KEPT =
  'reopened from a bundle without view.json (written before it was kept): the cluster plot, ' +
  "the method's charts and the convergence traces are not kept in this bundle";

/** A run read back from its bundle: the record, and the result as the results view takes it. */
export interface OpenedRun {
  readonly dir: string;
  readonly record: RunRecord;
  readonly result: Omit<RunResult, 'id'>;
}

/**
 * The bundle `target` names (its folder or its run.json) read back as a finished run:
 * run.json, labels.csv (the clusters, and the truth when it was kept) and, when the bundle has
 * it, view.json (projection, charts, traces); without view.json the parts it holds are empty
 * and a note says so. A DataError naming the file when any of them is missing or damaged.
 */
export async function openStoredRun(target: string): Promise<OpenedRun> {
  const dir = await bundleFolder(target);
  const record = await readRunBundle(dir);
  const n = record.dataset.missing.n;
  const labels = await readBundleLabels(dir, n, record.k);
  const view = await readBundleView(dir, n);
  const t = record.timings;
  const truth = view ? view.truth : labels.truth ? truthOf(labels.truth) : null;
  const ids = labels.sampleIds.every((id, i) => id === String(i + 1)) ? null : labels.sampleIds;
  const result: Omit<RunResult, 'id'> = {
    method: record.method,
    k: record.k,
    params: record.params,
    protocol: record.protocol,
    seeds: [...record.seeds],
    preprocess: record.preprocess ?? 'none',
    fill: record.fill ?? null,
    // The bundle keeps the first seed's labels and view only.
    seed: record.seeds[0] ?? record.seed,
    sharedSolve: false,
    metrics: record.metrics,
    perSeed: record.perSeed.map((s) => ({ seed: s.seed, metrics: s.metrics })),
    objective: [...record.objective],
    traces: view ? view.traces : {},
    iterations: record.iterations,
    converged: record.converged,
    notes: view ? [...record.notes] : [...record.notes, VIEW_NOT_KEPT],
    stages: view
      ? Object.entries(view.stageSeconds).map(([stage, seconds]) => ({ stage, seconds }))
      : [
          { stage: 'load', seconds: t.load_s },
          { stage: 'solve', seconds: t.solve_s },
          { stage: 'kmeans', seconds: t.kmeans_s },
        ],
    totalSeconds: t.total_s,
    projection: view
      ? {
          x: view.projection.x,
          y: view.projection.y,
          explained: [...view.projection.explained],
          dims: view.projection.dims,
        }
      : { x: new Float32Array(n), y: new Float32Array(n), explained: [0, 0], dims: 0 },
    clusters: compactCodes(labels.clusters),
    truth: truth ? compactCodes(truth.codes) : null,
    classes: truth ? [...truth.classes] : null,
    missingViews: view ? view.missingViews : new Uint8Array(n),
    sampleIds: view ? view.sampleIds : ids,
    confusion: view
      ? view.confusion
      : truth
        ? confusionOf(truth.codes, labels.clusters, truth.classes.length, record.k)
        : null,
    charts: view ? (plain(view.charts) as SolverCharts) : {},
    diagnostics: view ? (plain(view.diagnostics) as Record<string, unknown>) : {},
    bundle: dir,
  };
  return { dir, record, result };
}

/** The true labels of labels.csv as codes and classes (numbers when every one is a number). */
function truthOf(values: readonly string[]): {
  codes: ArrayLike<number>;
  classes: (number | string)[];
} {
  const numeric = values.every((v) => v.trim() !== '' && Number.isFinite(Number(v)));
  const labels = makeLabels('labels.csv', numeric ? values.map(Number) : values);
  return { codes: labels.codes, classes: [...labels.classes] };
}

/** The aligned confusion matrix, with the clusters the labels use beyond k. */
function confusionOf(
  truth: ArrayLike<number>,
  clusters: Int32Array,
  classes: number,
  k: number,
): { counts: number[][]; clusterOrder: number[] } {
  let count = k;
  for (const c of clusters) if (c + 1 > count) count = c + 1;
  return alignedConfusion(truth, clusters, classes, count);
}

/**
 * The queue's entry of a run reopened from its bundle in `dir`: done, its times those of the
 * original run; its dataset id names the bundle, as the dataset need not be open.
 */
export function storedRunInfo(
  id: string,
  dir: string,
  record: RunRecord,
  methodTitle: string,
): RunInfo {
  const created = Date.parse(record.createdAt);
  const finishedAt = Number.isFinite(created) ? created : null;
  return {
    id,
    datasetId: `bundle:${dir}`,
    datasetPath: record.dataset.path,
    method: record.method,
    methodTitle,
    params: record.params,
    k: record.k,
    seed: record.seed,
    protocol: record.protocol,
    seeds: record.seeds.length,
    batch: null,
    preprocess: record.preprocess ?? 'none',
    fill: record.fill ?? null,
    status: 'done',
    progress: null,
    maxIterations: null,
    queuedAt: finishedAt ?? 0,
    startedAt: finishedAt === null ? null : finishedAt - record.timings.total_s * 1000,
    finishedAt: finishedAt ?? 0,
    error: null,
    metrics: record.metrics,
    seconds: record.timings.total_s,
  };
}

/** Typed arrays and other array-likes as plain arrays, recursively: JSON-safe diagnostics. */
export function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number>);
  }
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}
