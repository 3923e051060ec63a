/**
 * The worker's side of the channel to its host: Electron's utilityProcess gives the child
 * `process.parentPort` (messages arrive as `{ data }` events), child_process.fork gives
 * `process.send` / `process.on('message')`. Both carry the closed unions of
 * src/shared/worker-protocol.ts.
 */
import type { FromWorker, RunRequest, ToWorker } from '../shared/worker-protocol';
import type { Port } from './serve';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

export function processPort<Req = RunRequest>(): Port<Req> {
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (parentPort) {
    return {
      post: (m: FromWorker) => parentPort.postMessage(m),
      onMessage: (listener) => parentPort.on('message', (e) => listener(e.data as ToWorker<Req>)),
    };
  }
  if (typeof process.send === 'function') {
    const send = process.send.bind(process);
    return {
      post: (m: FromWorker) => void send(m),
      onMessage: (listener) => process.on('message', (m) => listener(m as ToWorker<Req>)),
    };
  }
  throw new Error('the worker must be started by a host (utilityProcess or child_process.fork)');
}
