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
  /** For CSV/NPY views (one file per view): a file with one label per sample. */
  labelsFile?: string;
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

/** Events the host pushes to the renderer (Electron only: the web host has none). */
export interface Events {
  /** The user chose File > Open… in the application menu. */
  'menu:open': null;
}

export type EventName = keyof Events;
export type EventPayload<E extends EventName> = Events[E];

/**
 * The run-time check of each channel's request: returns the request typed, or throws an
 * `InvalidRequest` error naming the channel and the field. The mapped type makes a channel
 * without a check a compile error, so `CHANNELS` below is complete by construction.
 */
const REQUEST_PARSERS: { readonly [C in Channel]: (payload: unknown) => Request<C> } = {
  'datasets:list': (p) => expectNull('datasets:list', p),
  'datasets:open': (p) => {
    const o = expectObject('datasets:open', p, ['path', 'options']);
    const path = o['path'];
    if (typeof path !== 'string' || path.trim() === '') {
      throw invalid('datasets:open', "'path' must be a non-empty string");
    }
    const options = o['options'];
    return options === undefined ? { path } : { path, options: parseLoadOptions(options) };
  },
  'datasets:remove': (p) => {
    const o = expectObject('datasets:remove', p, ['id']);
    const id = o['id'];
    if (typeof id !== 'string' || id === '') {
      throw invalid('datasets:remove', "'id' must be a non-empty string");
    }
    return { id };
  },
  'dialog:openDataset': (p) => expectNull('dialog:openDataset', p),
};

const EVENT_NAMES: { readonly [E in EventName]: true } = { 'menu:open': true };

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

/** Validates untrusted load options: known keys only, each of the right type. */
export function parseLoadOptions(value: unknown): LoadOptions {
  const o = expectObject('options', value, [
    'mask',
    'fold',
    'views',
    'labels',
    'orientation',
    'labelsFile',
  ]);
  const out: LoadOptions = {};
  for (const key of ['mask', 'views', 'labels', 'labelsFile'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') {
      throw invalid('options', `'${key}' must be a non-empty string`);
    }
    out[key] = v;
  }
  const fold = o['fold'];
  if (fold !== undefined) {
    if (typeof fold !== 'number' || !Number.isInteger(fold) || fold < 1) {
      throw invalid('options', "'fold' must be a positive integer");
    }
    out.fold = fold;
  }
  const orientation = o['orientation'];
  if (orientation !== undefined) {
    if (orientation !== 'n x d' && orientation !== 'd x n') {
      throw invalid('options', `'orientation' must be "n x d" or "d x n"`);
    }
    out.orientation = orientation;
  }
  return out;
}

function invalid(where: string, what: string): Error {
  const e = new Error(`${where}: ${what}`);
  e.name = 'InvalidRequest';
  return e;
}

function expectNull(channel: string, p: unknown): null {
  if (p !== null && p !== undefined) throw invalid(channel, 'expects no payload (null)');
  return null;
}

function expectObject(
  where: string,
  p: unknown,
  allowed: readonly string[],
): Readonly<Record<string, unknown>> {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    throw invalid(where, 'expects an object');
  }
  const o = p as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw invalid(where, `unknown field '${key}'`);
  }
  return o;
}

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

/** What every channel answers, over IPC and over HTTP: the value, or the error serialized. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };
