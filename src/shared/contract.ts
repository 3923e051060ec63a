/**
 * The one declaration of every request/response channel between the renderer and the
 * backend. Electron's main process registers a handler per channel (src/main/ipc.ts), the
 * preload exposes one function per channel (src/preload/index.ts), and the web host serves
 * each as `POST /api/<channel>` (src/cli/serve.ts). Everything here is structured-clone safe.
 *
 * Both hosts check every incoming payload with `parseRequest` before a handler sees it, and
 * answer with an `Envelope`; `Events` are the few messages the Electron host pushes unasked.
 */
import type { DatasetSummary } from '../core/dataset';
import type { MetricSummary, ProtocolKind } from '../core/protocol';
import type {
  HeatmapChart,
  ParamSpec,
  ParamValue,
  SolverCharts,
  SpectrumChart,
  WeightsChart,
} from '../core/solvers/types';
import {
  expectId,
  expectNull,
  expectObject,
  expectString,
  invalid,
  parseDatasetOpen,
  parseRunEstimate,
  parseRunStart,
} from './requests';
import { parseChooseKStart, type ChooseKInfo, type ChooseKStart } from './choose-k';
import type { SerializedError } from './errors';
import * as study from './study';
import type { Preprocess } from '../core/views/preprocess';

export type {
  DatasetSummary,
  HeatmapChart,
  MetricSummary,
  ParamSpec,
  ParamValue,
  ProtocolKind,
  SolverCharts,
  SpectrumChart,
  WeightsChart,
};
export type { Envelope, SerializedError } from './errors';
export { reviveError, serializeError } from './errors';
export type { Preprocess };
export { PREPROCESS_MODES } from '../core/views/preprocess';
export {
  MAX_PARAMS,
  MAX_PARAMS_BYTES,
  MAX_PARAM_STRING,
  MAX_VIEW_FILES,
  parseDatasetOpen,
  parseLoadOptions,
  parsePreprocess,
  parseRunEstimate,
  parseRunStart,
} from './requests';

/** Options a user can give to the mapper; each overrides one of its decisions. */
export interface LoadOptions {
  /** A mask: a variable of the data file, or a path to a separate folds/mask file. */
  mask?: string;
  /** 1-based fold (cell index) of the mask variable; default 1. */
  fold?: number;
  /** Variable holding the views (a cell), or a comma-separated list of variables. */
  views?: string;
  /** Variable holding the labels, or 'none'. */
  labels?: string;
  /** Force the orientation of every view. */
  orientation?: 'n x d' | 'd x n';
  /** For CSV/NPY views (one file per view): a file with one label per sample. */
  labelsFile?: string;
}

/** What `datasets:open` takes: one path, or the list of a dataset's files. */
export type DatasetOpenRequest =
  | { readonly path: string; readonly options?: LoadOptions }
  | { readonly files: readonly string[]; readonly options?: LoadOptions };

export interface DatasetEntry {
  /** Stable id within the library (derived from every file and the options). */
  readonly id: string;
  /** The first file (kept for display): the data file, or the first view file. */
  readonly path: string;
  /**
   * Every file of the dataset, in view order: one MAT/NPZ file, or one CSV/NPY file per view.
   * The labels file, if any, is `options.labelsFile`.
   */
  readonly files: readonly string[];
  readonly options: LoadOptions;
  readonly summary: DatasetSummary;
  /** True for the sample dataset shipped with the app. */
  readonly bundled: boolean;
}

/**
 * Which samples each view holds: the data of the presence chart. One bitset per view (n / 8
 * bytes, not n numbers), so a 10^6-sample dataset's presence is 125 KB per view.
 */
export interface Presence {
  readonly n: number;
  readonly views: readonly string[];
  /**
   * bits[v]: (⌈n / 8⌉,) bitset of the samples view v holds; sample i is bit (i & 7) of byte
   * i >> 3 (see `isPresent`).
   */
  readonly bits: readonly Uint8Array[];
}

/** The bitset of `Presence.bits` holding the 0-based sample indices `present` out of n. */
export function presenceBits(n: number, present: ArrayLike<number>): Uint8Array {
  const bits = new Uint8Array(Math.ceil(n / 8));
  for (let j = 0; j < present.length; j++) {
    const i = present[j]!;
    bits[i >> 3]! |= 1 << (i & 7);
  }
  return bits;
}

/** Whether sample i is set in a bitset of `Presence.bits`. */
export function isPresent(bits: Uint8Array, i: number): boolean {
  return ((bits[i >> 3] ?? 0) >> (i & 7)) & 1 ? true : false;
}

/** One parameter of a method, as its form shows it. */
export interface ParamInfo {
  readonly name: string;
  readonly spec: ParamSpec;
  /** The accepted values in words, exactly as the validator's messages say them. */
  readonly expects: string;
}

/** A clustering method of the registry, for the method picker and the parameter form. */
export interface MethodInfo {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly deterministic: boolean;
  readonly params: readonly ParamInfo[];
}

export interface RunStart {
  readonly datasetId: string;
  readonly method: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Number of clusters; default: the number of classes. */
  readonly k?: number;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  /** Paper protocol: number of seeds (default 20). */
  readonly seeds?: number;
  /** Groups the runs of one comparison ("these methods × N seeds"). */
  readonly batch?: string;
  /** The shared preprocessing of the views (core/views/preprocess.ts); default 'none'. */
  readonly preprocess?: Preprocess;
}

/** What `runs:estimate` asks: the run the form describes, before it is started. */
export interface RunEstimateRequest {
  readonly datasetId: string;
  readonly method: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Number of clusters; default: the number of classes. */
  readonly k?: number;
  /** The protocol and its seeds, for the time estimate (default: a single run). */
  readonly protocol?: ProtocolKind;
  readonly seeds?: number;
}

/**
 * How long a run should take: its work from the solver's declared cost (`Solver.cost`) under
 * the protocol, in seconds at throughputs measured on this machine's finished runs
 * (backend/estimate.ts), as a range that says how rough it is.
 */
export interface TimeEstimate {
  /** The most likely seconds, and the range the true time should fall in. */
  readonly seconds: number;
  readonly low: number;
  readonly high: number;
  /** How the throughput was calibrated, in words ("3 finished runs of this method here"). */
  readonly basis: string;
  /** Finished runs of this method the solve's throughput came from (0: none yet). */
  readonly calibratedRuns: number;
}

/**
 * A run's estimate: the memory side from the solver's declared footprint on the dataset's
 * shape, and (from `runs:estimate`) the time side from its declared cost (backend/estimate.ts).
 */
export interface RunEstimate {
  /** Bytes of the views as doubles (a dense upper bound for sparse views). */
  readonly dataBytes: number;
  /** Bytes the method allocates on top of the data (its main arrays at their peak). */
  readonly methodBytes: number;
  /** True when some of the method's arrays grow as n² (dense n × n). */
  readonly quadratic: boolean;
  /** The method's arrays in words (the footprint's note). */
  readonly note: string;
  /** Set when the n × n arrays are large enough that the run may run out of memory. */
  readonly warning: string | null;
  /** Set when the run needs more than the solver worker may use: `runs:start` refuses it. */
  readonly refusal: string | null;
  /** The time estimate; absent where only the memory was asked (the checks of `runs:start`). */
  readonly time?: TimeEstimate;
}

export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** The latest step of a running run. */
export interface RunProgress {
  readonly seedIndex: number;
  readonly seedCount: number;
  readonly stage: string;
  readonly iteration: number;
  readonly objective: number | null;
  /** Seconds since the worker started the run. */
  readonly elapsed: number;
}

/** A run as the queue shows it; pushed as the 'runs:update' event on every change. */
export interface RunInfo {
  readonly id: string;
  readonly datasetId: string;
  readonly datasetPath: string;
  readonly method: string;
  readonly methodTitle: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly k: number | null;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  readonly seeds: number;
  readonly batch: string | null;
  /** The shared preprocessing of the views ('none': the raw features, as the reference codes). */
  readonly preprocess: Preprocess;
  /**
   * Once done: the note of the fill rule when a complete-view method ran on incomplete data
   * (its missing samples imputed), else null.
   */
  readonly fill: string | null;
  readonly status: RunStatus;
  readonly progress: RunProgress | null;
  /** The solver's declared iteration cap for these parameters, for "iteration i of max". */
  readonly maxIterations: number | null;
  /** Wall-clock times (ms since the epoch, host clock). */
  readonly queuedAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly error: SerializedError | null;
  /** Mean ± std of each metric, once done. */
  readonly metrics: Readonly<Record<string, MetricSummary>> | null;
  /** Worker-measured seconds of the whole run, once done. */
  readonly seconds: number | null;
}

/**
 * (n,) non-negative codes (clusters, classes) in the narrowest type that holds them: one byte
 * a sample up to 256 codes (see `compactCodes`).
 */
export type CodeArray = Uint8Array | Uint16Array | Int32Array;

/** Codes ≥ 0 in the narrowest of `CodeArray`'s types that holds their largest. */
export function compactCodes(codes: ArrayLike<number>): CodeArray {
  let max = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
  // The constructors copy a typed array natively; `from` would walk its iterator.
  if (max < 256) return new Uint8Array(codes);
  if (max < 65536) return new Uint16Array(codes);
  return new Int32Array(codes);
}

/**
 * Everything the results view draws of a finished run. The per-sample arrays are typed arrays
 * (structured clone carries them as they are; the web host's JSON as tagged base64, see
 * ./wire.ts); the rest is plain data.
 */
export interface RunResult {
  readonly id: string;
  readonly method: string;
  readonly k: number;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly protocol: ProtocolKind;
  readonly seeds: readonly number[];
  /** The shared preprocessing of the views, and the fill note (see RunInfo). */
  readonly preprocess: Preprocess;
  readonly fill: string | null;
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  readonly perSeed: readonly { seed: number; metrics: Readonly<Record<string, number>> }[];
  /**
   * The seed the charts, the clusters, the confusion matrix and the labels export below come
   * from: the first of `seeds` unless `runs:result` asked for another.
   */
  readonly seed: number;
  /** True when one solve served every seed (a deterministic method): only k-means differs. */
  readonly sharedSolve: boolean;
  /** The objective per iteration of `seed`'s solve (empty for a method without one). */
  readonly objective: readonly number[];
  /** Objective per iteration of each stage of `seed` (e.g. 'kmeans': its SSE). */
  readonly traces: Readonly<Record<string, readonly number[]>>;
  /** Iterations of `seed`'s solve. */
  readonly iterations: number;
  readonly converged: boolean;
  readonly notes: readonly string[];
  /** Seconds per stage, in order. */
  readonly stages: readonly { stage: string; seconds: number }[];
  readonly totalSeconds: number;
  /** 2-D PCA of `seed`'s embedding: one point per sample, x and y (n,) in single precision (drawn only). */
  readonly projection: {
    readonly x: Float32Array;
    readonly y: Float32Array;
    readonly explained: readonly number[];
    readonly dims: number;
  };
  /** (n,) 0-based cluster of each sample (`seed`'s). */
  readonly clusters: CodeArray;
  /** (n,) 0-based class code of each sample, and the class values; null without labels. */
  readonly truth: CodeArray | null;
  readonly classes: readonly (number | string)[] | null;
  /** (n,) number of views each sample is missing from. */
  readonly missingViews: Uint8Array;
  readonly sampleIds: readonly string[] | null;
  /** Classes × clusters (`seed`'s) after Hungarian alignment; null without labels. */
  readonly confusion: { readonly counts: number[][]; readonly clusterOrder: number[] } | null;
  /** `seed`'s solve's typed chart data (spectrum, weights, heatmap); what the results draw. */
  readonly charts: SolverCharts;
  /** Method-specific plain data, as the run bundle keeps it (not drawn). */
  readonly diagnostics: Readonly<Record<string, unknown>>;
  /** The run bundle folder, when the host keeps bundles. */
  readonly bundle: string | null;
}

export interface Channels {
  'datasets:list': { request: null; response: DatasetEntry[] };
  /**
   * Opens a dataset: `path` (one file), or `files` (one MAT/NPZ file, or one CSV/NPY file per
   * view, in view order). A leading `~` is the home folder. An override the file kind cannot
   * honour is refused (error 'DataError' naming the option), never ignored.
   */
  'datasets:open': { request: DatasetOpenRequest; response: DatasetEntry };
  'datasets:remove': { request: { id: string }; response: null };
  'datasets:presence': { request: { id: string }; response: Presence };
  /**
   * Makes an incomplete version of a dataset (MAT/NPZ files): a fraction of the samples stay
   * complete, every other one loses a random non-empty set of its views (seeded); opens it.
   */
  'datasets:generateMissing': {
    request: { id: string; completeFraction: number; seed: number };
    response: { entry: DatasetEntry; protocol: string };
  };
  /**
   * Saves an open dataset, gaps and mask included, to `path` (granted by dialog:saveFile) as
   * MAT v5 or NPZ by its extension (io/save.ts: the layout), atomically; read in the loader.
   */
  'datasets:save': {
    request: { id: string; path: string };
    response: { path: string; format: 'mat' | 'npz' };
  };
  /** Asks the host for a file to open: the native dialog under Electron; null when cancelled. */
  'dialog:openDataset': { request: null; response: string | null };
  /**
   * Asks the host for one or more files (the native dialog with several selectable; the
   * views of a CSV/NPY dataset); null when cancelled or in a browser.
   */
  'dialog:openDatasetFiles': { request: null; response: string[] | null };
  /**
   * Chooses where one export is written, and grants that path for one write: under Electron
   * the native save dialog (null when cancelled); in the web host the typed `path` (a full
   * path or `~/…`), refused when relative, when its folder is missing, or when it exists
   * unless `overwrite` (error 'Exists'). Null in a browser without `path`.
   */
  'dialog:saveFile': {
    request: { defaultName: string; path?: string; overwrite?: boolean };
    response: string | null;
  };
  'methods:list': { request: null; response: MethodInfo[] };
  /**
   * The memory a run would need and what the host thinks of it (`RunEstimate`); fails like
   * `runs:start` for an unknown dataset or method, and for parameters the schema refuses.
   */
  'runs:estimate': { request: RunEstimateRequest; response: RunEstimate };
  /**
   * Queues a run in the worker; refuses one whose estimate has a refusal (error 'TooLarge',
   * its message). Parameters are validated there too; bad ones fail the run.
   */
  'runs:start': { request: RunStart; response: RunInfo };
  'runs:list': { request: null; response: RunInfo[] };
  /** Cancels a queued or running run; the run is marked 'cancelled' within a second. */
  'runs:cancel': { request: { id: string }; response: null };
  /** A finished run's result, drawn for `seed` (one of its seeds; default the first). */
  'runs:result': { request: { id: string; seed?: number }; response: RunResult };
  /**
   * Reopens a saved run: the bundle folder (or its run.json) at `path` goes in the list as a
   * done run whose result (`runs:result`) is read back from the bundle. Under Electron only a
   * path the user chose (File > Open run…); in the web host a full path or `~/…`. A damaged
   * bundle fails naming the file.
   */
  'runs:open': { request: { path: string }; response: RunInfo };
  /**
   * Writes labels.csv of a finished run (of `seed`, default the first) to `path` (granted by
   * dialog:saveFile), atomically.
   */
  'runs:exportLabels': {
    request: { id: string; path: string; seed?: number };
    response: { path: string; rows: number };
  };
  /** Copies the run bundle folder (run.json + labels.csv) to `path` (granted), atomically. */
  'runs:exportBundle': { request: { id: string; path: string }; response: { path: string } };
  /**
   * Choose k (shared/choose-k.ts): starts a label-free sweep of one method over a k range in
   * the solver worker; its state is read with `runs:chooseKStatus` until it ends.
   */
  'runs:chooseK': { request: ChooseKStart; response: ChooseKInfo };
  'runs:chooseKStatus': { request: { id: string }; response: ChooseKInfo };
  'runs:chooseKCancel': { request: { id: string }; response: null };
  /** Studies (shared/study.ts): run in the solver worker into a folder `dialog:saveFile` granted. */
  'studies:start': { request: study.StudyStart; response: study.StudyInfo };
  'studies:status': { request: { id: string }; response: study.StudyInfo };
  'studies:cancel': { request: { id: string }; response: null };
  'studies:open': { request: { path: string }; response: study.StudyInfo };
  'studies:report': { request: study.StudyReportRequest; response: study.StudyReport };
  /** Writes a text file (the comparison table as CSV) to `path` (granted), atomically. */
  'files:saveText': { request: { path: string; text: string }; response: { path: string } };
  /** Writes a PNG (a chart) given as a data URL to `path` (granted), atomically. */
  'files:savePng': { request: { path: string; dataUrl: string }; response: { path: string } };
}

export type Channel = keyof Channels;
export type Request<C extends Channel> = Channels[C]['request'];
export type Response<C extends Channel> = Channels[C]['response'];

/**
 * Events the host pushes to the renderer: over IPC under Electron, as Server-Sent Events
 * (`GET /api/events`) from the web host.
 */
export interface Events {
  /** The user chose File > Open… in the application menu. */
  'menu:open': null;
  /** Run > Start (the renderer starts the run its form describes). */
  'menu:run': null;
  /** Run > Cancel (the renderer cancels the selected or latest running run). */
  'menu:cancel': null;
  /** A run was queued, started, progressed (at most ~10 per second) or ended. */
  'runs:update': RunInfo;
  /** File > Open run…: the bundle the user chose (granted for reading); the renderer opens it. */
  'menu:openRun': { path: string };
  /** A study was queued, progressed (a cell ended) or ended. */
  'studies:update': study.StudyInfo;
}

/**
 * Electron only, not a channel of the contract (no handler, no web route, not on `window.api`):
 * the preload sends the path of a file dropped on the window (one-way, a string), so that
 * main adds it to the paths the user chose before the renderer opens it.
 */
export const DROPPED_PATH_MESSAGE = 'internal:droppedPath';

export type EventName = keyof Events;
export type EventPayload<E extends EventName> = Events[E];

/** A request's optional `seed` (one of a run's seeds): a non-negative safe integer. */
function optionalSeed(where: string, o: Readonly<Record<string, unknown>>): number | undefined {
  const v = o['seed'];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw invalid(where, "'seed' must be a non-negative integer");
  }
  return v;
}

/**
 * The run-time check of each channel's request: returns the request typed, or throws an
 * `InvalidRequest` error naming the channel and the field. The mapped type makes a channel
 * without a check a compile error, so `CHANNELS` below is complete by construction.
 */
const REQUEST_PARSERS: { readonly [C in Channel]: (payload: unknown) => Request<C> } = {
  'datasets:list': (p) => expectNull('datasets:list', p),
  'datasets:open': (p) => parseDatasetOpen(p),
  'datasets:remove': (p) => {
    const o = expectObject('datasets:remove', p, ['id']);
    const id = o['id'];
    if (typeof id !== 'string' || id === '') {
      throw invalid('datasets:remove', "'id' must be a non-empty string");
    }
    return { id };
  },
  'datasets:presence': (p) => ({ id: expectId('datasets:presence', p) }),
  'datasets:generateMissing': (p) => {
    const where = 'datasets:generateMissing';
    const o = expectObject(where, p, ['id', 'completeFraction', 'seed']);
    const f = o['completeFraction'];
    if (typeof f !== 'number' || !(f >= 0 && f <= 1)) {
      throw invalid(where, "'completeFraction' must be a number from 0 to 1");
    }
    const seed = o['seed'];
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
      throw invalid(where, "'seed' must be a non-negative integer");
    }
    return { id: expectString(where, o, 'id'), completeFraction: f, seed };
  },
  'datasets:save': (p) => {
    const o = expectObject('datasets:save', p, ['id', 'path']);
    return {
      id: expectString('datasets:save', o, 'id'),
      path: expectString('datasets:save', o, 'path'),
    };
  },
  'dialog:openDataset': (p) => expectNull('dialog:openDataset', p),
  'dialog:openDatasetFiles': (p) => expectNull('dialog:openDatasetFiles', p),
  'dialog:saveFile': (p) => {
    const where = 'dialog:saveFile';
    const o = expectObject(where, p, ['defaultName', 'path', 'overwrite']);
    const out: { defaultName: string; path?: string; overwrite?: boolean } = {
      defaultName: expectString(where, o, 'defaultName'),
    };
    if (o['path'] !== undefined) out.path = expectString(where, o, 'path');
    const overwrite = o['overwrite'];
    if (overwrite !== undefined) {
      if (typeof overwrite !== 'boolean') throw invalid(where, "'overwrite' must be a boolean");
      out.overwrite = overwrite;
    }
    return out;
  },
  'methods:list': (p) => expectNull('methods:list', p),
  'runs:estimate': (p) => parseRunEstimate(p),
  'runs:start': (p) => parseRunStart(p),
  'runs:list': (p) => expectNull('runs:list', p),
  'runs:cancel': (p) => ({ id: expectId('runs:cancel', p) }),
  'runs:result': (p) => {
    const o = expectObject('runs:result', p, ['id', 'seed']);
    const seed = optionalSeed('runs:result', o);
    return { id: expectString('runs:result', o, 'id'), ...(seed !== undefined ? { seed } : {}) };
  },
  'runs:open': (p) => study.parsePathRequest('runs:open', p),
  'runs:exportLabels': (p) => {
    const o = expectObject('runs:exportLabels', p, ['id', 'path', 'seed']);
    const seed = optionalSeed('runs:exportLabels', o);
    return {
      id: expectString('runs:exportLabels', o, 'id'),
      path: expectString('runs:exportLabels', o, 'path'),
      ...(seed !== undefined ? { seed } : {}),
    };
  },
  'runs:exportBundle': (p) => {
    const o = expectObject('runs:exportBundle', p, ['id', 'path']);
    return {
      id: expectString('runs:exportBundle', o, 'id'),
      path: expectString('runs:exportBundle', o, 'path'),
    };
  },
  'runs:chooseK': (p) => parseChooseKStart(p),
  'runs:chooseKStatus': (p) => ({ id: expectId('runs:chooseKStatus', p) }),
  'runs:chooseKCancel': (p) => ({ id: expectId('runs:chooseKCancel', p) }),
  'studies:start': (p) => study.parseStudyStart(p),
  'studies:status': (p) => ({ id: expectId('studies:status', p) }),
  'studies:cancel': (p) => ({ id: expectId('studies:cancel', p) }),
  'studies:open': (p) => study.parsePathRequest('studies:open', p),
  'studies:report': (p) => study.parseStudyReport(p),
  'files:saveText': (p) => {
    const o = expectObject('files:saveText', p, ['path', 'text']);
    const text = o['text'];
    if (typeof text !== 'string') throw invalid('files:saveText', "'text' must be a string");
    return { path: expectString('files:saveText', o, 'path'), text };
  },
  'files:savePng': (p) => {
    const o = expectObject('files:savePng', p, ['path', 'dataUrl']);
    const dataUrl = expectString('files:savePng', o, 'dataUrl');
    if (!dataUrl.startsWith('data:image/png;base64,')) {
      throw invalid('files:savePng', "'dataUrl' must be a data:image/png;base64 URL");
    }
    return { path: expectString('files:savePng', o, 'path'), dataUrl };
  },
};

const EVENT_NAMES: { readonly [E in EventName]: true } = {
  'menu:open': true,
  'menu:run': true,
  'menu:cancel': true,
  'runs:update': true,
  'menu:openRun': true,
  'studies:update': true,
};

export const CHANNELS = Object.freeze(Object.keys(REQUEST_PARSERS) as Channel[]);
export const EVENTS = Object.freeze(Object.keys(EVENT_NAMES) as EventName[]);

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(REQUEST_PARSERS, name);
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_NAMES, name);
}

/** Validates an untrusted payload for `channel`; throws an `InvalidRequest` error. */
export function parseRequest<C extends Channel>(channel: C, payload: unknown): Request<C> {
  return (REQUEST_PARSERS[channel] as (p: unknown) => Request<C>)(payload);
}
