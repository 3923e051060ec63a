import { describe, expect, it } from 'vitest';
import {
  CHANNELS,
  EVENTS,
  isChannel,
  isEventName,
  parseRequest,
  reviveError,
  serializeError,
} from '../src/shared/contract';
import type {
  Channel,
  DatasetEntry,
  Envelope,
  EventName,
  EventPayload,
  Request,
  Response,
} from '../src/shared/contract';

const entry: DatasetEntry = {
  id: '0123456789abcdef',
  path: '/data/NGs_Per0.5.mat',
  options: { mask: 'folds.mat', fold: 2, orientation: 'd x n' },
  bundled: true,
  summary: {
    file: '/data/NGs_Per0.5.mat',
    format: 'mat-v5',
    n: 500,
    views: [
      { name: 'data{1}', d: 2000, present: 374, sparse: false, nanCount: 0 },
      { name: 'data{2}', d: 2000, present: 372, sparse: true, nanCount: 3 },
    ],
    labels: { source: 'truelabel{1}', classes: [1, 2, 'x'], sizes: [100, 100, 300] },
    samplesByViewCount: [100, 400],
    missingness: 'nan-columns',
    variables: ['data', 'truelabel', 'index'],
    orientation: ['d x n', 'd x n'],
    decisions: [
      { topic: 'views', choice: 'data', reason: 'a cell of matrices', overridden: false },
    ],
    warnings: ['one warning'],
  },
};

/** One request and one response per channel; a missing channel is a compile error. */
const EXAMPLES: { [C in Channel]: { request: Request<C>; responses: Response<C>[] } } = {
  'datasets:list': { request: null, responses: [[], [entry]] },
  'datasets:open': {
    request: { path: '/data/x.mat', options: { views: 'X', labels: 'none', labelsFile: 'y.csv' } },
    responses: [entry],
  },
  'datasets:remove': { request: { id: entry.id }, responses: [null] },
  'dialog:openDataset': { request: null, responses: ['/data/x.mat', null] },
};

const EVENT_EXAMPLES: { [E in EventName]: EventPayload<E> } = { 'menu:open': null };

describe('contract', () => {
  it('lists every channel and event exactly once', () => {
    expect([...CHANNELS].sort()).toEqual(Object.keys(EXAMPLES).sort());
    expect([...EVENTS].sort()).toEqual(Object.keys(EVENT_EXAMPLES).sort());
    expect(CHANNELS.every(isChannel)).toBe(true);
    expect(EVENTS.every(isEventName)).toBe(true);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isEventName('datasets:list')).toBe(false);
  });

  it('example values survive structured clone and JSON', () => {
    for (const channel of CHANNELS) {
      const { request, responses } = EXAMPLES[channel];
      expect(structuredClone(request)).toEqual(request);
      expect(JSON.parse(JSON.stringify(request))).toEqual(request);
      for (const response of responses) {
        const envelope: Envelope<unknown> = { ok: true, value: response };
        expect(structuredClone(envelope)).toEqual(envelope);
        expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
      }
    }
    for (const payload of Object.values(EVENT_EXAMPLES)) {
      expect(structuredClone(payload)).toEqual(payload);
    }
  });

  it('every example request passes its own validation unchanged', () => {
    for (const channel of CHANNELS) {
      const { request } = EXAMPLES[channel];
      expect(parseRequest(channel, structuredClone(request))).toEqual(request);
    }
  });

  it('round-trips errors with name, message and data', () => {
    const e = Object.assign(new Error('/x.mat: variable X is not a cell'), {
      name: 'DataError',
      data: { file: '/x.mat', variables: ['X', 'Y'] },
    });
    const wire = structuredClone(serializeError(e));
    expect(wire).toEqual({
      name: 'DataError',
      message: '/x.mat: variable X is not a cell',
      data: { file: '/x.mat', variables: ['X', 'Y'] },
    });
    const back = reviveError(JSON.parse(JSON.stringify(wire)));
    expect(back).toBeInstanceOf(Error);
    expect(back.name).toBe('DataError');
    expect(back.message).toBe(e.message);
    expect((back as Error & { data?: unknown }).data).toEqual(e.data);

    expect(serializeError(new TypeError('t'))).toEqual({ name: 'TypeError', message: 't' });
    expect(serializeError('plain string')).toEqual({ name: 'Error', message: 'plain string' });
    expect('data' in reviveError({ name: 'E', message: 'm' })).toBe(false);
  });
});
