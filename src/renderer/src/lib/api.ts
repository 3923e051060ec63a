/**
 * The renderer's only way to its host. Under Electron it calls `window.api` (the preload);
 * in a browser it POSTs to the web host (`mvstudio serve`) at `/api/<channel>`. Both answer
 * with an Envelope; errors are rebuilt here into Error objects with their name and data.
 */
import { reviveError } from '../../../shared/contract';
import { fromWireJson } from '../../../shared/wire';
import type {
  Channel,
  Envelope,
  EventName,
  EventPayload,
  Request,
  Response,
} from '../../../shared/contract';

/** True under Electron, where the host can show a native file dialog. */
export const hasNativeDialog: boolean = typeof window !== 'undefined' && window.api !== undefined;

/** The path of a dropped file: under Electron only (a browser never reveals it); else null. */
export function pathForFile(file: File): string | null {
  return window.api?.pathForFile?.(file) || null;
}

/** Calls a channel of the contract; rejects with the host's error, rebuilt. */
export async function call<C extends Channel>(
  channel: C,
  request: Request<C>,
): Promise<Response<C>> {
  const envelope = window.api
    ? await (window.api[channel] as (r: Request<C>) => Promise<Envelope<Response<C>>>)(request)
    : await post<C>(channel, request);
  if (envelope.ok) return envelope.value;
  throw reviveError(envelope.error);
}

/**
 * Listens to a host event: over IPC under Electron, else from the web host's Server-Sent
 * Events stream (`GET /api/events`, one EventSource shared by every listener, reconnecting by
 * itself). Returns the unsubscriber.
 */
export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  if (window.api) return window.api.on(event, listener);
  if (typeof EventSource === 'undefined') return () => {};
  source ??= new EventSource('/api/events');
  const wrapped = (e: Event): void => {
    const data = (e as MessageEvent<string>).data;
    listener((data === undefined ? null : JSON.parse(data)) as EventPayload<E>);
  };
  source.addEventListener(event, wrapped);
  return () => source?.removeEventListener(event, wrapped);
}

let source: EventSource | undefined;

async function post<C extends Channel>(
  channel: C,
  request: Request<C>,
): Promise<Envelope<Response<C>>> {
  let res: globalThis.Response;
  try {
    res = await fetch(`/api/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
  } catch (e) {
    throw new Error(
      `${channel}: cannot reach the web host (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
  if (res.status === 401) {
    // The web host wants its per-launch token, which only the printed address carries.
    const e = new Error(
      'This page has no access to the web host: open the address `mvstudio serve` printed, with its token (http://127.0.0.1:<port>/?token=…).',
    );
    e.name = 'Unauthorized';
    throw e;
  }
  const text = await res.text();
  let body: unknown;
  try {
    // Typed arrays come as tagged base64 (shared/wire.ts).
    body = fromWireJson(text);
  } catch {
    throw new Error(`${channel}: HTTP ${res.status} ${text.slice(0, 200)}`);
  }
  if (!isEnvelope(body)) throw new Error(`${channel}: HTTP ${res.status}, unexpected reply`);
  return body as Envelope<Response<C>>;
}

function isEnvelope(x: unknown): x is Envelope<unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as { ok?: unknown; error?: { name?: unknown; message?: unknown } };
  if (o.ok === true) return 'value' in o;
  return (
    o.ok === false &&
    typeof o.error === 'object' &&
    o.error !== null &&
    typeof o.error.name === 'string' &&
    typeof o.error.message === 'string'
  );
}
