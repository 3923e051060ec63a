/**
 * The worker host against real child processes (child_process.fork, 'advanced' serialization)
 * running the real worker loop: progress for every step, cancel at a step boundary, a killed,
 * crashed or hung worker failing its run with the reason, and the next run on a fresh worker;
 * a worker slow to start is not taken for a hung one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  WorkerHost,
  defaultSolverMemoryLimit,
  forkWorker,
  memoryLimitFromEnv,
} from '../../src/backend/worker-host';
import type { WorkerProcess } from '../../src/backend/worker-host';
import type { Progress, RunRequest } from '../../src/shared/worker-protocol';
import { REPO } from '../helpers/paths';

const FAKE = join(REPO, 'test/helpers/fake-worker.ts');
let spawned: WorkerProcess[] = [];
let host: WorkerHost | null = null;

function makeHost(stallMs = 60_000): WorkerHost {
  host = new WorkerHost({
    stallMs,
    spawn: () => {
      const w = forkWorker(FAKE, ['--import', 'tsx']);
      spawned.push(w);
      return w;
    },
  });
  return host;
}

const request = (method: string, steps = 5, ms = 10): RunRequest => ({
  datasetPath: '/dev/null',
  loadOptions: {},
  method,
  params: { steps, ms },
  seed: 1,
  protocol: 'single',
});

afterEach(() => {
  host?.dispose();
  host = null;
  spawned = [];
});

describe('WorkerHost', () => {
  it('relays progress for every step and returns the result with typed arrays intact', async () => {
    const h = makeHost();
    const seen: Progress[] = [];
    const { outcome } = h.run(request('steps', 6), (p) => seen.push(p));
    const o = await outcome;
    expect(o.status).toBe('done');
    expect(seen.map((p) => p.step.iteration)).toEqual([1, 2, 3, 4, 5, 6]);
    const result = (o as { result: { labels: Int32Array } }).result;
    expect(result.labels).toBeInstanceOf(Int32Array);
    expect(Array.from(result.labels)).toEqual([0, 1, 1]);
  });

  it("starts the worker with V8's default options and the caller's own only", async () => {
    const o = await makeHost().run(request('steps', 1), () => {}).outcome;
    expect(o.status).toBe('done');
    const { execArgv } = (o as { result: { execArgv: string[] } }).result;
    // No option of ours: V8's background compiler stays on (docs/performance.md, worker V8 options).
    expect(execArgv).toEqual(['--import', 'tsx']);
  });

  it('cancel stops a long run within 200 ms of the step boundary', async () => {
    const h = makeHost();
    let stepsSeen = 0;
    const { runId, outcome } = h.run(request('steps', 1000, 50), () => stepsSeen++);
    while (stepsSeen < 3) await new Promise((r) => setTimeout(r, 5));
    const t = performance.now();
    h.cancel(runId);
    expect(await outcome).toEqual({ status: 'cancelled' });
    // One step lasts 50 ms: the run must stop at the next boundary, well within 200 ms of it.
    expect(performance.now() - t).toBeLessThan(50 + 200);
  });

  it.each(['SIGKILL from outside', 'crash', 'fail'])(
    'a run whose worker is killed, exits or throws (%s) fails with the reason; the next run succeeds',
    async (how) => {
      const h = makeHost();
      let first: Promise<unknown>;
      if (how === 'SIGKILL from outside') {
        let stepsSeen = 0;
        const run = h.run(request('steps', 1000, 20), () => stepsSeen++);
        while (stepsSeen < 2) await new Promise((r) => setTimeout(r, 5));
        spawned[0]!.kill();
        first = run.outcome;
      } else first = h.run(request(how)).outcome;
      const o = (await first) as { status: string; error: { message: string } };
      expect(o.status).toBe('failed');
      expect(o.error.message).toMatch(
        how === 'SIGKILL from outside'
          ? /the solver worker stopped: killed by SIGKILL/
          : how === 'crash'
            ? /the solver worker stopped: exit code 3/
            : /step 2 went wrong/,
      );
      const next = await h.run(request('steps', 2)).outcome;
      expect(next.status).toBe('done');
      expect(spawned.length).toBe(how === 'fail' ? 1 : 2);
    },
  );

  it('a worker that runs out of memory fails its run with the reason; the next run succeeds', async () => {
    host = new WorkerHost({
      spawn: () => {
        const w = forkWorker(FAKE, ['--import', 'tsx', '--max-old-space-size=64']);
        spawned.push(w);
        return w;
      },
    });
    const o = await host.run(request('oom')).outcome;
    expect(o).toMatchObject({ status: 'failed', error: { name: 'WorkerCrashed' } });
    expect((o as { error: { message: string } }).error.message).toMatch(
      /the solver worker stopped: out of memory \((killed by SIGABRT|exit code \d+)\)/,
    );
    expect((await host.run(request('steps', 2)).outcome).status).toBe('done');
    expect(spawned.length).toBe(2);
  });

  it('a worker past its memory limit is killed and its run failed with the reason; the next run succeeds', async () => {
    host = new WorkerHost({
      memoryLimitBytes: 256 * 1024 ** 2,
      spawn: () => {
        const w = forkWorker(FAKE, ['--import', 'tsx']);
        spawned.push(w);
        return w;
      },
    });
    const o = await host.run(request('hog')).outcome;
    expect(o).toEqual({
      status: 'failed',
      error: {
        name: 'MemoryLimit',
        message:
          'the run needed more than 256 MiB; the solver worker was stopped (set MVSTUDIO_MEMORY_LIMIT, e.g. to 16G, to allow more)',
      },
    });
    expect((await host.run(request('steps', 2)).outcome).status).toBe('done');
    expect(spawned.length).toBe(2);
  });

  it('a worker that stops answering is killed and its run failed; the next run succeeds', async () => {
    const h = makeHost(1500);
    const o = await h.run(request('hang')).outcome;
    expect(o).toMatchObject({ status: 'failed', error: { name: 'WorkerStalled' } });
    expect((await h.run(request('steps', 2)).outcome).status).toBe('done');
    expect(spawned.length).toBe(2);
  });

  it('a slow start-up is not a stall: the stall clock starts at ready', async () => {
    process.env['FAKE_WORKER_START_MS'] = '2500';
    try {
      const h = makeHost(1000);
      const o = await h.run(request('steps', 3)).outcome;
      expect(o.status).toBe('done');
    } finally {
      delete process.env['FAKE_WORKER_START_MS'];
    }
  });

  it('runs queue one at a time, and a queued run can be cancelled before it starts', async () => {
    const h = makeHost();
    const a = h.run(request('steps', 3, 20));
    const b = h.run(request('steps', 3, 20));
    const c = h.run(request('steps', 3, 20));
    h.cancel(b.runId);
    expect((await a.outcome).status).toBe('done');
    expect(await b.outcome).toEqual({ status: 'cancelled' });
    expect((await c.outcome).status).toBe('done');
  });
});

describe('the memory limit from MVSTUDIO_MEMORY_LIMIT', () => {
  it('reads sizes, none and unset, and refuses anything else naming the variable', () => {
    expect(memoryLimitFromEnv({})).toBeUndefined();
    expect(memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: 'none' })).toBeNull();
    expect(memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: '8G' })).toBe(8 * 1024 ** 3);
    expect(memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: '1536M' })).toBe(1536 * 1024 ** 2);
    expect(memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: '2GiB' })).toBe(2 * 1024 ** 3);
    expect(memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: String(2 ** 30) })).toBe(2 ** 30);
    for (const bad of ['8 G', 'lots', '-1G', '1M', '0x10']) {
      expect(() => memoryLimitFromEnv({ MVSTUDIO_MEMORY_LIMIT: bad }), bad).toThrow(
        /MVSTUDIO_MEMORY_LIMIT=.*at least 64M/,
      );
    }
  });

  it('leaves a solver worker at least 1.5 GiB by default', () => {
    expect(defaultSolverMemoryLimit()).toBeGreaterThanOrEqual(1.5 * 1024 ** 3);
  });
});
