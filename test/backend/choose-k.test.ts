/**
 * ChooseKManager on a stub worker host: what it asks the worker, its state through progress
 * and the outcome, cancel, and the refusals before any work.
 */
import { describe, expect, it } from 'vitest';
import { ChooseKManager } from '../../src/backend/choose-k';
import type { DatasetLibrary } from '../../src/backend/library';
import type { RunManager } from '../../src/backend/runs';
import type { RunOutcome, WorkerHost } from '../../src/backend/worker-host';
import type { RunEstimateRequest } from '../../src/shared/contract';
import type { Progress, RunRequest } from '../../src/shared/worker-protocol';

function setup(refusal: string | null = null) {
  const sent: RunRequest[] = [];
  const cancelled: string[] = [];
  const estimates: RunEstimateRequest[] = [];
  let progress: (p: Progress) => void = () => {};
  let finish: (o: RunOutcome) => void = () => {};
  const host = {
    run(request: RunRequest, onProgress: (p: Progress) => void) {
      sent.push(request);
      progress = onProgress;
      return { runId: 'w1', outcome: new Promise<RunOutcome>((r) => (finish = r)) };
    },
    cancel: (id: string) => cancelled.push(id),
  } as unknown as WorkerHost;
  const library = {
    get: (id: string) =>
      id === 'd1'
        ? {
            id: 'd1',
            path: '/data/x.csv',
            files: ['/data/x.csv'],
            options: { labels: 'none' },
            summary: { n: 30 },
          }
        : undefined,
  } as unknown as DatasetLibrary;
  const runs = {
    estimate: (req: RunEstimateRequest) => {
      estimates.push(req);
      return { refusal };
    },
  } as unknown as RunManager;
  const m = new ChooseKManager(host, library, runs);
  return {
    m,
    sent,
    cancelled,
    estimates,
    progress: (p: Progress) => progress(p),
    finish: (o: RunOutcome) => finish(o),
  };
}

const start = { datasetId: 'd1', method: 'bsv', params: { neighbors: 5 }, from: 2, to: 5, seed: 7 };

describe('ChooseKManager', () => {
  it('sends the sweep to the worker and follows it to its result', async () => {
    const t = setup();
    const info = t.m.start(start);
    expect(info).toMatchObject({ id: 'c1', status: 'queued', from: 2, to: 5 });
    expect(t.estimates[0]).toEqual({
      datasetId: 'd1',
      method: 'bsv',
      params: { neighbors: 5 },
      k: 6,
    });
    expect(t.sent[0]).toEqual({
      datasetPath: '/data/x.csv',
      loadOptions: { labels: 'none' },
      method: 'bsv',
      params: { neighbors: 5 },
      seed: 7,
      protocol: 'single',
      chooseK: { from: 2, to: 5 },
    });
    t.progress({
      seedIndex: 2,
      seedCount: 4,
      step: { stage: 'kmeans', iteration: 3, objective: 1, values: { k: 3 } },
      elapsed: 0.5,
    });
    expect(t.m.status('c1')).toMatchObject({
      status: 'running',
      progress: { index: 2, count: 4, k: 3, stage: 'kmeans' },
    });
    t.finish({ status: 'done', result: { silhouetteK: 3 } });
    await Promise.resolve();
    await Promise.resolve();
    expect(t.m.status('c1')).toMatchObject({
      status: 'done',
      result: { silhouetteK: 3 },
      error: null,
    });
  });

  it('cancels a running sweep through the host; unknown ids are NotFound', () => {
    const t = setup();
    t.m.start(start);
    t.m.cancel('c1');
    expect(t.cancelled).toEqual(['w1']);
    expect(() => t.m.status('c9')).toThrow("no choose-k sweep has the id 'c9'");
  });

  it('refuses a bad range, an unknown dataset and a refused estimate before any work', () => {
    const t = setup('needs 9 GiB; the solver worker may use 4 GiB');
    expect(() => t.m.start({ ...start, to: 30 })).toThrow('k can be at most n − 1 = 29');
    expect(() => t.m.start({ ...start, datasetId: 'd2' })).toThrow(
      "no open dataset has the id 'd2'",
    );
    expect(() => t.m.start(start)).toThrow('needs 9 GiB');
    expect(t.sent).toEqual([]);
  });
});
