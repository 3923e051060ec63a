/** Every host–worker message survives structured clone (what 'advanced' IPC and utilityProcess use). */
import { describe, expect, it } from 'vitest';
import { PART_BYTES, PartAssembler, splitLargeArrays } from '../../src/shared/worker-protocol';
import type { FromWorker, ToWorker } from '../../src/shared/worker-protocol';

const request = {
  datasetPath: '/data/HW.mat',
  loadOptions: { mask: 'per10', fold: 2 },
  method: 'kmeans-concat',
  params: { normalize: 'zscore', anchors: 5, row: true },
  k: 10,
  seed: 7,
  protocol: 'paper' as const,
  seeds: 20,
};
const messages: (ToWorker | FromWorker)[] = [
  { type: 'run', runId: 'r1', request },
  { type: 'cancel', runId: 'r1' },
  { type: 'ready' },
  {
    type: 'progress',
    runId: 'r1',
    progress: {
      seedIndex: 2,
      seedCount: 20,
      elapsed: 1.5,
      step: { stage: 'solve', iteration: 3, objective: 0.25, values: { alpha1: 0.3 } },
    },
  },
  { type: 'done', runId: 'r1', result: { labels: Int32Array.from([0, 2, 1]), objective: [3, 2] } },
  { type: 'cancelled', runId: 'r1' },
  {
    type: 'failed',
    runId: 'r1',
    error: { name: 'DataError', message: 'x.mat: bad', data: { file: 'x.mat' } },
  },
];

describe('worker protocol', () => {
  it.each(messages.map((m) => [m.type, m] as const))(
    '%s round-trips through structuredClone',
    (_, m) => {
      const copy = structuredClone(m);
      expect(copy).toEqual(m);
      if (m.type === 'done') {
        expect((copy as { result: { labels: unknown } }).result.labels).toBeInstanceOf(Int32Array);
      }
    },
  );
});

describe('large result arrays in parts', () => {
  it('split into ≤ 1 MiB slices and put back bit for bit; small arrays stay in place', () => {
    const big = Float64Array.from({ length: 300_000 }, (_, i) => i / 3);
    const value = {
      view: { projection: { x: new Float32Array(big), y: [big.subarray(1)] } },
      small: Uint8Array.from([1, 2, 3]),
      n: 3,
    };
    const { value: skeleton, parts } = splitLargeArrays(value, 'r1');
    expect(parts.every((p) => p.bytes.byteLength <= PART_BYTES && p.runId === 'r1')).toBe(true);
    expect(parts).toHaveLength(2 + 3); // 1.2 MB and 2.4 MB
    expect(skeleton).toEqual({
      view: { projection: { x: { $part: 0 }, y: [{ $part: 1 }] } },
      small: Uint8Array.from([1, 2, 3]),
      n: 3,
    });
    const assembler = new PartAssembler();
    for (const p of structuredClone(parts)) assembler.add(p);
    expect(assembler.attach(structuredClone(skeleton))).toStrictEqual(value);
    expect(() => new PartAssembler().attach(skeleton)).toThrow("the worker's result lacks part 0");
    const partial = new PartAssembler();
    partial.add(parts[0]!);
    expect(() => partial.attach(skeleton)).toThrow("the worker's result lacks part 1");
  });
});
