/**
 * The one declaration of every request/response channel between the renderer and the
 * backend. Electron's main process registers a handler per channel (src/main/ipc.ts), the
 * preload exposes one function per channel (src/preload/index.ts), and the web host serves
 * each as `POST /api/<channel>` (src/cli/serve.ts). Everything here is structured-clone safe.
 */
import type { DatasetSummary } from '../core/dataset';

export type { DatasetSummary };

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
}

export interface DatasetEntry {
  /** Stable id within the library (derived from the path and options). */
  readonly id: string;
  readonly path: string;
  readonly options: LoadOptions;
  readonly summary: DatasetSummary;
  /** True for the sample dataset shipped with the app. */
  readonly bundled: boolean;
}

export interface Channels {
  'datasets:list': { request: null; response: DatasetEntry[] };
  'datasets:open': { request: { path: string; options?: LoadOptions }; response: DatasetEntry };
  'datasets:remove': { request: { id: string }; response: null };
  /** Asks the host for a file to open: the native dialog under Electron; null when cancelled. */
  'dialog:openDataset': { request: null; response: string | null };
}

export type Channel = keyof Channels;
export type Request<C extends Channel> = Channels[C]['request'];
export type Response<C extends Channel> = Channels[C]['response'];

export const CHANNELS: readonly Channel[] = [
  'datasets:list',
  'datasets:open',
  'datasets:remove',
  'dialog:openDataset',
];

/** An error as it crosses a process boundary; rebuilt on the other side by `reviveError`. */
export interface SerializedError {
  name: string;
  message: string;
  data?: unknown;
}

export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) {
    const data = (e as { data?: unknown }).data;
    return data === undefined
      ? { name: e.name, message: e.message }
      : { name: e.name, message: e.message, data };
  }
  return { name: 'Error', message: String(e) };
}

export function reviveError(s: SerializedError): Error {
  const e = new Error(s.message);
  e.name = s.name;
  if (s.data !== undefined) (e as Error & { data?: unknown }).data = s.data;
  return e;
}

/** The web host's response envelope. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };
