/**
 * The study engine: a validated spec becomes a study folder (backend/study/folder.ts), and its
 * cells run through the same driver as single runs (backend/drive.ts, the paper protocol with the
 * spec's seeds), one run bundle per cell.
 *
 * Resumable: a cell's record is written when it ends, last and atomically; `runStudy` on a folder
 * runs only the cells without one (a cell that failed on bad input is final: it would fail the
 * same way). A killed process loses only the cell it was running, whose leftovers are cleared
 * before it runs again, so the final results equal an uninterrupted run (all but the timings).
 *
 * Executors: `runStudy` hands the pending cells to a StudyExecutor. The local one runs them in
 * this process with `runCell`; another (a cluster's job array) may run, per cell, the command
 * `mvstudio study cell <dir> <cellId>`, which calls `runCell` too; either way the records land
 * in the folder and `collectStudy` gathers them.
 */
import { rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { MultiViewDataset } from '../../core/dataset';
import { adjustedRandIndex } from '../../core/metrics';
import {
  expandCells,
  type StudyCell,
  type StudyDataset,
  type StudySpec,
} from '../../core/study/spec';
import type { StudyMetric, StudyRow } from '../../core/study/types';
import { getSolver } from '../../core/solvers/registry';
import { ParamError, SolverInputError } from '../../core/solvers/params';
import { DataError } from '../../io/errors';
import { MatReadError } from '../../io/mat/types';
import { removeStaleTemporaries } from '../../io/atomic';
import { writeRunBundle } from '../../io/bundle';
import { loadDataset } from '../../io/load';
import { presenceBits, type LoadOptions } from '../../shared/contract';
import { drive, since, type Driven } from '../drive';
import { writeMaskFile } from '../missing';
import { estimateMemory, shapeOf } from '../estimate';
import { runView } from '../run-view';
import { solverMemoryLimit } from '../worker-host';
import {
  StudyFolderError,
  cellDir,
  collectStudy,
  newStudyFile,
  readCellRecord,
  readStudyFile,
  studyJson,
  writeCellRecord,
  writeStudyFile,
  type StudyFile,
} from './folder';

/** The protocol's metric names of each study metric. */
const METRIC_NAMES: Readonly<Record<StudyMetric, string>> = {
  acc: 'ACC',
  nmi: 'NMI',
  purity: 'Purity',
  ari: 'ARI',
  f: 'Fscore',
  silhouette: 'Silhouette',
};

/**
 * Loads each dataset of a study once per process. A series entry (a missing rate) is its base
 * dataset under a mask generated from the entry's mask seed into `<dir>/masks/` (made once, the
 * same bytes from the same seed, so processes running cells of one folder agree on it).
 */
export class DatasetCache {
  private readonly loaded = new Map<string, Promise<MultiViewDataset>>();
  constructor(private readonly dir: string) {}
  get(d: StudyDataset): Promise<MultiViewDataset> {
    let p = this.loaded.get(d.label);
    if (!p) {
      p = this.load(d);
      this.loaded.set(d.label, p);
    }
    return p;
  }
  private async load(d: StudyDataset): Promise<MultiViewDataset> {
    const options: LoadOptions = { ...d.load };
    if (d.missingRate === null) return loadDataset(d.files, options);
    return loadDataset(d.files, { ...options, mask: await this.mask(d, options) });
  }
  /** The path of a series entry's mask, written when missing. */
  private async mask(d: StudyDataset, options: LoadOptions): Promise<string> {
    const stem = d.label.replace(/[^A-Za-z0-9._-]/g, '_');
    const fraction = 1 - d.missingRate!;
    const folder = join(this.dir, 'masks');
    const path = join(
      folder,
      `${stem}-complete${Math.round(fraction * 100)}-seed${d.maskSeed!}.npz`,
    );
    if (await stat(path).catch(() => null)) return path;
    const base = await loadDataset(d.files, options);
    const presence = {
      n: base.n,
      views: base.views.map((v) => v.name),
      bits: base.views.map((v) => presenceBits(base.n, v.present)),
    };
    return writeMaskFile(folder, stem, presence, fraction, d.maskSeed!);
  }
}

/** A spec's file paths made absolute against `base` (the spec file's folder). */
export function resolvePaths(spec: StudySpec, base: string): StudySpec {
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  const looksLikeFile = (m: string): boolean => /\.(mat|npz|npy|csv)$/i.test(m);
  return {
    ...spec,
    datasets: spec.datasets.map((d) => ({
      ...d,
      files: d.files.map(abs),
      load: {
        ...d.load,
        ...(d.load.mask !== undefined && looksLikeFile(d.load.mask)
          ? { mask: abs(d.load.mask) }
          : {}),
        ...(d.load.labelsFile !== undefined ? { labelsFile: abs(d.load.labelsFile) } : {}),
      },
    })),
  };
}

/** The k of each dataset: the protocol's, else its number of classes. */
async function datasetKs(spec: StudySpec, cache: DatasetCache): Promise<Record<string, number>> {
  const ks: Record<string, number> = {};
  for (const d of spec.datasets) {
    const ds = await cache.get(d);
    const k = spec.protocol.k ?? ds.labels?.classes.length ?? null;
    if (k === null) {
      throw new StudyFolderError(`dataset '${d.label}' has no labels: give protocol.k in the spec`);
    }
    if (k < 2 || k > ds.n) {
      throw new StudyFolderError(`dataset '${d.label}': k = ${k}, expected from 2 to ${ds.n}`);
    }
    ks[d.label] = k;
  }
  return ks;
}

/**
 * Opens the study folder `dir` for `spec` (paths already resolved): creates study.json, or checks
 * that an existing one holds the same spec (a different one is refused: its cells would not
 * match). Returns the study file.
 */
export async function openStudy(
  dir: string,
  spec: StudySpec,
  cache: DatasetCache = new DatasetCache(dir),
): Promise<StudyFile> {
  const existing = (await stat(studyJson(dir)).catch(() => null)) ? await readStudyFile(dir) : null;
  if (existing) {
    if (JSON.stringify(existing.spec) !== JSON.stringify(spec)) {
      throw new StudyFolderError(
        `'${dir}' holds a study of another spec: give another --out, or run the spec it holds`,
      );
    }
    return existing;
  }
  const ks = await datasetKs(spec, cache);
  const cells = expandCells(spec, (label) => ks[label]!);
  const f = newStudyFile(spec, ks, cells);
  await writeStudyFile(dir, f);
  return f;
}

/** Runs of consecutive seeds: [1,2,3,7] → [[1,3],[7,1]] as [first, count]. */
export function seedRuns(seeds: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const s of seeds) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === s) last[1]++;
    else runs.push([s, 1]);
  }
  return runs;
}

/** The final objective of a seed's traces: the last value of its last solver stage, or null. */
function finalObjective(trace: Readonly<Record<string, number[]>> | undefined): number | null {
  const stages = Object.keys(trace ?? {}).filter((s) => s !== 'kmeans' && s !== 'metrics');
  const values = trace?.[stages[stages.length - 1] ?? ''];
  return values?.length ? values[values.length - 1]! : null;
}

/** The fields of a cell's rows that every seed shares. */
function cellFields(
  cell: StudyCell,
): Pick<StudyRow, 'cell' | 'method' | 'label' | 'grid' | 'params' | 'dataset' | 'missingRate'> {
  const { id, method, label, grid, params, dataset, missingRate } = cell;
  return { cell: id, method, label, grid, params, dataset, missingRate };
}

/**
 * Per seed, the mean ARI between its labels and each other seed's (ARI is symmetric: each pair
 * is scored once); empty with one seed.
 */
function pairwiseStability(labels: readonly Int32Array[]): number[] {
  const S = labels.length;
  if (S < 2) return [];
  const sums = new Array<number>(S).fill(0);
  for (let i = 0; i < S; i++) {
    for (let j = i + 1; j < S; j++) {
      const ari = adjustedRandIndex(labels[i]!, labels[j]!);
      sums[i]! += ari;
      sums[j]! += ari;
    }
  }
  return sums.map((x) => x / (S - 1));
}

/** The rows of one driven seed run. */
function rowsOf(
  cell: StudyCell,
  spec: StudySpec,
  driven: Driven,
  seconds: readonly number[],
  deterministic: boolean,
): StudyRow[] {
  const { perSeed, seedLabels } = driven.result;
  const stability = pairwiseStability(seedLabels);
  return perSeed.map((s, i) => {
    const metrics: Partial<Record<StudyMetric, number>> = {};
    for (const m of spec.metrics) {
      const v = s.metrics[METRIC_NAMES[m]];
      if (v !== undefined && Number.isFinite(v)) metrics[m] = v;
    }
    const trace = driven.seedTraces[deterministic ? 0 : i];
    return {
      ...cellFields(cell),
      seed: s.seed,
      status: 'done',
      error: '',
      metrics,
      objective: finalObjective(trace),
      seconds: seconds[i] ?? 0,
      stability: stability[i] ?? null,
    };
  });
}

/** Whether an error is the input's fault (the cell fails for good) rather than a bug. */
function isInputFailure(e: unknown): boolean {
  return (
    e instanceof SolverInputError ||
    e instanceof ParamError ||
    e instanceof DataError ||
    e instanceof MatReadError
  );
}

export class StudyCancelled extends Error {
  constructor() {
    super('the study was cancelled');
    this.name = 'StudyCancelled';
  }
}

/**
 * Runs cell `id` of the study in `dir` and writes its bundle(s) and record; returns the record's
 * status. Leftovers of an earlier, killed attempt are cleared first. Bad input (a refusal, a
 * solver input error) makes a final 'failed' record; any other error (a bug, a full disk) a
 * retryable one, run again by the next `runStudy`, so that one cell does not stop the study. A
 * cancel propagates with no record written.
 */
export async function runCell(
  dir: string,
  study: StudyFile,
  id: string,
  cache: DatasetCache = new DatasetCache(dir),
  signal?: AbortSignal,
): Promise<'done' | 'failed'> {
  const cell = study.cells.find((c) => c.id === id);
  if (!cell)
    throw new StudyFolderError(
      `'${dir}' has no cell '${id}' (cells c0001 to c${String(study.cells.length).padStart(4, '0')})`,
    );
  const folder = cellDir(dir, id);
  await rm(folder, { recursive: true, force: true });
  const spec = study.spec;
  const d = spec.datasets.find((x) => x.label === cell.dataset)!;
  const solver = getSolver(cell.method);
  const k = study.ks[cell.dataset]!;
  const rows: StudyRow[] = [];
  const bundles: string[] = [];
  let error = '';
  let failed = false;
  let retryable = false;
  try {
    const ds = await cache.get(d);
    const { refusal } = estimateMemory(shapeOf(ds), solver, cell.params, k, solverMemoryLimit());
    if (refusal !== null) throw new SolverInputError(refusal);
    let lastYield = performance.now();
    const beforeStep = async (): Promise<void> => {
      if (performance.now() - lastYield > 50) {
        await new Promise((r) => setImmediate(r));
        lastYield = performance.now();
      }
      if (signal?.aborted) throw new StudyCancelled();
    };
    for (const [seed, seeds] of seedRuns(spec.seeds)) {
      const options = {
        protocol: 'paper' as const,
        seed,
        seeds,
        replicates: spec.protocol.replicates,
        preprocess: spec.protocol.preprocess,
      };
      const seconds: number[] = [];
      let t = performance.now();
      let current = 1;
      const t0 = t;
      const onStep = (s: { seedIndex: number }): void => {
        if (s.seedIndex === current) return;
        seconds.push(since(t));
        t = performance.now();
        current = s.seedIndex;
      };
      const driven = await drive(ds, solver, cell.params, k, options, { beforeStep, onStep });
      seconds.push(since(t));
      rows.push(...rowsOf(cell, spec, driven, seconds, solver.deterministic));
      const stages = driven.stageSeconds;
      const bundle = await writeRunBundle(folder, {
        datasetPath: d.files[0]!,
        datasetFiles: d.files,
        loadOptions: d.load,
        dataset: ds,
        method: cell.method,
        params: cell.params,
        k,
        seed,
        protocol: 'paper',
        result: driven.result,
        timings: {
          total_s: since(t0),
          load_s: 0,
          solve_s: driven.solve_s,
          kmeans_s: driven.kmeans_s,
        },
        view: runView(ds, driven.firstOutput, driven.result, k, stages, driven.traces),
      });
      bundles.push(relative(folder, bundle));
    }
  } catch (e) {
    if (e instanceof StudyCancelled) throw e;
    failed = true;
    retryable = !isInputFailure(e);
    error = retryable ? `${(e as Error).name}: ${(e as Error).message}` : (e as Error).message;
  }
  const status = failed ? 'failed' : 'done';
  const failedRows: StudyRow[] = spec.seeds.map((seed) => ({
    ...cellFields(cell),
    seed,
    status: 'failed',
    error,
    metrics: {},
    objective: null,
    seconds: 0,
    stability: null,
  }));
  await writeCellRecord(dir, {
    version: 1,
    id,
    status,
    error,
    retryable,
    bundles: status === 'done' ? bundles : [],
    rows: status === 'done' ? rows : failedRows,
  });
  return status;
}

/** Progress of a whole study. */
export interface StudyProgress {
  readonly done: number;
  readonly total: number;
  /** The cell that just ended (null at the start). */
  readonly cell: string | null;
  /** Seconds left at this session's mean seconds per cell; null before the first cell ends. */
  readonly etaSeconds: number | null;
}

/** Runs the pending cells of a study; calls `onCellEnd` after each cell's record is written. */
export interface StudyExecutor {
  run(
    dir: string,
    study: StudyFile,
    cells: readonly string[],
    hooks: { readonly signal?: AbortSignal; readonly onCellEnd: (id: string) => Promise<void> },
  ): Promise<void>;
}

/** Runs the cells one after the other in this process. */
export function localExecutor(cache?: DatasetCache): StudyExecutor {
  return {
    async run(dir, study, cells, hooks) {
      for (const id of cells) {
        if (hooks.signal?.aborted) throw new StudyCancelled();
        await runCell(dir, study, id, cache ?? new DatasetCache(dir), hooks.signal);
        await hooks.onCellEnd(id);
      }
    },
  };
}

/** The ids of the cells of `study` in `dir` to run: no record yet, or a retryable failure. */
export async function pendingCells(dir: string, study: StudyFile): Promise<string[]> {
  const out: string[] = [];
  for (const c of study.cells) {
    const r = await readCellRecord(dir, c.id);
    if (r === null || (r.status === 'failed' && r.retryable)) out.push(c.id);
  }
  return out;
}

export interface RunStudyOptions {
  readonly executor?: StudyExecutor;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: StudyProgress) => void;
  readonly cache?: DatasetCache;
}

/**
 * Opens (or resumes) the study of `spec` in `dir` and runs what is missing; results.csv and
 * study.json are rebuilt after each cell and at the end. Returns the collected rows.
 */
export async function runStudy(
  dir: string,
  spec: StudySpec,
  options: RunStudyOptions = {},
): Promise<{ study: StudyFile; rows: StudyRow[]; ran: string[] }> {
  const cache = options.cache ?? new DatasetCache(dir);
  await removeStaleTemporaries(dir).catch(() => 0);
  const study = await openStudy(dir, spec, cache);
  const pending = await pendingCells(dir, study);
  const total = study.cells.length;
  let done = total - pending.length;
  const ran: string[] = [];
  const t0 = performance.now();
  options.onProgress?.({ done, total, cell: null, etaSeconds: null });
  const executor = options.executor ?? localExecutor(cache);
  await executor.run(dir, study, pending, {
    ...(options.signal ? { signal: options.signal } : {}),
    onCellEnd: async (id) => {
      ran.push(id);
      done++;
      await collectStudy(dir);
      const perCell = since(t0) / ran.length;
      options.onProgress?.({ done, total, cell: id, etaSeconds: perCell * (total - done) });
    },
  });
  const collected = await collectStudy(dir);
  return { ...collected, ran };
}

/** The folder a spec file's relative paths are read against. */
export const specBase = (specPath: string): string => dirname(resolve(specPath));
