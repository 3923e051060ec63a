/**
 * The choose-k sweeps of a session (shared/choose-k.ts), on the run manager's worker host: a
 * sweep is queued like a run (the solver worker does one job at a time), reports progress per
 * solve, can be cancelled, and keeps its result until it is among the oldest past KEEP. A sweep
 * whose largest solve (k = to + 1) the memory estimate refuses is refused before any work, with
 * `runs:start`'s message.
 */
import { checkKRange, type ChooseKResult } from '../core/choose-k';
import type { RunStatus, SerializedError } from '../shared/contract';
import type { ChooseKInfo, ChooseKStart } from '../shared/choose-k';
import { forgetFinished } from './jobs';
import type { DatasetLibrary } from './library';
import type { RunManager } from './runs';
import type { WorkerHost } from './worker-host';

/** Sweeps whose state is kept (the oldest finished ones are forgotten first). */
export const KEEP = 20;

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

export class ChooseKManager {
  readonly #host: WorkerHost;
  readonly #library: DatasetLibrary;
  readonly #runs: RunManager;
  readonly #jobs = new Map<string, { info: ChooseKInfo; cancel: () => void }>();
  #counter = 0;

  constructor(host: WorkerHost, library: DatasetLibrary, runs: RunManager) {
    this.#host = host;
    this.#library = library;
    this.#runs = runs;
  }

  /** Queues a sweep; throws for an unknown dataset or method, a bad range, or a refusal. */
  start(req: ChooseKStart): ChooseKInfo {
    const dataset = this.#library.get(req.datasetId);
    if (!dataset) throw named('NotFound', `no open dataset has the id '${req.datasetId}'`);
    checkKRange(dataset.summary.n, req.from, req.to);
    // Also checks the method and its parameters, with the validator's messages.
    const { refusal } = this.#runs.estimate({
      datasetId: req.datasetId,
      method: req.method,
      params: req.params,
      k: req.to + 1,
    });
    if (refusal !== null) throw named('TooLarge', refusal);
    const id = `c${++this.#counter}`;
    const info: ChooseKInfo = {
      id,
      datasetId: dataset.id,
      method: req.method,
      from: req.from,
      to: req.to,
      status: 'queued',
      progress: null,
      result: null,
      error: null,
    };
    const handle = this.#host.run(
      {
        datasetPath: dataset.path,
        ...(dataset.files.length > 1 ? { datasetFiles: dataset.files } : {}),
        loadOptions: dataset.options,
        method: req.method,
        params: req.params,
        seed: req.seed,
        protocol: 'single',
        chooseK: { from: req.from, to: req.to },
      },
      (p) =>
        this.#update(id, {
          status: 'running',
          progress: {
            index: p.seedIndex,
            count: p.seedCount,
            k: p.step.values?.['k'] ?? 0,
            stage: p.step.stage,
          },
        }),
    );
    this.#jobs.set(id, { info, cancel: () => this.#host.cancel(handle.runId) });
    forgetFinished(this.#jobs, KEEP);
    void handle.outcome.then((o) => {
      const status: RunStatus = o.status;
      this.#update(id, {
        status,
        result: o.status === 'done' ? (o.result as ChooseKResult) : null,
        error: o.status === 'failed' ? (o.error as SerializedError) : null,
      });
    });
    return info;
  }

  status(id: string): ChooseKInfo {
    const job = this.#jobs.get(id);
    if (!job) throw named('NotFound', `no choose-k sweep has the id '${id}'`);
    return job.info;
  }

  cancel(id: string): void {
    const job = this.#jobs.get(id);
    if (!job) throw named('NotFound', `no choose-k sweep has the id '${id}'`);
    if (job.info.status === 'queued' || job.info.status === 'running') job.cancel();
  }

  #update(id: string, change: Partial<ChooseKInfo>): void {
    const job = this.#jobs.get(id);
    if (job) job.info = { ...job.info, ...change };
  }
}
