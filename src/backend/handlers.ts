/**
 * The backend side of every IPC channel, shared by both hosts: Electron's main process
 * (src/main/ipc.ts, over ipcMain) and the web host (src/cli/serve.ts, over HTTP).
 */
import { parseRequest, serializeError } from '../shared/contract';
import type { Channel, Envelope, Request, Response, SerializedError } from '../shared/contract';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { writeFileAtomic } from '../io/atomic';
import { describeProtocol, writeMaskFile } from './missing';
import type { DatasetLibrary } from './library';
import { methodInfos, type RunManager } from './runs';

/** One function per channel of the contract; a missing channel is a compile error. */
export type Handlers = { [C in Channel]: (req: Request<C>) => Promise<Response<C>> };

/** What differs between hosts. */
export interface HostServices {
  /** Asks the user for a dataset file: the native dialog under Electron; the web host has none and returns null. */
  pickFile(): Promise<string | null>;
  /** Asks the user where to save a file: the native dialog under Electron; null in the web host. */
  pickSaveFile?(defaultName: string): Promise<string | null>;
  /** Where generated files (missing-view masks) go; default a folder in the OS temp dir. */
  dataDir?: string;
}

/**
 * The handlers of both hosts. Without a `runs` manager (a host without a worker) the run
 * channels answer an error saying so.
 */
export function createHandlers(
  library: DatasetLibrary,
  host: HostServices,
  runs?: RunManager,
): Handlers {
  const manager = (): RunManager => {
    if (runs) return runs;
    const e = new Error('this host runs no solver worker');
    e.name = 'Unavailable';
    throw e;
  };
  return {
    'datasets:list': async () => {
      await library.ready;
      return library.list();
    },
    'datasets:open': async ({ path, options }) => library.open(path, options ?? {}),
    'datasets:remove': async ({ id }) => {
      library.remove(id);
      return null;
    },
    'datasets:presence': async ({ id }) => library.presence(id),
    'datasets:generateMissing': async ({ id, completeFraction, seed }) => {
      const entry = library.get(id);
      if (!entry) {
        const e = new Error(`no open dataset has the id '${id}'`);
        e.name = 'NotFound';
        throw e;
      }
      const presence = library.presence(id);
      const dir = join(host.dataDir ?? join(tmpdir(), 'mvstudio-data'), 'masks');
      const stem = basename(entry.path, extname(entry.path));
      const mask = await writeMaskFile(dir, stem, presence, completeFraction, seed);
      const opened = await library.open(entry.path, { ...entry.options, mask, fold: 1 });
      return {
        entry: opened,
        protocol: describeProtocol(completeFraction, presence.views.length),
      };
    },
    'dialog:openDataset': () => host.pickFile(),
    'dialog:saveFile': async ({ defaultName }) =>
      host.pickSaveFile ? host.pickSaveFile(defaultName) : null,
    'methods:list': async () => methodInfos(),
    'runs:start': async (req) => manager().start(req),
    'runs:list': async () => (runs ? runs.list() : []),
    'runs:cancel': async ({ id }) => {
      manager().cancel(id);
      return null;
    },
    'runs:result': async ({ id }) => manager().result(id),
    'runs:exportLabels': ({ id, path }) => manager().exportLabels(id, path),
    'runs:exportBundle': ({ id, path }) => manager().exportBundle(id, path),
    'files:saveText': async ({ path, text }) => {
      await writeFileAtomic(path, text);
      return { path };
    },
    'files:savePng': async ({ path, dataUrl }) => {
      const bytes = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
      await writeFileAtomic(path, bytes);
      return { path };
    },
  };
}

/**
 * Validates an untrusted payload for `channel`, runs its handler and wraps the outcome in an
 * Envelope. Never throws: every failure (bad payload, loading error, bug) becomes
 * `{ ok: false, error }`, rebuilt into an Error on the renderer side.
 */
export async function invoke<C extends Channel>(
  handlers: Handlers,
  channel: C,
  payload: unknown,
): Promise<Envelope<Response<C>>> {
  try {
    const request = parseRequest(channel, payload);
    const handler = handlers[channel] as (req: Request<C>) => Promise<Response<C>>;
    return { ok: true, value: await handler(request) };
  } catch (e) {
    return { ok: false, error: crossable(serializeError(e)) };
  }
}

/** Drops an error's `data` when it would not survive structured clone or JSON. */
function crossable(error: SerializedError): SerializedError {
  if (error.data === undefined) return error;
  try {
    JSON.stringify(structuredClone(error.data));
    return error;
  } catch {
    return { name: error.name, message: error.message };
  }
}
