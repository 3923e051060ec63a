/**
 * A small in-memory dataset and a loader that returns it, for testing the backend and the web
 * host without the real file readers.
 */
import type { MultiViewDataset } from '../../src/core/dataset';
import { makeLabels } from '../../src/core/dataset';
import type { LoadOptions } from '../../src/shared/contract';

/** 6 samples, 2 views; view "b" misses samples 1 and 4 and holds one NaN. */
export function fakeDataset(file: string): MultiViewDataset {
  return {
    n: 6,
    views: [
      {
        name: 'a',
        d: 2,
        values: { kind: 'dense', rows: 6, cols: 2, data: new Float64Array(12).fill(1) },
        present: Int32Array.from([0, 1, 2, 3, 4, 5]),
      },
      {
        name: 'b',
        d: 3,
        values: {
          kind: 'dense',
          rows: 4,
          cols: 3,
          data: Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, NaN]),
        },
        present: Int32Array.from([0, 2, 3, 5]),
      },
    ],
    labels: makeLabels('Y', [1, 1, 1, 2, 2, 2]),
    sampleIds: null,
    provenance: {
      file,
      format: 'fake',
      variables: ['X', 'Y'],
      orientation: ['n x d', 'n x d'],
      missingness: 'natural',
      decisions: [{ topic: 'views', choice: 'X', reason: 'the only cell', overridden: false }],
      warnings: [],
    },
  };
}

export interface FakeLoader {
  (path: string, options: LoadOptions): Promise<MultiViewDataset>;
  /** Every call, in order. */
  readonly calls: { path: string; options: LoadOptions }[];
}

/** A loader that returns `fakeDataset(path)`, or fails for paths containing "bad". */
export function fakeLoader(): FakeLoader {
  const calls: { path: string; options: LoadOptions }[] = [];
  const load = async (path: string, options: LoadOptions): Promise<MultiViewDataset> => {
    calls.push({ path, options });
    await new Promise((r) => setTimeout(r, 5));
    if (path.includes('bad')) {
      const e = new Error(`${path}: not a MAT-file (fake loader)`);
      e.name = 'DataError';
      throw e;
    }
    return fakeDataset(path);
  };
  return Object.assign(load, { calls });
}
