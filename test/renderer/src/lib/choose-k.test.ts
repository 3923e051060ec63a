/** The Choose k panel's state, without a DOM or a host (a fake `call`, fake timers). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChooseKInfo } from '../../../../src/shared/choose-k';
import type { Channel, Request, Response } from '../../../../src/shared/contract';
import { ChooseKState, POLL_MS } from '../../../../src/renderer/src/lib/choose-k.svelte';

const base: ChooseKInfo = {
  id: 'c1',
  datasetId: 'd1',
  method: 'bsv',
  from: 2,
  to: 4,
  status: 'queued',
  progress: null,
  result: null,
  error: null,
};

function fakeHost(statuses: ChooseKInfo[]): {
  calls: { channel: Channel; request: unknown }[];
  call: <C extends Channel>(channel: C, request: Request<C>) => Promise<Response<C>>;
} {
  const calls: { channel: Channel; request: unknown }[] = [];
  const call = async <C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> => {
    calls.push({ channel, request });
    if (channel === 'runs:chooseK') return base as Response<C>;
    if (channel === 'runs:chooseKStatus') return (statuses.shift() ?? base) as Response<C>;
    return null as Response<C>;
  };
  return { calls, call };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ChooseKState', () => {
  it('checks the range against n − 1, and fits it to a small dataset', () => {
    const s = new ChooseKState(fakeHost([]).call);
    expect(s.rangeError(12)).toBeNull();
    expect(s.rangeError(9)).toBe('To must be a whole number from 2 to 9; got "10"');
    s.fit(9);
    expect([s.from, s.to]).toEqual(['2', '9']);
    expect(s.rangeError(9)).toBeNull();
    s.from = '1';
    expect(s.rangeError(9)).toBe('From must be a whole number from 2 to 9; got "1"');
    s.from = '5';
    s.to = '3';
    expect(s.rangeError(9)).toBe('To must be a whole number from 5 to 9; got "3"');
    s.to = '12';
    expect(s.rangeError(9)).toBe('To must be a whole number from 5 to 9; got "12"');
  });

  it('starts a sweep with the range, reads its state while it runs, then stops', async () => {
    const running = { ...base, status: 'running' as const };
    const done = { ...base, status: 'done' as const };
    const host = fakeHost([running, done]);
    const s = new ChooseKState(host.call);
    s.to = '4';
    await s.start({ datasetId: 'd1', method: 'bsv', params: { neighbors: 5 }, seed: 3 });
    expect(host.calls[0]).toEqual({
      channel: 'runs:chooseK',
      request: {
        datasetId: 'd1',
        method: 'bsv',
        params: { neighbors: 5 },
        seed: 3,
        from: 2,
        to: 4,
      },
    });
    expect(s.running).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(s.info?.status).toBe('running');
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(s.info?.status).toBe('done');
    expect(s.running).toBe(false);
    await vi.advanceTimersByTimeAsync(5 * POLL_MS);
    expect(host.calls.filter((c) => c.channel === 'runs:chooseKStatus')).toHaveLength(2);
  });

  it('cancels the running sweep by its id; a host error is kept for the panel', async () => {
    const host = fakeHost([]);
    const s = new ChooseKState(host.call);
    await s.start({ datasetId: 'd1', method: 'bsv', params: {}, seed: 0 });
    await s.cancel();
    expect(host.calls.at(-1)).toEqual({ channel: 'runs:chooseKCancel', request: { id: 'c1' } });
    s.stop();
    const failing = new ChooseKState(async () => {
      throw new Error('k range 2..80: k can be at most n − 1 = 59');
    });
    await failing.start({ datasetId: 'd1', method: 'bsv', params: {}, seed: 0 });
    expect(failing.error?.message).toContain('at most n − 1 = 59');
    expect(failing.running).toBe(false);
  });
});
