/**
 * Messages between a host (Electron main through utilityProcess, or the web host and tests
 * through child_process.fork with serialization 'advanced') and the solver worker. Closed
 * unions, every message carrying its runId; only plain, structured-clone-safe data. Datasets
 * cross as paths plus mapping options, never as arrays.
 */
import type { SolverStep, ParamValue, Params } from '../core/solvers/types';
import type { ProtocolKind, ProtocolResult } from '../core/protocol';
import type { DatasetSummary } from '../core/dataset';
import type { LoadOptions, Presence, SerializedError } from './contract';

export type { ProtocolKind };

export interface RunRequest {
  readonly datasetPath: string;
  readonly loadOptions: LoadOptions;
  readonly method: string;
  /** Raw parameter values; the worker validates them against the solver's schema. */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Number of clusters; default: the number of classes of the labels. */
  readonly k?: number;
  readonly seed: number;
  /** 'single': one solve and one k-means; 'paper': `seeds` seeds × k-means best of 20. */
  readonly protocol: ProtocolKind;
  readonly seeds?: number;
  /** Folder in which the worker writes the run bundle (run.json + labels.csv) when done. */
  readonly bundleDir?: string;
}

/**
 * What the host sends a worker process. `Req` is what one job asks: a `RunRequest` for the
 * solver worker, a `LoadRequest` for the loader process.
 */
export type ToWorker<Req = RunRequest> =
  | { readonly type: 'run'; readonly runId: string; readonly request: Req }
  | { readonly type: 'cancel'; readonly runId: string };

/** A loader process's job: read a dataset file as the library would open it. */
export interface LoadRequest {
  readonly path: string;
  readonly options: LoadOptions;
}

/**
 * What the loader process answers (the `result` of its 'done' message): only what the
 * library keeps, never the arrays.
 */
export interface LoadResult {
  readonly summary: DatasetSummary;
  readonly presence: Presence;
}

export interface Progress {
  /** Which seed of the protocol (1-based) and how many. */
  readonly seedIndex: number;
  readonly seedCount: number;
  readonly step: SolverStep;
  /** Seconds since the run started, measured by the worker. */
  readonly elapsed: number;
}

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly runId: string; readonly progress: Progress }
  | { readonly type: 'done'; readonly runId: string; readonly result: unknown }
  | { readonly type: 'cancelled'; readonly runId: string }
  | { readonly type: 'failed'; readonly runId: string; readonly error: SerializedError };

/** What the worker answers for a finished run (the `result` of a 'done' message). */
export interface WorkerRunResult {
  readonly method: string;
  readonly params: Params;
  readonly k: number;
  readonly result: ProtocolResult;
  /** Host-measured seconds (as run.json's `timings`). */
  readonly timings: {
    readonly total_s: number;
    readonly load_s: number;
    readonly solve_s: number;
    readonly kmeans_s: number;
  };
  /** Path of the bundle folder, when the request asked for one. */
  readonly bundle: string | null;
  /** What the app draws of the run (small next to the dataset: O(n) numbers). */
  readonly view: RunView;
}

/** The pictures' data, computed in the worker because the arrays live there. */
export interface RunView {
  /** Seconds per stage, in the order stages first appeared: 'load', the solver's, 'kmeans', 'metrics', 'write'. */
  readonly stageSeconds: Readonly<Record<string, number>>;
  /** Objective per iteration of each stage of the first seed ('kmeans': its first replicate). */
  readonly traces: Readonly<Record<string, readonly number[]>>;
  /** PCA of the first seed's embedding (n points). */
  readonly projection: {
    readonly x: Float64Array;
    readonly y: Float64Array;
    readonly explained: readonly [number, number];
    readonly exact: boolean;
    /** Columns of the embedding. */
    readonly dims: number;
  };
  /** (n,) number of views each sample is missing from. */
  readonly missingViews: Uint8Array;
  /** (n,) class codes and the classes' original values, when the dataset has labels. */
  readonly truth: {
    readonly codes: Int32Array;
    readonly classes: readonly (number | string)[];
  } | null;
  /** Classes × clusters, columns in Hungarian-matched order. */
  readonly confusion: { readonly counts: number[][]; readonly clusterOrder: number[] } | null;
  readonly sampleIds: readonly string[] | null;
  /** The solver's diagnostics of the first solve (e.g. a singular-value spectrum). */
  readonly diagnostics: Readonly<Record<string, unknown>>;
  /** labels.csv as the bundle holds it: `sample_id,cluster[,true_label]`. */
  readonly labelsCsv: string;
}
