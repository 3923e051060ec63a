/**
 * Messages between a host (Electron main through utilityProcess, or the web host and tests
 * through child_process.fork with serialization 'advanced') and the solver worker. Closed
 * unions, every message carrying its runId; only plain, structured-clone-safe data. Datasets
 * cross as paths plus mapping options, never as arrays.
 */
import type { SolverCharts, SolverStep, ParamValue, Params } from '../core/solvers/types';
import type { ProtocolKind, ProtocolResult } from '../core/protocol';
import type { DatasetSummary } from '../core/dataset';
import type { Preprocess } from '../core/views/preprocess';
import type { CodeArray, LoadOptions, Presence, SerializedError } from './contract';
import { TYPED, typedName, type TypedName } from './wire';

export type { ProtocolKind };

export interface RunRequest {
  /** The dataset's first file (what a bundle and a message name). */
  readonly datasetPath: string;
  /** Every file of the dataset in view order, when it has more than `datasetPath`. */
  readonly datasetFiles?: readonly string[];
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
  /** The shared preprocessing the protocol applies to the views first (default 'none'). */
  readonly preprocess?: Preprocess;
  /** Folder in which the worker writes the run bundle (run.json + labels.csv) when done. */
  readonly bundleDir?: string;
  /**
   * Set: a choose-k sweep over from..to instead of a run (worker/choose-k.ts; `k`, `protocol`
   * and `seeds` unused); progress counts its solves as seeds, the result is a ChooseKResult.
   */
  readonly chooseK?: { readonly from: number; readonly to: number };
  /**
   * Set: a study instead of a run (worker/study.ts): the spec (JSON, paths absolute) run into
   * the folder `dir`; progress counts cells as seeds (the ETA in `step.values.eta`).
   */
  readonly study?: { readonly dir: string; readonly spec: unknown };
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
  /** Every file of the dataset in view order, when it has more than `path`. */
  readonly files?: readonly string[];
  readonly options: LoadOptions;
  /** Also write the dataset read to this path (.mat or .npz, io/save.ts): `datasets:save`. */
  readonly save?: string;
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

/**
 * A slice of a large typed array of a run's result, sent before its 'done' (see
 * `splitLargeArrays`): `bytes` go at `offset` of array `id`, which has `total` bytes and the
 * type `kind`; the 'done' result holds `{ $part: id }` in its place. Large arrays cross in
 * slices so that no single message takes the host long to read.
 */
export interface ResultPart {
  readonly type: 'part';
  readonly runId: string;
  readonly id: number;
  readonly kind: PartKind;
  readonly total: number;
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/** The typed arrays a result may hold in parts: those the web host's wire format carries. */
export type PartKind = TypedName;

/** Typed arrays larger than this cross in slices of this size. */
export const PART_BYTES = 1 << 20;

/**
 * The worker's side: `value` with every typed array over PART_BYTES replaced by
 * `{ $part: id }`, and the parts that carry them (to be posted before the value).
 */
export function splitLargeArrays(
  value: unknown,
  runId: string,
): { value: unknown; parts: ResultPart[] } {
  const parts: ResultPart[] = [];
  let next = 0;
  const walk = (v: unknown): unknown => {
    if (ArrayBuffer.isView(v)) {
      const kind = typedName(v);
      if (kind === null || v.byteLength <= PART_BYTES) return v;
      const id = next++;
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      for (let offset = 0; offset < bytes.length; offset += PART_BYTES) {
        const slice = bytes.slice(offset, offset + PART_BYTES);
        parts.push({ type: 'part', runId, id, kind, total: bytes.length, offset, bytes: slice });
      }
      return { $part: id };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { value: walk(value), parts };
}

/** The host's side: gathers parts as they arrive, then puts them back into the result. */
export class PartAssembler {
  readonly #arrays = new Map<number, { kind: PartKind; buffer: ArrayBuffer }>();

  add(p: ResultPart): void {
    let a = this.#arrays.get(p.id);
    if (!a) {
      a = { kind: p.kind, buffer: new ArrayBuffer(p.total) };
      this.#arrays.set(p.id, a);
    }
    new Uint8Array(a.buffer).set(p.bytes, p.offset);
  }

  /** `value` with every `{ $part: id }` replaced by its typed array. */
  attach(value: unknown): unknown {
    const walk = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(walk);
      if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return v;
      const keys = Object.keys(v);
      const id = (v as { $part?: unknown }).$part;
      if (keys.length === 1 && typeof id === 'number') {
        const a = this.#arrays.get(id);
        if (!a) throw new Error(`the worker's result lacks part ${id}`);
        const Ctor = TYPED[a.kind];
        return new Ctor(a.buffer, 0, a.buffer.byteLength / Ctor.BYTES_PER_ELEMENT);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    };
    return walk(value);
  }
}

export type FromWorker =
  | { readonly type: 'ready' }
  | ResultPart
  | { readonly type: 'progress'; readonly runId: string; readonly progress: Progress }
  | { readonly type: 'done'; readonly runId: string; readonly result: unknown }
  | { readonly type: 'cancelled'; readonly runId: string }
  | { readonly type: 'failed'; readonly runId: string; readonly error: SerializedError };

/** What the worker answers for a finished run (the `result` of a 'done' message). */
export interface WorkerRunResult {
  readonly method: string;
  readonly params: Params;
  readonly k: number;
  /** The protocol's result without its per-seed labels (they cross compact, in `view`). */
  readonly result: Omit<ProtocolResult, 'seedLabels'>;
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
  /** PCA of the first seed's embedding (n points, single precision: it is only drawn). */
  readonly projection: {
    readonly x: Float32Array;
    readonly y: Float32Array;
    readonly explained: readonly [number, number];
    readonly exact: boolean;
    /** Columns of the embedding. */
    readonly dims: number;
  };
  /** (n,) number of views each sample is missing from. */
  readonly missingViews: Uint8Array;
  /** (n,) class codes and the classes' original values, when the dataset has labels. */
  readonly truth: {
    readonly codes: CodeArray;
    readonly classes: readonly (number | string)[];
  } | null;
  /** Classes × clusters, columns in Hungarian-matched order. */
  readonly confusion: { readonly counts: number[][]; readonly clusterOrder: number[] } | null;
  readonly sampleIds: readonly string[] | null;
  /** The first solve's typed chart data (`SolverOutput.charts`; empty when it offers none). */
  readonly charts: SolverCharts;
  /** The solver's diagnostics of the first solve, kept for the bundle (never drawn). */
  readonly diagnostics: Readonly<Record<string, unknown>>;
  /**
   * Seeds 2..N of a paper-protocol run, in order: what their charts and labels need beyond
   * the first seed's (absent or empty for one seed).
   */
  readonly otherSeeds?: readonly SeedView[];
}

/** What one seed's charts and labels need that is not the first seed's. */
export interface SeedView {
  /** (n,) 0-based cluster of each sample. */
  readonly clusters: CodeArray;
  /** Classes × clusters of this seed's labels (as RunView.confusion); null without labels. */
  readonly confusion: { readonly counts: number[][]; readonly clusterOrder: number[] } | null;
  /** Objective per iteration of each stage of this seed. */
  readonly traces: Readonly<Record<string, readonly number[]>>;
  /** This seed's own solve; null when one solve serves every seed (a deterministic method). */
  readonly solve: SolveView | null;
}

/** What one solve adds to the charts: its objective, the PCA of its embedding, its charts. */
export interface SolveView {
  readonly objective: readonly number[];
  readonly projection: RunView['projection'];
  readonly charts: SolverCharts;
}
