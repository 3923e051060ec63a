/**
 * Messages between a host (Electron main through utilityProcess, or the web host and tests
 * through child_process.fork with serialization 'advanced') and the solver worker. Closed
 * unions, every message carrying its runId; only plain, structured-clone-safe data. Datasets
 * cross as paths plus mapping options, never as arrays.
 */
import type { SolverStep, ParamValue } from '../core/solvers/types';
import type { ProtocolKind } from '../core/protocol';
import type { LoadOptions, SerializedError } from './contract';

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

export type ToWorker =
  | { readonly type: 'run'; readonly runId: string; readonly request: RunRequest }
  | { readonly type: 'cancel'; readonly runId: string };

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
