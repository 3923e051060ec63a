/**
 * The renderer's dataset state: the library's entries as the host reports them, the
 * selection, whether a call is in flight, and the last error (shown until dismissed).
 * Components read these fields and call the methods; only this class talks to `api.ts`.
 */
import type { DatasetEntry } from '../../../shared/contract';
import { call } from './api';

export class DatasetsState {
  /** Open datasets, in the host's order. Replaced wholesale, never mutated: raw state. */
  entries = $state.raw<DatasetEntry[]>([]);
  selectedId = $state<string | null>(null);
  /** The last failure, until dismissed or the user's next action. */
  error = $state.raw<Error | null>(null);
  /** Number of host calls in flight. */
  pending = $state(0);

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
  }

  /** Opens (or re-selects) the dataset at `path` and selects it. */
  open(path: string): Promise<void> {
    const trimmed = path.trim();
    if (trimmed === '') {
      this.error = new Error('Type the path of a dataset file first.');
      return Promise.resolve();
    }
    this.error = null;
    return this.#run(async () => {
      const entry = await call('datasets:open', { path: trimmed });
      this.entries = await call('datasets:list', null);
      this.selectedId = entry.id;
    });
  }

  /** Asks the host for a file (native dialog) and opens it; nothing happens on cancel. */
  pick(): Promise<void> {
    this.error = null;
    return this.#run(async () => {
      const path = await call('dialog:openDataset', null);
      if (path === null) return;
      const entry = await call('datasets:open', { path });
      this.entries = await call('datasets:list', null);
      this.selectedId = entry.id;
    });
  }

  remove(id: string): Promise<void> {
    this.error = null;
    return this.#run(async () => {
      await call('datasets:remove', { id });
      if (this.selectedId === id) this.selectedId = null;
      this.entries = await call('datasets:list', null);
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
