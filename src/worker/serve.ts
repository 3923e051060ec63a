/**
 * The worker's message loop, independent of how messages travel (see ./port.ts) and of what a
 * run computes (the executor). One run at a time; `cancel` takes effect at the next step
 * boundary: the executor awaits `hooks.step()` between steps, which yields to the event loop so
 * that a cancel message can arrive, and throws `Cancelled` once it has.
 */
import { splitLargeArrays } from '../shared/worker-protocol';
import type { FromWorker, Progress, RunRequest, ToWorker } from '../shared/worker-protocol';
import { serializeError } from '../shared/contract';

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

export interface RunHooks {
  /** Reports progress (sent to the host). */
  progress(p: Progress): void;
  /** Call between steps: yields to the event loop; throws Cancelled if the run was cancelled. */
  step(): Promise<void>;
}

/** What a run computes: the request in, a plain (structured-clone-safe) result out. */
export type Executor<Req = RunRequest> = (request: Req, hooks: RunHooks) => Promise<unknown>;

export interface Port<Req = RunRequest> {
  post(message: FromWorker): void;
  onMessage(listener: (message: ToWorker<Req>) => void): void;
}

/** Yields to the event loop (macrotask), so pending messages are delivered. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function serve<Req = RunRequest>(port: Port<Req>, execute: Executor<Req>): void {
  let active: { runId: string; cancelled: boolean } | null = null;
  const queue: { runId: string; request: Req }[] = [];

  const runNext = async (): Promise<void> => {
    const next = queue.shift();
    if (!next || active) return;
    const run = { runId: next.runId, cancelled: false };
    active = run;
    const hooks: RunHooks = {
      progress: (progress) => port.post({ type: 'progress', runId: run.runId, progress }),
      step: async () => {
        await tick();
        if (run.cancelled) throw new Cancelled();
      },
    };
    try {
      const result = await execute(next.request, hooks);
      // Large arrays go first, in slices, so that the host reads no single huge message.
      const split = splitLargeArrays(result, run.runId);
      for (const part of split.parts) port.post(part);
      port.post({ type: 'done', runId: run.runId, result: split.value });
    } catch (e) {
      if (e instanceof Cancelled) port.post({ type: 'cancelled', runId: run.runId });
      else port.post({ type: 'failed', runId: run.runId, error: serializeError(e) });
    } finally {
      active = null;
      void runNext();
    }
  };

  port.onMessage((message) => {
    switch (message.type) {
      case 'run':
        queue.push({ runId: message.runId, request: message.request });
        void runNext();
        break;
      case 'cancel': {
        if (active?.runId === message.runId) active.cancelled = true;
        const i = queue.findIndex((q) => q.runId === message.runId);
        if (i >= 0) {
          queue.splice(i, 1);
          port.post({ type: 'cancelled', runId: message.runId });
        }
        break;
      }
    }
  });
  port.post({ type: 'ready' });
}
