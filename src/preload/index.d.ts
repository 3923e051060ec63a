/**
 * The shape of `window.api`, exposed by the preload under Electron and absent in a plain
 * browser (the web host). Only src/renderer/src/lib/api.ts may touch it.
 */
import type {
  Channel,
  Envelope,
  EventName,
  EventPayload,
  Request,
  Response,
} from '../shared/contract';

/** One function per channel; each resolves to the Envelope (it never rejects for a handled error). */
export type ChannelApi = {
  readonly [C in Channel]: (request: Request<C>) => Promise<Envelope<Response<C>>>;
};

export interface Api extends ChannelApi {
  /** The file-system path of a dropped File (Electron's webUtils.getPathForFile). */
  pathForFile?(file: File): string;
  /** Listens to a host event; returns the function that stops listening. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

declare global {
  interface Window {
    /** Present only under Electron. */
    readonly api?: Api;
  }
}
