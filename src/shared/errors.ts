/**
 * Errors across a process boundary (Podman Desktop's envelope, STYLE.md rule 4): serialized as
 * `{name, message, data}` and rebuilt on the other side; every channel answers an `Envelope`.
 * Re-exported by shared/contract.ts, where the channels are declared.
 */
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
