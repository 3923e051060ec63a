/**
 * The job manager: the runs of a session, on top of the WorkerHost. It turns a renderer's
 * request (a dataset id from the library, a method, raw parameters) into a worker request,
 * keeps each run's state for the queue (status, latest progress, error, metrics), keeps the
 * results of finished runs for the results view, exports them, and tells listeners about every
 * change. Progress is passed on at most every `progressIntervalMs` per run (the worker reports
 * every k-means iteration: thousands a second), always with the latest step.
 *
 * Host-agnostic: Electron's main forwards updates as an IPC event, the web host as
 * Server-Sent Events.
 */
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MAX_SEEDS } from '../core/limits';
import type { DatasetSummary } from '../core/dataset';
import { protocolWork, type RunWork } from '../core/solvers/cost';
import { ParamError, describeSpec, validateParams } from '../core/solvers/params';
import { listSolvers } from '../core/solvers/registry';
import type { ParamValue, Params, Solver, SolverCharts } from '../core/solvers/types';
import { writeFileAtomic } from '../io/atomic';
import { compactCodes } from '../shared/contract';
import type {
  MethodInfo,
  ProtocolKind,
  RunEstimate,
  RunEstimateRequest,
  RunInfo,
  RunProgress,
  RunResult,
  RunStart,
  SerializedError,
} from '../shared/contract';
import type { Progress, WorkerRunResult } from '../shared/worker-protocol';
import { Calibration, estimateMemory, problemShape } from './estimate';
import { openStoredRun, plain, storedRunInfo } from './results';
import { labelsCsvOf, resultBytes, seedResult, seedViewBytes, type StoredResult } from './seeds';
import type { DatasetLibrary } from './library';
import { formatBytes, type WorkerHost } from './worker-host';

export interface RunManagerOptions {
  host: WorkerHost;
  library: DatasetLibrary;
  /** Folder where the worker writes run bundles; null: no bundles. */
  bundleRoot: string | null;
  /** Least time between two progress updates of one run (default 100 ms). */
  progressIntervalMs?: number;
  /** Results kept in memory (oldest dropped first; default 50). */
  keepResults?: number;
  /**
   * Bytes of results kept in memory (their arrays and labels CSV; oldest dropped first;
   * default DEFAULT_KEEP_RESULT_BYTES).
   */
  keepResultBytes?: number;
  /** Runs that may wait in the queue at once; the next start is refused (default 100). */
  maxQueued?: number;
  /** Finished runs (done, failed, cancelled) whose records are kept; older ones are forgotten (default 500). */
  keepFinished?: number;
  /** The solvers runs may name (default the registry's); tests inject fakes. */
  solvers?: readonly Solver[];
  /**
   * Bytes above which a run's estimate (data plus the solver's footprint) is refused before it
   * is queued (default the host's `memoryLimitBytes`, at which it would kill the worker).
   */
  memoryLimitBytes?: number | null;
}

export const DEFAULT_MAX_QUEUED = 100;
/** The result store's budget: 256 MiB (a 10^6-sample result takes ~11 MB). */
export const DEFAULT_KEEP_RESULT_BYTES = 256 * 1024 ** 2;
export const DEFAULT_KEEP_FINISHED = 500;

export type RunListener = (run: RunInfo) => void;

interface Entry {
  info: RunInfo;
  cancel: () => void;
  lastEmit: number;
  pending: ReturnType<typeof setTimeout> | null;
  /** The run's work from the solver's declared cost, for the calibration once it is done. */
  work: RunWork | null;
}

/** The registry as the renderer sees it. */
export function methodInfos(solvers: readonly Solver[] = listSolvers()): MethodInfo[] {
  return solvers.map((s) => ({
    name: s.name,
    title: s.title,
    description: s.description,
    deterministic: s.deterministic,
    params: Object.entries(s.schema).map(([name, spec]) => ({
      name,
      spec,
      expects: describeSpec(spec),
    })),
  }));
}

export class RunManager {
  readonly #host: WorkerHost;
  readonly #library: DatasetLibrary;
  readonly #bundleRoot: string | null;
  readonly #interval: number;
  /** This machine's throughputs, from the runs finished here (the time estimate). */
  readonly #calibration = new Calibration();
  readonly #keep: number;
  readonly #keepBytes: number;
  readonly #maxQueued: number;
  readonly #keepFinished: number;
  readonly #solvers: readonly Solver[];
  readonly #memoryLimit: number | null;
  readonly #runs = new Map<string, Entry>();
  /** Each kept result: the first seed's, and what the other seeds' views need. */
  readonly #results = new Map<string, StoredResult>();
  /** What each kept result takes (resultBytes), and their sum. */
  readonly #resultBytes = new Map<string, number>();
  #storedBytes = 0;
  readonly #listeners = new Set<RunListener>();
  #counter = 0;

  constructor(options: RunManagerOptions) {
    this.#host = options.host;
    this.#library = options.library;
    this.#bundleRoot = options.bundleRoot;
    this.#interval = options.progressIntervalMs ?? 100;
    this.#keep = options.keepResults ?? 50;
    this.#keepBytes = options.keepResultBytes ?? DEFAULT_KEEP_RESULT_BYTES;
    this.#maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    this.#keepFinished = options.keepFinished ?? DEFAULT_KEEP_FINISHED;
    this.#solvers = options.solvers ?? listSolvers();
    this.#memoryLimit =
      options.memoryLimitBytes === undefined
        ? options.host.memoryLimitBytes
        : options.memoryLimitBytes;
  }

  /** The worker host runs go to (choose-k sweeps share it: backend/choose-k.ts). */
  get host(): WorkerHost {
    return this.#host;
  }

  /** The solvers runs may name, in order (what `methods:list` describes). */
  get solvers(): readonly Solver[] {
    return this.#solvers;
  }

  /**
   * The memory estimate of a run the form describes (`runs:estimate`); throws for an unknown
   * dataset or method and, with the validator's message, for parameters the schema refuses.
   */
  estimate(req: RunEstimateRequest): RunEstimate {
    const dataset = this.#library.get(req.datasetId);
    if (!dataset) throw named('NotFound', `no open dataset has the id '${req.datasetId}'`);
    const solver = this.#solver(req.method);
    const params = validateParams(solver.schema, req.params);
    const memory = this.#estimate(dataset.summary, solver, params, req.k);
    const work = this.#work(dataset.summary, solver, params, req);
    return { ...memory, time: this.#calibration.estimate(solver.name, dataset.id, work) };
  }

  /** The work of a run, from the solver's declared cost under the protocol. */
  #work(
    summary: DatasetSummary,
    solver: Solver,
    params: Params,
    req: { k?: number; protocol?: ProtocolKind; seeds?: number },
  ): RunWork {
    const k = req.k ?? summary.labels?.classes.length ?? 2;
    return protocolWork(
      solver,
      problemShape(summary, k),
      params,
      req.protocol ?? 'single',
      req.seeds,
    );
  }

  /** Listens to every change of every run; returns the unsubscriber. */
  subscribe(listener: RunListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every run of the session, oldest first. */
  list(): RunInfo[] {
    return [...this.#runs.values()].map((e) => e.info);
  }

  get(id: string): RunInfo | undefined {
    return this.#runs.get(id)?.info;
  }

  /**
   * Queues a run; fails at once for an unknown dataset or method, more seeds than MAX_SEEDS,
   * a full queue (`maxQueued` runs waiting), or an estimate with a refusal ('TooLarge').
   */
  start(req: RunStart): RunInfo {
    if (req.seeds !== undefined && req.seeds > MAX_SEEDS) {
      throw named(
        'InvalidRequest',
        `runs:start: 'seeds' is ${req.seeds}; at most ${MAX_SEEDS} seeds per run are accepted`,
      );
    }
    let queued = 0;
    for (const e of this.#runs.values()) if (e.info.status === 'queued') queued++;
    if (queued >= this.#maxQueued) {
      throw named(
        'QueueFull',
        `${queued} runs are already queued (at most ${this.#maxQueued}); wait for some to finish or cancel them`,
      );
    }
    const dataset = this.#library.get(req.datasetId);
    if (!dataset) throw named('NotFound', `no open dataset has the id '${req.datasetId}'`);
    // Refused here, not in the worker after the dataset is read: without labels nothing says k.
    if (req.k === undefined && !dataset.summary.labels) {
      throw named(
        'InvalidRequest',
        `runs:start: ${dataset.path} has no labels, so k (the number of clusters) must be given`,
      );
    }
    const solver = this.#solver(req.method);
    // Bad parameters fail the run in the worker, with the validator's message, as before.
    const params = validParams(solver, req.params);
    if (params !== null) {
      const { refusal } = this.#estimate(dataset.summary, solver, params, req.k);
      if (refusal !== null) throw named('TooLarge', refusal);
    }
    const id = `r${++this.#counter}`;
    const info: RunInfo = {
      id,
      datasetId: dataset.id,
      datasetPath: dataset.path,
      method: solver.name,
      methodTitle: solver.title,
      params: req.params,
      k: req.k ?? null,
      seed: req.seed,
      protocol: req.protocol,
      seeds: req.protocol === 'paper' ? (req.seeds ?? 20) : 1,
      batch: req.batch ?? null,
      preprocess: req.preprocess ?? 'none',
      fill: null,
      status: 'queued',
      progress: null,
      maxIterations: params === null ? null : solver.iterationCap(params),
      queuedAt: Date.now(),
      startedAt: null,
      finishedAt: null,
      error: null,
      metrics: null,
      seconds: null,
    };
    const handle = this.#host.run(
      {
        datasetPath: dataset.path,
        ...(dataset.files.length > 1 ? { datasetFiles: dataset.files } : {}),
        loadOptions: dataset.options,
        method: solver.name,
        params: req.params,
        ...(req.k !== undefined ? { k: req.k } : {}),
        seed: req.seed,
        protocol: req.protocol,
        ...(req.seeds !== undefined ? { seeds: req.seeds } : {}),
        ...(req.preprocess !== undefined ? { preprocess: req.preprocess } : {}),
        ...(this.#bundleRoot !== null ? { bundleDir: this.#bundleRoot } : {}),
      },
      (p) => this.#progress(id, p),
    );
    const entry: Entry = {
      info,
      cancel: () => this.#host.cancel(handle.runId),
      lastEmit: 0,
      pending: null,
      work: params === null ? null : this.#work(dataset.summary, solver, params, req),
    };
    this.#runs.set(id, entry);
    this.#emit(entry);
    void handle.outcome.then((o) => {
      switch (o.status) {
        case 'done':
          this.#done(id, o.result as WorkerRunResult);
          break;
        case 'cancelled':
          this.#end(id, { status: 'cancelled' });
          break;
        case 'failed':
          this.#end(id, { status: 'failed', error: o.error });
          break;
      }
    });
    return info;
  }

  /** Cancels a queued or running run; a finished one is left as it is. */
  cancel(id: string): void {
    const entry = this.#runs.get(id);
    if (!entry) throw named('NotFound', `no run has the id '${id}'`);
    if (entry.info.status === 'queued' || entry.info.status === 'running') entry.cancel();
  }

  /** A finished run's result, drawn for `seed` (default its first); throws for another seed. */
  result(id: string, seed?: number): RunResult {
    const r = this.#results.get(id);
    if (r) return seed === undefined ? r.first : seedResult(r, seed);
    const info = this.#runs.get(id)?.info;
    if (!info) throw named('NotFound', `no run has the id '${id}'`);
    if (info.status !== 'done') throw named('NotReady', `run ${id} is ${info.status}: no result`);
    throw named(
      'NotFound',
      `the result of run ${id} is no longer kept in memory (the last ${this.#keep} results, ` +
        `at most ${formatBytes(this.#keepBytes)}, are kept); run it again to see it`,
    );
  }

  /**
   * Writes labels.csv of a finished run (of `seed`, default the first) to `path` atomically;
   * returns the data rows written.
   */
  async exportLabels(
    id: string,
    path: string,
    seed?: number,
  ): Promise<{ path: string; rows: number }> {
    const result = this.result(id, seed);
    await writeFileAtomic(path, await labelsCsvOf(result));
    return { path, rows: result.clusters.length };
  }

  /**
   * Copies the run's bundle folder to `path` (which must not exist): copied beside it under a
   * temporary name, then renamed, so the folder appears whole or not at all.
   */
  async exportBundle(id: string, path: string): Promise<{ path: string }> {
    const { bundle } = this.result(id);
    if (bundle === null) throw named('NotFound', `run ${id} has no bundle (this host keeps none)`);
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    ) {
      throw named('Exists', `${path} already exists: choose a new folder name`);
    }
    await mkdir(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${Date.now()}`);
    try {
      await cp(bundle, tmp, { recursive: true });
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
    return { path };
  }

  #solver(name: string): Solver {
    const solver = this.#solvers.find((s) => s.name === name);
    if (solver) return solver;
    const known = this.#solvers.map((s) => s.name).join(', ') || '(none)';
    throw new Error(`unknown method '${name}'; methods: ${known}`);
  }

  /** k: the request's, else the number of classes, else 2 (the least, a lower bound). */
  #estimate(summary: DatasetSummary, solver: Solver, params: Params, k?: number): RunEstimate {
    const clusters = k ?? summary.labels?.classes.length ?? 2;
    return estimateMemory(summary, solver, params, clusters, this.#memoryLimit);
  }

  #progress(id: string, p: Progress): void {
    const entry = this.#runs.get(id);
    if (!entry) return;
    const progress: RunProgress = {
      seedIndex: p.seedIndex,
      seedCount: p.seedCount,
      stage: p.step.stage,
      iteration: p.step.iteration,
      objective: p.step.objective,
      elapsed: p.elapsed,
    };
    const first = entry.info.status === 'queued';
    entry.info = {
      ...entry.info,
      status: 'running',
      progress,
      startedAt: entry.info.startedAt ?? Date.now() - p.elapsed * 1000,
    };
    const now = Date.now();
    if (first || now - entry.lastEmit >= this.#interval) {
      this.#emit(entry);
    } else if (!entry.pending) {
      entry.pending = setTimeout(
        () => {
          entry.pending = null;
          if (entry.info.status === 'running') this.#emit(entry);
        },
        this.#interval - (now - entry.lastEmit),
      );
      entry.pending.unref?.();
    }
  }

  #done(id: string, r: WorkerRunResult): void {
    const v = r.view;
    const result: RunResult = {
      id,
      method: r.method,
      k: r.k,
      params: r.params,
      protocol: this.#runs.get(id)?.info.protocol ?? 'single',
      seeds: [...r.result.seeds],
      preprocess: r.result.preprocess,
      fill: r.result.fill,
      metrics: r.result.metrics,
      perSeed: r.result.perSeed.map((s) => ({ seed: s.seed, metrics: s.metrics })),
      seed: r.result.seeds[0] ?? 0,
      sharedSolve: (v.otherSeeds ?? []).some((o) => o.solve === null),
      objective: [...r.result.objective],
      traces: Object.fromEntries(Object.entries(v.traces).map(([k, t]) => [k, [...t]])),
      iterations: r.result.iterations,
      converged: r.result.converged,
      notes: [...r.result.notes],
      stages: Object.entries(v.stageSeconds).map(([stage, seconds]) => ({ stage, seconds })),
      totalSeconds: r.timings.total_s,
      projection: {
        x: v.projection.x,
        y: v.projection.y,
        explained: [...v.projection.explained],
        dims: v.projection.dims,
      },
      clusters: compactCodes(r.result.labels),
      truth: v.truth ? v.truth.codes : null,
      classes: v.truth ? [...v.truth.classes] : null,
      missingViews: v.missingViews,
      sampleIds: v.sampleIds,
      confusion: v.confusion,
      // JSON-safe as the diagnostics (a non-finite value becomes null, a gap in the chart).
      charts: plain(v.charts) as SolverCharts,
      diagnostics: plain(v.diagnostics) as Record<string, unknown>,
      bundle: r.bundle,
    };
    const stored: StoredResult = {
      first: result,
      iterations: r.result.perSeed.map((s) => s.iterations),
      others: v.otherSeeds ?? [],
    };
    this.#keepResult(id, stored);
    const entry = this.#runs.get(id);
    if (entry?.work) {
      const t = r.timings;
      this.#calibration.add({
        method: entry.info.method,
        datasetId: entry.info.datasetId,
        work: entry.work,
        solveSeconds: t.solve_s,
        kmeansSeconds: t.kmeans_s,
        restSeconds: Math.max(0, t.total_s - t.solve_s - t.kmeans_s),
      });
    }
    this.#end(id, {
      status: 'done',
      metrics: r.result.metrics,
      seconds: r.timings.total_s,
      fill: r.result.fill,
    });
  }

  /**
   * Puts the run saved in a bundle (its folder or run.json) in the list as done, its result
   * read back from the bundle (backend/results.ts); a DataError naming the file when the bundle
   * is missing or damaged. Only the first seed's charts are kept in a bundle.
   */
  async open(target: string): Promise<RunInfo> {
    const { dir, record, result } = await openStoredRun(target);
    const id = `r${++this.#counter}`;
    const solver = this.#solvers.find((s) => s.name === record.method);
    const info = storedRunInfo(id, dir, record, solver?.title ?? record.method);
    const entry: Entry = { info, cancel: () => {}, lastEmit: 0, pending: null, work: null };
    this.#runs.set(id, entry);
    this.#keepResult(id, {
      first: { ...result, id, sharedSolve: solver?.deterministic === true },
      iterations: record.perSeed.map((s) => s.iterations),
      others: [],
    });
    this.#emit(entry);
    this.#forgetFinished();
    return info;
  }

  #keepResult(id: string, stored: StoredResult): void {
    this.#results.set(id, stored);
    const bytes =
      resultBytes(stored.first) + stored.others.reduce((a, o) => a + seedViewBytes(o), 0);
    this.#resultBytes.set(id, bytes);
    this.#storedBytes += bytes;
    // Oldest first; the newest result stays even alone over the budget (it was just asked for).
    while (
      this.#results.size > 1 &&
      (this.#results.size > this.#keep || this.#storedBytes > this.#keepBytes)
    ) {
      this.#dropResult(this.#results.keys().next().value as string);
    }
  }

  #dropResult(id: string): void {
    this.#results.delete(id);
    this.#storedBytes -= this.#resultBytes.get(id) ?? 0;
    this.#resultBytes.delete(id);
  }

  #end(
    id: string,
    change: Pick<RunInfo, 'status'> &
      Partial<Pick<RunInfo, 'metrics' | 'seconds' | 'fill'>> & {
        error?: SerializedError;
      },
  ): void {
    const entry = this.#runs.get(id);
    if (!entry) return;
    if (entry.pending) clearTimeout(entry.pending);
    entry.pending = null;
    entry.info = {
      ...entry.info,
      status: change.status,
      finishedAt: Date.now(),
      error: change.error ?? null,
      metrics: change.metrics ?? null,
      seconds: change.seconds ?? null,
      fill: change.fill ?? null,
    };
    this.#emit(entry);
    this.#forgetFinished();
  }

  /** Forgets the oldest finished runs beyond `keepFinished` (queued and running ones stay). */
  #forgetFinished(): void {
    let finished = 0;
    for (const e of this.#runs.values()) if (e.info.finishedAt !== null) finished++;
    for (const [id, e] of this.#runs) {
      if (finished <= this.#keepFinished) break;
      if (e.info.finishedAt === null) continue;
      this.#runs.delete(id);
      this.#dropResult(id);
      finished--;
    }
  }

  #emit(entry: Entry): void {
    entry.lastEmit = Date.now();
    for (const listener of this.#listeners) {
      try {
        listener(entry.info);
      } catch {
        // A listener's failure (a closed window, a dropped connection) is not the run's.
      }
    }
  }
}

/** The validated parameters, or null when the schema refuses them. */
function validParams(solver: Solver, raw: Readonly<Record<string, ParamValue>>): Params | null {
  try {
    return validateParams(solver.schema, raw);
  } catch (e) {
    if (e instanceof ParamError) return null;
    throw e;
  }
}

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}
