/**
 * The dataset library's loader process (issue 16, point 5): a file that makes the loader
 * allocate without bound gets it killed and the open failed with the reason, a loader that
 * crashes fails its open, and in both cases the host keeps answering and the next open works
 * on a fresh loader. The real loader (src/worker/loader.ts) answers what an in-process read
 * gives.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DatasetLibrary, describeLoaded } from '../../src/backend/library';
import { forkWorker, type WorkerProcess } from '../../src/backend/worker-host';
import { loadDataset } from '../../src/io/load';
import type { LoadRequest } from '../../src/shared/worker-protocol';
import { REPO } from '../helpers/paths';

const FAKE = join(REPO, 'test/helpers/fake-loader.ts');
const SAMPLE = join(REPO, 'resources/datasets/NGs_Per0.5.mat');
let dir: string;
const file = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-loader-'));
  for (const name of ['hog.mat', 'exit.mat', 'segv.mat', 'good.mat', 'other.mat']) {
    await writeFile(file(name), 'x');
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A library on the fake loader, counting the loader processes it starts. */
function fakeLibrary(memoryLimitBytes?: number): { library: DatasetLibrary; spawned: number[] } {
  const spawned: number[] = [];
  const library = new DatasetLibrary({
    spawnLoader: (): WorkerProcess<LoadRequest> => {
      const w = forkWorker<LoadRequest>(FAKE, ['--import', 'tsx']);
      spawned.push(w.pid ?? -1);
      return w;
    },
    ...(memoryLimitBytes !== undefined ? { memoryLimitBytes } : {}),
  });
  onTestFinished(() => library.dispose());
  return { library, spawned };
}

/** The largest gap between the ticks of a 20 ms timer while `work` runs. */
async function largestGap<T>(
  work: Promise<T>,
): Promise<{ gap: number; settled: PromiseSettledResult<T> }> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 20);
  const [settled] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { gap, settled: settled! };
}

describe('the loader process', () => {
  it('is killed past its memory limit: the open fails with the reason, the host keeps answering', async () => {
    const { library, spawned } = fakeLibrary(256 * 1024 ** 2);
    const { gap, settled } = await largestGap(library.open(file('hog.mat')));
    expect(settled.status).toBe('rejected');
    const error = (settled as PromiseRejectedResult).reason as Error;
    expect(error.name).toBe('MemoryLimit');
    expect(error.message).toBe(
      `${file('hog.mat')}: loading needed more than 256 MiB; the loader was stopped (set MVSTUDIO_MEMORY_LIMIT, e.g. to 16G, to allow more)`,
    );
    // A generous bound: the host's timers ran all along (the load was elsewhere).
    expect(gap).toBeLessThan(1000);
    expect(library.list()).toEqual([]);
    const next = await library.open(file('good.mat'));
    expect(next.summary.n).toBe(6);
    expect(spawned).toHaveLength(2);
  }, 60_000);

  it('that exits or dies of a signal fails the open with the reason; the next open works', async () => {
    const { library, spawned } = fakeLibrary();
    await expect(library.open(file('exit.mat'))).rejects.toThrow(
      `${file('exit.mat')}: the loader stopped: exit code 3`,
    );
    expect((await library.open(file('good.mat'))).summary.n).toBe(6);
    await expect(library.open(file('segv.mat'))).rejects.toThrow(
      `${file('segv.mat')}: the loader stopped: killed by SIGSEGV`,
    );
    const other = await library.open(file('other.mat'));
    expect(other.summary.views.map((v) => v.present)).toEqual([6, 4]);
    expect(library.presence(other.id).bits.map((b) => Array.from(b))).toEqual([
      [0b111111],
      [0b101101],
    ]);
    expect(spawned).toHaveLength(3);
  }, 60_000);

  it('is the default: the real loader answers what an in-process read gives, errors unchanged', async () => {
    const library = new DatasetLibrary();
    onTestFinished(() => library.dispose());
    const entry = await library.open(SAMPLE);
    const expected = describeLoaded(await loadDataset(SAMPLE, {}));
    expect(entry.summary).toEqual(expected.summary);
    expect(library.presence(entry.id)).toEqual(expected.presence);
    const notMat = file('good.mat');
    const direct = await loadDataset(notMat, {}).then(
      () => null,
      (e: unknown) => e as Error,
    );
    const viaLoader = await library.open(notMat).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(direct).not.toBeNull();
    expect({ name: viaLoader?.name, message: viaLoader?.message }).toEqual({
      name: direct?.name,
      message: direct?.message,
    });
  }, 60_000);
});
