/** The reference reader on every runs-shaped file of ../shared/reference, and its errors. */
import { describe, expect, it } from 'vitest';
import { parseRun, readReference } from './reference';

describe('readReference', () => {
  it.each([
    ['cgl-cgmvc-nc', 7],
    ['imvc-cbg', 18],
  ])('%s.json: %i runs with file, method, params, iterations, trace and metrics', (name, count) => {
    const ref = readReference(name);
    expect(ref.runs).toHaveLength(count);
    for (const run of ref.runs) {
      expect(run.objective).toHaveLength(run.iterations!);
      expect(run.metrics['ACC']!.mean).toBeGreaterThan(0);
      expect(Object.keys(run.runtime).length).toBeGreaterThan(0);
      expect(run.k).toBeGreaterThanOrEqual(2);
    }
  });

  it('baselines-*.json read with their failed runs left out', () => {
    for (const name of ['baselines-graph', 'baselines-incomplete']) {
      const ref = readReference(name);
      expect(ref.runs.length).toBeGreaterThan(0);
      for (const run of ref.runs) expect(typeof run.method).toBe('string');
    }
  });

  it('names the run and the field that does not fit', () => {
    expect(() => parseRun({ method: 'M' }, 'x.json runs[3]')).toThrow(
      "x.json runs[3]: 'file' is not a string",
    );
    expect(() => parseRun({ file: 'f', method: 'M', metrics: { ACC: { mean: 1 } } }, 'r')).toThrow(
      "r: metric 'ACC' is not { mean, std }",
    );
    expect(() => parseRun({ file: 'f', method: 'M', objective: [1, 'a'] }, 'r')).toThrow(
      "'objective' is not a list of numbers",
    );
    const run = parseRun(
      { file: 'f', method: 'M', c: 4, independent_check: { ok: true }, timings_s: { solver: 1 } },
      'r',
    );
    expect([run.k, run.checks, run.runtime]).toEqual([
      4,
      { independent_check: { ok: true } },
      { solver: 1 },
    ]);
  });
});
