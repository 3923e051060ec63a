/**
 * The backend side of every IPC channel, shared by both hosts: Electron's main process
 * (src/main/ipc.ts, over ipcMain) and the web host (src/cli/serve.ts, over HTTP).
 */
import { parseRequest, serializeError } from '../shared/contract';
import type { Channel, Envelope, Request, Response, SerializedError } from '../shared/contract';
import type { DatasetLibrary } from './library';

/** One function per channel of the contract; a missing channel is a compile error. */
export type Handlers = { [C in Channel]: (req: Request<C>) => Promise<Response<C>> };

/** What differs between hosts. */
export interface HostServices {
  /** Asks the user for a dataset file: the native dialog under Electron; the web host has none and returns null. */
  pickFile(): Promise<string | null>;
}

export function createHandlers(library: DatasetLibrary, host: HostServices): Handlers {
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
    'dialog:openDataset': () => host.pickFile(),
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
