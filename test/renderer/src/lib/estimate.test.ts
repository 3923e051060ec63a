/**
 * The run form's estimate as the host answers it (`runs:estimate`): shown as given, the
 * refusal disabling Run with its reason; and the debounced state class that asks the host.
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import RunForm from '../../../../src/renderer/src/components/RunForm.svelte';
import { fmtTimeRange, type Estimate } from '../../../../src/renderer/src/lib/estimate';
import { MemoryEstimateState } from '../../../../src/renderer/src/lib/estimate.svelte';
import { RunFormState } from '../../../../src/renderer/src/lib/runs.svelte';
import type {
  DatasetEntry,
  MethodInfo,
  RunEstimate,
  RunEstimateRequest,
} from '../../../../src/shared/contract';

/** A method the renderer knows nothing about but its name: no facts come from it. */
const METHODS: MethodInfo[] = [
  { name: 'm', title: 'M', description: 'a method', deterministic: true, params: [] },
];
const dataset = {
  id: 'd1',
  path: '/x.mat',
  options: {},
  bundled: false,
  summary: { labels: { classes: [1, 2] }, views: [], n: 10 },
} as unknown as DatasetEntry;

/** The DOM properties these tests read (the test tsconfig has no DOM lib). */
type Button = { disabled: boolean; getAttribute(name: string): string | null };

function answer(patch: Partial<RunEstimate> = {}): RunEstimate {
  return {
    dataBytes: 2048,
    methodBytes: 3 * 1024 ** 2,
    quadratic: false,
    note: 'some arrays the host named',
    warning: null,
    refusal: null,
    ...patch,
  };
}

function show(memory: RunEstimate | null): void {
  const form = new RunFormState(() => METHODS);
  form.choose('m');
  const estimate: Estimate = { memory };
  render(RunForm, { form, methods: METHODS, dataset, estimate, onStart: () => {} });
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the estimate in the run form', () => {
  it('shows the host’s bytes and note, and no warning when it gives none', () => {
    show(answer());
    const text = screen.getByTestId('estimate').textContent ?? '';
    expect(text).toContain('some arrays the host named');
    expect(screen.queryByTestId('memory-warning')).toBeNull();
    expect(screen.queryByTestId('memory-refusal')).toBeNull();
    expect((screen.getByTestId('start-run') as unknown as Button).disabled).toBe(false);
  });

  it('shows the host’s warning as given, Run still enabled', () => {
    show(answer({ quadratic: true, warning: 'a warning written by the host' }));
    expect(screen.getByTestId('memory-warning').textContent).toBe('a warning written by the host');
    expect((screen.getByTestId('start-run') as unknown as Button).disabled).toBe(false);
  });

  it('shows the host’s refusal and disables Run with it as the reason', () => {
    show(answer({ refusal: 'a refusal written by the host' }));
    expect(screen.getByTestId('memory-refusal').textContent).toBe('a refusal written by the host');
    const run = screen.getByTestId('start-run') as unknown as Button;
    expect(run.disabled).toBe(true);
    expect(run.getAttribute('title')).toBe('a refusal written by the host');
  });

  it('without an answer yet, shows the time only', () => {
    show(null);
    expect(screen.getByTestId('estimate').textContent).not.toContain('Memory');
    expect((screen.getByTestId('start-run') as unknown as Button).disabled).toBe(false);
  });
});

describe('MemoryEstimateState', () => {
  const req = (method: string): RunEstimateRequest => ({ datasetId: 'd1', method, params: {} });

  it('asks once the form stops changing, with the latest run, and keeps that answer', async () => {
    vi.useFakeTimers();
    const asked: RunEstimateRequest[] = [];
    const s = new MemoryEstimateState(async (_channel, r) => {
      asked.push(r);
      return answer({ note: r.method });
    }, 250);
    s.ask(req('a'));
    await vi.advanceTimersByTimeAsync(100);
    s.ask(req('b'));
    s.ask(req('b'));
    await vi.advanceTimersByTimeAsync(249);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual([req('b')]);
    expect(s.answer?.note).toBe('b');
    // No run to estimate: no answer, nothing asked.
    s.ask(null);
    expect(s.answer).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(asked).toHaveLength(1);
  });

  it('drops an answer to an earlier question, and a failed one', async () => {
    vi.useFakeTimers();
    const pending: ((a: RunEstimate) => void)[] = [];
    const s = new MemoryEstimateState(
      (_channel, r) =>
        r.method === 'bad'
          ? Promise.reject(new Error('no'))
          : new Promise<RunEstimate>((resolve) => pending.push(resolve)),
      10,
    );
    s.ask(req('a'));
    await vi.advanceTimersByTimeAsync(10);
    s.ask(req('b'));
    pending[0]!(answer({ note: 'a' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.answer).toBeNull();
    await vi.advanceTimersByTimeAsync(10);
    pending[1]!(answer({ note: 'b' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.answer?.note).toBe('b');
    s.ask(req('bad'));
    await vi.advanceTimersByTimeAsync(10);
    expect(s.answer).toBeNull();
  });
});

describe('the time estimate in the run form', () => {
  it('says the host’s range as people say it, with how it was calibrated', () => {
    show(
      answer({
        time: {
          seconds: 28,
          low: 21,
          high: 39.6,
          basis: 'speed measured on 2 finished runs of this method on this dataset',
          calibratedRuns: 2,
        },
      }),
    );
    expect(screen.getByTestId('time-estimate').textContent?.trim()).toBe(
      'Time: about 21–40 s (speed measured on 2 finished runs of this method on this dataset).',
    );
  });

  it('writes ranges in the units that suit them', () => {
    expect(fmtTimeRange({ low: 0.0123, high: 0.4 })).toBe('about 12–400 ms');
    expect(fmtTimeRange({ low: 40, high: 130 })).toBe('about 40 s – 2.2 min');
    expect(fmtTimeRange({ low: 5, high: 5.01 })).toBe('about 5 s');
    expect(fmtTimeRange({ low: 1800, high: 9000 })).toBe('about 30 min – 2.5 h');
  });
});
