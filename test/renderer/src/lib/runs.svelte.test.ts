/**
 * RunsState's clock (fake timers) and RunFormState's per-dataset fields, without a DOM or a
 * host. The older checks of both classes are in state.test.ts.
 */
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MethodInfo, RunInfo, RunProgress } from '../../../../src/shared/contract';
import {
  K_REQUIRED,
  RunFormState,
  RunsState,
  TICK_MS,
  type FormDataset,
} from '../../../../src/renderer/src/lib/runs.svelte';

const METHODS: MethodInfo[] = [
  { name: 'cgl', title: 'CGL', description: 'consensus graph', deterministic: false, params: [] },
];

function run(patch: Partial<RunInfo> = {}): RunInfo {
  return {
    id: 'r1',
    datasetId: 'd1',
    datasetPath: '/data/x.mat',
    method: 'cgl',
    methodTitle: 'CGL',
    params: {},
    k: null,
    seed: 1,
    protocol: 'paper',
    seeds: 20,
    batch: null,
    preprocess: 'none',
    fill: null,
    status: 'queued',
    progress: null,
    maxIterations: 50,
    queuedAt: 0,
    startedAt: null,
    finishedAt: null,
    error: null,
    metrics: null,
    seconds: null,
    ...patch,
  };
}

const progress = (seedIndex: number, iteration: number): RunProgress => ({
  seedIndex,
  seedCount: 20,
  stage: 'solve',
  iteration,
  objective: 1 / iteration,
  elapsed: 0,
});

describe('RunsState clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps moving while progress updates arrive faster than it ticks', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const s = new RunsState(async () => {
      throw new Error('no host');
    });
    const startedAt = Date.now();
    s.update(run({ status: 'running', startedAt, progress: progress(1, 1) }));
    expect(s.ticking).toBe(true);
    // 4 s of updates every 50 ms (faster than TICK_MS), as the host sends them.
    for (let i = 1; i <= 80; i++) {
      vi.advanceTimersByTime(50);
      s.update(run({ status: 'running', startedAt, progress: progress(1 + (i >> 3), i) }));
    }
    const shown = s.elapsed(s.runs[0]!);
    expect(shown).toBeGreaterThanOrEqual(4 - TICK_MS / 1000);
    expect(shown).toBeLessThanOrEqual(4);
    // Without updates it moves too.
    vi.advanceTimersByTime(1000);
    expect(s.elapsed(s.runs[0]!)).toBeGreaterThan(shown + 0.5);
  });

  it('stops when no run is active and starts again with the next one', () => {
    vi.useFakeTimers();
    const s = new RunsState(async () => {
      throw new Error('no host');
    });
    expect(s.ticking).toBe(false);
    s.update(run({ status: 'queued' }));
    expect(s.ticking).toBe(true);
    s.update(run({ status: 'done', seconds: 2.5, finishedAt: Date.now() }));
    expect(s.ticking).toBe(false);
    expect(s.elapsed(s.runs[0]!)).toBe(2.5);
    s.update(run({ id: 'r2', status: 'running', startedAt: Date.now() }));
    expect(s.ticking).toBe(true);
    vi.advanceTimersByTime(2 * TICK_MS);
    expect(s.elapsed(s.runs[1]!)).toBeCloseTo((2 * TICK_MS) / 1000, 6);
    s.dispose();
  });
});

describe('RunFormState per dataset', () => {
  const dataset = (id: string, classes: number | null): FormDataset => ({
    id,
    summary: {
      labels: classes === null ? null : { classes: Array.from({ length: classes }, (_, i) => i) },
    },
  });

  function form(initial: FormDataset) {
    let selected: FormDataset | null = initial;
    const f = new RunFormState(
      () => METHODS,
      () => selected,
    );
    f.choose('cgl');
    return {
      f,
      select: (d: FormDataset | null) => {
        selected = d;
      },
    };
  }

  it('gives each dataset its own k, seed and seeds, a new one k = its class count', () => {
    const hw = dataset('hw', 10);
    const msrc = dataset('msrc', 7);
    const { f, select } = form(hw);
    expect(f.k).toBe('10');
    f.k = '12';
    f.seed = '5';
    f.protocol = 'paper';
    f.seeds = '3';
    select(msrc);
    flushSync();
    expect([f.k, f.seed, f.seeds]).toEqual(['7', '1', '20']);
    expect(f.request('msrc')).toMatchObject({ k: 7, seed: 1, seeds: 20 });
    f.k = '6';
    select(hw);
    flushSync();
    expect([f.k, f.seed, f.seeds]).toEqual(['12', '5', '3']);
    expect(f.request('hw')).toMatchObject({ datasetId: 'hw', k: 12, seed: 5, seeds: 3 });
    // Each dataset's request carries its own fields, whichever is selected.
    expect(f.request('msrc')).toMatchObject({ datasetId: 'msrc', k: 6, seed: 1 });
  });

  it('says when k differs from the class count', () => {
    const { f } = form(dataset('hw', 10));
    expect(f.kNote).toBeNull();
    f.k = '7';
    flushSync();
    expect(f.kNote).toBe(
      'k = 7 differs from the 10 classes of the labels: the metrics compare 7 clusters with 10 classes',
    );
    f.k = '';
    flushSync();
    // Empty on a labelled dataset: the host uses the class count.
    expect(f.kNote).toBeNull();
    expect(f.valid).toBe(true);
    expect(f.request('hw')).not.toHaveProperty('k');
  });

  it('requires k for a dataset without labels', () => {
    const { f, select } = form(dataset('u', null));
    expect(f.k).toBe('');
    expect(f.errors['k']).toBe(K_REQUIRED);
    expect(f.valid).toBe(false);
    expect(f.request('u')).toBeNull();
    f.k = '4';
    flushSync();
    expect(f.errors['k']).toBeUndefined();
    expect(f.request('u')).toMatchObject({ k: 4 });
    // No dataset selected: nothing to require k for yet.
    select(null);
    flushSync();
    expect(f.errors['k']).toBeUndefined();
  });
});
