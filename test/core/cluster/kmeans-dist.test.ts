/**
 * k-means' distance columns on WebAssembly SIMD (cluster/dist-kernel.ts, wasm/dist.wat): the
 * committed module is the build of its source; every value equals the plain sequential sum
 * Σ_p (x_ip − c_jp)² bit for bit (row counts around the eight-row blocks, one to many features,
 * partial centre lists); a call never reads another call's X; and whole k-means runs give the
 * same labels, SSEs and centres with either loop. Hamerly's all-centre row loop (`rowDistances`,
 * four centres per pass) gives the same bits as the plain sum too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { builtWat } from '../../helpers/wasm-build';
import {
  distanceColumns,
  distBackend,
  releaseDistData,
  setDistBackend,
} from '../../../src/core/cluster/dist-kernel';
import { kmeans } from '../../../src/core/cluster/kmeans';
import { rowDistances } from '../../../src/core/cluster/kmeans-bounds';
import { DIST_WASM } from '../../../src/core/cluster/wasm/dist-wasm';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

afterEach(() => {
  setDistBackend('wasm');
  releaseDistData();
});

function gaussian(n: number, d: number, seed: number, scale = 1): Mat {
  const r = createRng(seed);
  return {
    rows: n,
    cols: d,
    data: Float64Array.from({ length: n * d }, () => scale * (r.next() - 0.5) + r.int(3)),
  };
}

/** The reference: each value summed from zero over p in order, as kmeans.ts sums it. */
function plain(X: Mat, C: Float64Array, k: number, cols: readonly number[]): Float64Array {
  const { rows: n, cols: d, data } = X;
  const D = new Float64Array(n * k).fill(-1);
  for (const j of cols)
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let p = 0; p < d; p++) {
        const t = data[i * d + p]! - C[j * d + p]!;
        s += t * t;
      }
      D[i * k + j] = s;
    }
  return D;
}

describe('the wasm module', () => {
  it('is the committed build of dist.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/cluster/wasm/dist.wat', import.meta.url);
    expect(Array.from(DIST_WASM)).toEqual(await builtWat(wat));
  });

  it('is the default loop on this engine (Node has WebAssembly SIMD)', () => {
    expect(distBackend()).toBe('wasm');
    expect(setDistBackend('ts')).toBe('ts');
    expect(setDistBackend('wasm')).toBe('wasm');
  });
});

describe('distanceColumns', () => {
  it('equals the sequential sum bit for bit around the eight-row blocks', () => {
    let cases = 0;
    for (const n of [1, 2, 7, 8, 9, 15, 16, 17, 123])
      for (const d of [1, 2, 3, 10, 37])
        for (const k of [1, 3, 10]) {
          const X = gaussian(n, d, 100 * n + d, 1e3);
          const C = gaussian(k, d, 7 * k + d, 1e3).data;
          // Every column, then a partial list in a scrambled order (the others untouched).
          const all = Array.from({ length: k }, (_, j) => j);
          const some = all.filter((j) => j % 2 === 1).reverse();
          for (const cols of [all, some]) {
            if (cols.length === 0) continue;
            const D = new Float64Array(n * k).fill(-1);
            const owner = {};
            expect(distanceColumns(owner, X, C, k, Int32Array.from(cols), cols.length, D)).toBe(
              true,
            );
            expect(Array.from(D)).toEqual(Array.from(plain(X, C, k, cols)));
            cases++;
          }
        }
    expect(cases).toBeGreaterThan(200);
  });

  it('copies X again when another call took the module in between, or when told to', () => {
    const k = 4;
    const A = gaussian(33, 5, 1);
    const B = gaussian(33, 5, 2);
    const C = gaussian(k, 5, 3).data;
    const cols = Int32Array.from([0, 1, 2, 3]);
    const run = (owner: object, X: Mat): number[] => {
      const D = new Float64Array(33 * k);
      distanceColumns(owner, X, C, k, cols, k, D);
      return Array.from(D);
    };
    const a = {};
    const b = {};
    expect(run(a, A)).toEqual(Array.from(plain(A, C, k, [0, 1, 2, 3])));
    expect(run(b, B)).toEqual(Array.from(plain(B, C, k, [0, 1, 2, 3])));
    expect(run(a, A)).toEqual(Array.from(plain(A, C, k, [0, 1, 2, 3])));
    // The same owner keeps its copy: a changed X is not seen until the module is released.
    const A2: Mat = { ...A, data: A.data.map((x) => x + 1) };
    expect(run(a, A2)).toEqual(Array.from(plain(A, C, k, [0, 1, 2, 3])));
    releaseDistData();
    expect(run(a, A2)).toEqual(Array.from(plain(A2, C, k, [0, 1, 2, 3])));
  });

  it('leaves the work to the caller when the wasm loop is switched off', () => {
    setDistBackend('ts');
    const D = new Float64Array(4);
    expect(
      distanceColumns({}, gaussian(2, 3, 1), new Float64Array(6), 2, Int32Array.of(0, 1), 2, D),
    ).toBe(false);
    expect(Array.from(D)).toEqual([0, 0, 0, 0]);
  });
});

describe('k-means with either loop', () => {
  it('gives the same labels, SSEs and centres bit for bit', () => {
    for (const [n, d, k, seed] of [
      [500, 4, 5, 1],
      [333, 17, 12, 2],
      [2001, 10, 10, 3],
      [97, 2, 30, 4],
    ] as const) {
      const X = gaussian(n, d, seed, 2);
      const run = (backend: 'wasm' | 'ts') => {
        setDistBackend(backend);
        return kmeans(X, k, { replicates: 4 }, createRng(seed));
      };
      const w = run('wasm');
      const t = run('ts');
      expect(Array.from(w.labels)).toEqual(Array.from(t.labels));
      expect(w.sse).toBe(t.sse);
      expect(Array.from(w.replicateSse)).toEqual(Array.from(t.replicateSse));
      expect(Array.from(w.centers.data)).toEqual(Array.from(t.centers.data));
      expect(w.iterations).toBe(t.iterations);
    }
  });
});

describe('rowDistances (the bounded scan of a row it cannot skip)', () => {
  it('equals the sequential sum bit for bit around the four-centre blocks', () => {
    for (const d of [1, 2, 3, 7, 20, 65]) {
      for (const k of [1, 2, 3, 4, 5, 7, 8, 9, 13]) {
        const X = gaussian(11, d, 100 * d + k, 1e3);
        const C = gaussian(k, d, 7 * d + k, 1e3).data;
        const all = Array.from({ length: k }, (_, j) => j);
        const want = plain(X, C, k, all);
        const row = new Float64Array(k).fill(-1);
        for (let i = 0; i < X.rows; i++) {
          rowDistances(X.data, i, C, k, d, row);
          expect(Array.from(row)).toEqual(Array.from(want.subarray(i * k, (i + 1) * k)));
        }
      }
    }
  });
});
