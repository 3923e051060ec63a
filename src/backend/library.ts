/**
 * The dataset library: the datasets the user has opened in this session, each described by
 * its summary. Host-agnostic (no electron): the Electron main process and the web host
 * (`mvstudio serve`) each hold one.
 *
 * Only summaries are kept. The arrays themselves are re-read from the path by whoever needs
 * them (the solver worker), so the library stays small whatever the datasets' size.
 *
 * Files are read in a loader process (src/worker/loader.ts, behind a WorkerHost), not in the
 * host: a file that crashes the reader or makes it allocate without bound kills the loader,
 * never the app. The loader answers the summary and the presence bitsets only; past
 * `memoryLimitBytes` of resident memory it is killed and the open fails with that reason. A
 * crashed or killed loader is replaced at the next open.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from '../core/dataset';
import type { MultiViewDataset } from '../core/dataset';
import { presenceBits, reviveError } from '../shared/contract';
import type { DatasetEntry, LoadOptions, Presence } from '../shared/contract';
import type { LoadRequest, LoadResult } from '../shared/worker-protocol';
import { saveDataset, saveFormatOf, type SaveFormat } from '../io/save';
import {
  DEFAULT_MEMORY_LIMIT_BYTES,
  WorkerHost,
  forkWorker,
  memoryLimitFromEnv,
  type WorkerProcess,
} from './worker-host';

/**
 * Reads a dataset in this process (tests inject a fake): `path` is the first file, `files`
 * every file in view order (`[path]` for a one-file dataset).
 */
export type Loader = (
  path: string,
  options: LoadOptions,
  files: readonly string[],
) => Promise<MultiViewDataset>;

export interface LibraryOptions {
  /**
   * Reads a dataset in this process instead of the loader process. Tests inject a fake; no
   * host should (a bad file would take it down).
   */
  load?: Loader;
  /**
   * Starts a loader process (src/worker/loader.ts); default: that file forked under tsx,
   * found beside this module (the sources). Electron passes a utilityProcess, the bundled CLI
   * its own path.
   */
  spawnLoader?: () => WorkerProcess<LoadRequest>;
  /** Resident memory past which the loader is stopped (default MVSTUDIO_MEMORY_LIMIT, else 1.5 GiB). */
  memoryLimitBytes?: number;
  /** Paths of the datasets shipped with the app, opened at start and marked `bundled`. */
  bundled?: readonly string[];
}

/** A bundled dataset that could not be opened at start (the app still starts). */
export interface StartupFailure {
  readonly path: string;
  readonly error: Error;
}

/** The loader entry in the sources, next to this module's folder. */
const SOURCE_LOADER = fileURLToPath(new URL('../worker/loader.ts', import.meta.url));

/** What the library keeps of a dataset read in this process (the loader answers the same). */
export function describeLoaded(dataset: MultiViewDataset): LoadResult {
  return {
    summary: summarize(dataset),
    presence: {
      n: dataset.n,
      views: dataset.views.map((v) => v.name),
      bits: dataset.views.map((v) => presenceBits(dataset.n, v.present)),
    },
  };
}

export class DatasetLibrary {
  /** Reads a dataset; with `save`, also writes it there (datasets:save), in the same process. */
  readonly #load: (
    files: readonly string[],
    options: LoadOptions,
    save?: string,
  ) => Promise<LoadResult>;
  readonly #loader: WorkerHost<LoadRequest> | null = null;
  readonly #entries = new Map<string, DatasetEntry>();
  /** Which samples each view holds, per entry (small: at most n indices per view). */
  readonly #presence = new Map<string, Presence>();
  /** Loads in flight, so that two concurrent opens of the same file read it once. */
  readonly #pending = new Map<string, Promise<DatasetEntry>>();
  readonly #startupFailures: StartupFailure[] = [];
  /** Settles once every bundled dataset has been opened or has failed to open. */
  readonly ready: Promise<void>;

  constructor(options: LibraryOptions = {}) {
    const inProcess = options.load;
    if (inProcess) {
      this.#load = async (files, o, save) => {
        const dataset = await inProcess(files[0]!, o, files);
        if (save !== undefined) await saveDataset(dataset, save);
        return describeLoaded(dataset);
      };
    } else {
      const loader = new WorkerHost<LoadRequest>({
        spawn: options.spawnLoader ?? spawnSourceLoader,
        stallMs: null,
        memoryLimitBytes:
          options.memoryLimitBytes ?? memoryLimitFromEnv() ?? DEFAULT_MEMORY_LIMIT_BYTES,
        processName: 'loader',
        activity: 'loading',
      });
      this.#loader = loader;
      this.#load = (files, o, save) => loadInProcess(loader, files, o, save);
    }
    const bundled = options.bundled ?? [];
    // Sequential, so that the list order is the order given.
    this.ready = bundled.reduce<Promise<void>>(
      (previous, path) =>
        previous.then(() =>
          this.#open([path], {}, true).then(
            () => undefined,
            (error: unknown) => {
              this.#startupFailures.push({ path, error: asError(error) });
            },
          ),
        ),
      Promise.resolve(),
    );
  }

  /** Bundled datasets that failed to open at start; empty once `ready` settled without trouble. */
  get startupFailures(): readonly StartupFailure[] {
    return this.#startupFailures;
  }

  /** Every open dataset, in the order opened (bundled ones first). */
  list(): DatasetEntry[] {
    return [...this.#entries.values()];
  }

  get(id: string): DatasetEntry | undefined {
    return this.#entries.get(id);
  }

  /**
   * Opens a dataset, or returns the entry already open for the same files and options. `paths`
   * is one file, or the files of one dataset in view order (one CSV/NPY file per view).
   * Loading errors propagate unchanged (the loaders' messages name the file and the problem).
   */
  open(paths: string | readonly string[], options: LoadOptions = {}): Promise<DatasetEntry> {
    return this.#open(typeof paths === 'string' ? [paths] : paths, options, false);
  }

  /**
   * Writes an open dataset, as it was read (overrides and mask applied), to `target` (.mat or
   * .npz, io/save.ts); the file is read again in the loader, which writes it.
   */
  async save(id: string, target: string): Promise<{ path: string; format: SaveFormat }> {
    const entry = this.#entries.get(id);
    if (!entry) {
      const e = new Error(`no open dataset has the id '${id}'`);
      e.name = 'NotFound';
      throw e;
    }
    const format = saveFormatOf(target);
    await this.#load(entry.files, entry.options, target);
    return { path: target, format };
  }

  /** Stops the loader process (opens after this fail). */
  dispose(): void {
    this.#loader?.dispose();
  }

  /** Forgets a dataset; returns false when no dataset has that id. */
  remove(id: string): boolean {
    this.#presence.delete(id);
    return this.#entries.delete(id);
  }

  /** Which samples each view of an open dataset holds (the presence chart's data). */
  presence(id: string): Presence {
    const p = this.#presence.get(id);
    if (!p) {
      const e = new Error(`no open dataset has the id '${id}'`);
      e.name = 'NotFound';
      throw e;
    }
    return p;
  }

  #open(paths: readonly string[], options: LoadOptions, bundled: boolean): Promise<DatasetEntry> {
    if (paths.length === 0) return Promise.reject(new Error('a dataset needs at least one file'));
    const resolved = paths.map((p) => resolve(p));
    const canonical = canonicalOptions(options);
    const id = datasetId(resolved, canonical);
    const cached = this.#entries.get(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.#pending.get(id);
    if (!pending) {
      pending = this.#read(id, resolved, canonical, bundled).finally(() => {
        this.#pending.delete(id);
      });
      this.#pending.set(id, pending);
    }
    return pending;
  }

  async #read(
    id: string,
    files: readonly string[],
    options: LoadOptions,
    bundled: boolean,
  ): Promise<DatasetEntry> {
    for (const f of files) await assertExists(f);
    const { summary, presence } = await this.#load(files, options);
    const entry: DatasetEntry = { id, path: files[0]!, files, options, summary, bundled };
    this.#presence.set(id, presence);
    this.#entries.set(id, entry);
    return entry;
  }
}

function spawnSourceLoader(): WorkerProcess<LoadRequest> {
  if (!existsSync(SOURCE_LOADER)) {
    throw new Error(`the loader entry ${SOURCE_LOADER} is missing: the host must pass spawnLoader`);
  }
  return forkWorker<LoadRequest>(SOURCE_LOADER, ['--import', 'tsx']);
}

/**
 * One open through the loader process. The loader's own errors (DataError, MatReadError, ...)
 * come back as they were thrown; a loader that crashed or was stopped is named with the file.
 */
async function loadInProcess(
  loader: WorkerHost<LoadRequest>,
  files: readonly string[],
  options: LoadOptions,
  save?: string,
): Promise<LoadResult> {
  const path = files[0]!;
  const request: LoadRequest = {
    path,
    options,
    ...(files.length > 1 ? { files } : {}),
    ...(save !== undefined ? { save } : {}),
  };
  const outcome = await loader.run(request).outcome;
  switch (outcome.status) {
    case 'done':
      return outcome.result as LoadResult;
    case 'cancelled':
      throw new Error(`${path}: loading was cancelled`);
    case 'failed': {
      const { error } = outcome;
      const own = error.name === 'WorkerCrashed' || error.name === 'MemoryLimit';
      throw reviveError(own ? { ...error, message: `${path}: ${error.message}` } : error);
    }
  }
}

/**
 * The id of a dataset's files opened with given options: the same files (in the same order)
 * and options give the same id; a one-file dataset keeps the id of its path alone.
 */
export function datasetId(resolved: string | readonly string[], options: LoadOptions): string {
  const files = typeof resolved === 'string' ? [resolved] : resolved;
  const key = JSON.stringify([files.length === 1 ? files[0] : files, canonicalOptions(options)]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** Options with keys in a fixed order and absent keys dropped, so equal options hash equal. */
function canonicalOptions(options: LoadOptions): LoadOptions {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(options).sort()) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as LoadOptions;
}

async function assertExists(path: string): Promise<void> {
  try {
    await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const err = new Error(`${path}: no such file`);
      err.name = 'NotFound';
      throw err;
    }
    throw e;
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
