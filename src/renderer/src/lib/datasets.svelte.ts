/**
 * The renderer's dataset state: the library's entries as the host reports them, the
 * selection, whether a call is in flight, and the last error (shown until dismissed).
 * Components read these fields and call the methods; only this class talks to `api.ts`.
 */
import type { DatasetEntry, LoadOptions, Presence } from '../../../shared/contract';
import { call } from './api';

export class DatasetsState {
  /** Open datasets, in the host's order. Replaced wholesale, never mutated: raw state. */
  entries = $state.raw<DatasetEntry[]>([]);
  selectedId = $state<string | null>(null);
  /** The last failure, until dismissed or the user's next action. */
  error = $state.raw<Error | null>(null);
  /** Number of host calls in flight. */
  pending = $state(0);
  /** The selected dataset's presence (views × samples), once loaded. */
  presence = $state.raw<Presence | null>(null);
  /** Paths opened lately, newest first (kept in localStorage by the app). */
  recent = $state.raw<string[]>([]);

  readonly selected: DatasetEntry | null = $derived(
    this.entries.find((e) => e.id === this.selectedId) ?? null,
  );
  readonly busy: boolean = $derived(this.pending > 0);

  /** Reloads the list from the host. */
  refresh(): Promise<void> {
    return this.#run(async () => {
      this.entries = await call('datasets:list', null);
    });
  }

  select(id: string): void {
    this.selectedId = id;
    void this.#loadPresence(id);
  }

  async #loadPresence(id: string): Promise<void> {
    if (this.presence && this.selectedId === id && this.#presenceId === id) return;
    this.presence = null;
    try {
      const p = await call('datasets:presence', { id });
      if (this.selectedId === id) {
        this.#presenceId = id;
        this.presence = p;
      }
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    }
  }
  #presenceId: string | null = null;

  /** Remembers a path at the head of the recent list (at most 8). */
  remember(path: string): void {
    this.recent = [path, ...this.recent.filter((p) => p !== path)].slice(0, 8);
  }

  /**
   * Opens (or re-selects) a dataset and selects it: one file, or the files of one dataset in
   * view order (one CSV/NPY file per view), with mapping overrides (a labels file among them).
   */
  open(paths: string | readonly string[], options?: LoadOptions): Promise<void> {
    const files = (typeof paths === 'string' ? [paths] : paths)
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const first = files[0];
    if (first === undefined) {
      this.error = new Error('Type the path of a dataset file first.');
      return Promise.resolve();
    }
    this.error = null;
    return this.#run(async () => {
      const withOptions = options && Object.keys(options).length > 0 ? { options } : {};
      const entry = await call(
        'datasets:open',
        files.length === 1 ? { path: first, ...withOptions } : { files, ...withOptions },
      );
      await this.#opened(entry);
    });
  }

  /**
   * Asks the host for files (the native dialog, several selectable: the views of a CSV/NPY
   * dataset) and opens them as one dataset; nothing happens on cancel.
   */
  pick(): Promise<void> {
    this.error = null;
    return this.#run(async () => {
      const files = await call('dialog:openDatasetFiles', null);
      if (files === null || files.length === 0) return;
      const entry = await call(
        'datasets:open',
        files.length === 1 ? { path: files[0]! } : { files },
      );
      await this.#opened(entry);
    });
  }

  async #opened(entry: DatasetEntry): Promise<void> {
    this.entries = await call('datasets:list', null);
    // The recent list holds single paths; a dataset of several files is reopened from the list.
    if (entry.files.length === 1) this.remember(entry.path);
    this.select(entry.id);
  }

  remove(id: string): Promise<void> {
    this.error = null;
    return this.#run(async () => {
      await call('datasets:remove', { id });
      if (this.selectedId === id) this.selectedId = null;
      this.entries = await call('datasets:list', null);
    });
  }

  /** The protocol of the last generated incomplete dataset, as the host stated it. */
  generated = $state<string | null>(null);

  /** Makes an incomplete version of the selected dataset and selects it. */
  generateMissing(completeFraction: number, seed: number): Promise<void> {
    const id = this.selectedId;
    if (id === null) return Promise.resolve();
    this.error = null;
    return this.#run(async () => {
      const { entry, protocol } = await call('datasets:generateMissing', {
        id,
        completeFraction,
        seed,
      });
      this.entries = await call('datasets:list', null);
      this.generated = protocol;
      this.select(entry.id);
    });
  }

  /** What the last `save` wrote, until the next save. */
  saved = $state<string | null>(null);

  /** Saves the selected dataset, gaps and mask included, to a granted .mat or .npz path. */
  save(path: string): Promise<void> {
    const id = this.selectedId;
    if (id === null) return Promise.resolve();
    this.error = null;
    this.saved = null;
    return this.#run(async () => {
      const out = await call('datasets:save', { id, path });
      this.saved = `Saved ${out.path} (${out.format === 'mat' ? 'MAT v5' : 'NPZ'}).`;
    });
  }

  dismissError(): void {
    this.error = null;
  }

  async #run(action: () => Promise<void>): Promise<void> {
    this.pending++;
    try {
      await action();
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    } finally {
      this.pending--;
    }
  }
}

/** The last path segment, for display (the renderer has no node:path). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
