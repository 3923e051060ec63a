/**
 * The CSR × dense-block kernels (linalg/csr-kernel.ts): the WebAssembly module is the committed
 * build of csr.wat, and both kernels give exactly the bits of a plain loop that sums
 * s_p·x[i_p, j] from zero in the order of each row's entries (the contract of the module
 * comment), for every block width up to 19 (all the 8/4/2/1 column splits), empty rows,
 * rectangular S, −0 and ±∞ entries, a large S stored in a band order, and when different
 * matrices take turns (a stale copy of S in the wasm memory would show).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { builtWat } from '../../helpers/wasm-build';
import {
  csrBackend,
  csrFilter,
  csrTimesBlock,
  deflateTs,
  setCsrBackend,
  setCsrMemoryLimit,
} from '../../../src/core/linalg/csr-kernel';
import type { Csr } from '../../../src/core/linalg/types';
import { CSR_WASM } from '../../../src/core/linalg/wasm/csr-wasm';
import { csrFromRowMaps } from '../../helpers/linalg';
import { prng } from '../../helpers/prng';

/** A random rows×cols CSR with about `density` of its entries set, some rows empty. */
function randCsr(rows: number, cols: number, density: number, seed: number): Csr {
  const r = prng(seed);
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < rows; i++) {
    if (r() < 0.1) {
      indptr[i + 1] = indices.length; // an empty row
      continue;
    }
    for (let j = 0; j < cols; j++) {
      if (r() < density) {
        indices.push(j);
        data.push(2 * r() - 1);
      }
    }
    indptr[i + 1] = indices.length;
  }
  return {
    rows,
    cols,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
}

/** The contract, written out: Σ_p s_p·x[i_p, j] from 0, in entry order. */
function reference(S: Csr, x: Float64Array, b: number): Float64Array {
  const y = new Float64Array(S.rows * b);
  for (let i = 0; i < S.rows; i++)
    for (let j = 0; j < b; j++) {
      let s = 0;
      for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++)
        s += S.data[p]! * x[S.indices[p]! * b + j]!;
      y[i * b + j] = s;
    }
  return y;
}

function differing(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) d++;
  return d;
}

/**
 * A symmetric kNN-like pattern over n rows (6 random neighbours each, both ways), with
 * neighbours scattered over the index range as in a file not sorted by cluster.
 */
function scatteredSymmetric(n: number, seed: number): Csr {
  const r = prng(seed);
  const rows: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (let i = 0; i < n; i++)
    for (let t = 0; t < 6; t++) {
      const j = Math.floor(r() * n);
      const v = r();
      rows[i]!.set(j, v);
      rows[j]!.set(i, v);
    }
  return csrFromRowMaps(rows);
}

function randBlock(rows: number, b: number, seed: number): Float64Array {
  const r = prng(seed);
  return Float64Array.from({ length: rows * b }, () => 2 * r() - 1);
}

describe('the wasm module', () => {
  it('is the committed build of csr.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/linalg/wasm/csr.wat', import.meta.url);
    expect(Array.from(CSR_WASM)).toEqual(await builtWat(wat));
  });

  it('is the default kernel on this engine (Node has WebAssembly SIMD)', () => {
    expect(csrBackend()).toBe('wasm');
  });
});

describe.each(['wasm', 'ts'] as const)('the %s kernel', (backend) => {
  afterAll(() => {
    setCsrBackend('wasm');
  });

  it('equals the plain loop bit for bit for every block width 1…19', () => {
    expect(setCsrBackend(backend)).toBe(backend);
    const S = randCsr(120, 90, 0.08, 1);
    for (let b = 1; b <= 19; b++) {
      const x = randBlock(S.cols, b, b);
      const y = new Float64Array(S.rows * b).fill(NaN); // overwritten, never read
      csrTimesBlock(S, x, y, b);
      expect(differing(y, reference(S, x, b))).toBe(0);
    }
  });

  it('keeps −0, ±∞ and NaN as the plain loop does', () => {
    expect(setCsrBackend(backend)).toBe(backend);
    const S: Csr = {
      rows: 3,
      cols: 3,
      indptr: Int32Array.from([0, 2, 2, 4]),
      indices: Int32Array.from([0, 2, 1, 2]),
      data: Float64Array.from([-0, 1, Infinity, 2]),
    };
    const x = Float64Array.from([0, -0, 1, 2, 3, -0, 4, 5, 6, -0, 7, 8]);
    for (const b of [1, 2, 3, 4]) {
      const xb = x.subarray(0, 3 * b);
      const y = new Float64Array(3 * b);
      csrTimesBlock(S, xb, y, b);
      expect(differing(y, reference(S, xb, b))).toBe(0);
    }
  });

  it('stores a large square S in a band order and still gives the same bits', () => {
    expect(setCsrBackend(backend)).toBe(backend);
    // A symmetric kNN-like pattern over 9000 rows (above the band-order threshold), with
    // neighbours scattered over the index range as in a file not sorted by cluster.
    const n = 9000;
    const S = scatteredSymmetric(n, 6);
    const small = randCsr(50, 50, 0.1, 7);
    for (const b of [10, 3, 10]) {
      const x = randBlock(n, b, b);
      const y = new Float64Array(n * b);
      csrTimesBlock(S, x, y, b);
      expect(differing(y, reference(S, x, b))).toBe(0);
      // Another matrix in between: S's stored (reordered) form is copied back in afterwards.
      const xs = randBlock(50, b, 1);
      const ys = new Float64Array(50 * b);
      csrTimesBlock(small, xs, ys, b);
      expect(differing(ys, reference(small, xs, b))).toBe(0);
    }
  });

  it('does not reuse a stale matrix when several take turns', () => {
    expect(setCsrBackend(backend)).toBe(backend);
    const mats = [
      randCsr(300, 300, 0.05, 2),
      randCsr(200, 300, 0.1, 3),
      randCsr(300, 300, 0.02, 4),
    ];
    const x = randBlock(300, 10, 5);
    for (const i of [0, 1, 2, 0, 0, 2, 1]) {
      const S = mats[i]!;
      const y = new Float64Array(S.rows * 10);
      csrTimesBlock(S, x, y, 10);
      expect(differing(y, reference(S, x, 10))).toBe(0);
    }
  });
});

/**
 * One step of the filter written out as blockeig-filter.ts does it without the kernel's session:
 * z = S·cur (the plain loop), z −= T, then z = f·(z − c·cur) − g·prev.
 */
function stepReference(
  S: Csr,
  cur: Float64Array,
  prev: Float64Array | null,
  T: Float64Array | null,
  b: number,
  c: number,
  f: number,
  g: number,
): Float64Array {
  const z = reference(S, cur, b);
  if (T) for (let i = 0; i < z.length; i++) z[i]! -= T[i]!;
  for (let i = 0; i < z.length; i++)
    z[i] = prev ? f * (z[i]! - c * cur[i]!) - g * prev[i]! : f * (z[i]! - c * cur[i]!);
  return z;
}

describe('csrFilter (Chebyshev steps on blocks kept in the kernel)', () => {
  it('gives the bits of the product and the combination, with and without T and prev', () => {
    const S = randCsr(150, 150, 0.06, 8);
    // Widths 1…11 take every 8/4/2/1 split and odd totals (rows·b odd: the scalar tail);
    // 150 rows are three chunks of 64 rows, the last one short.
    for (let b = 1; b <= 11; b++) {
      const Y0 = randBlock(150, b, 20 + b);
      const session = csrFilter(S, Y0, b)!;
      expect(session.permuted).toBe(false);
      expect(differing(session.current(), Y0)).toBe(0);
      let prev: Float64Array | null = null;
      let cur: Float64Array = Y0.slice();
      const coef = [
        [0.3, 1.7, 0],
        [-0.2, 2.1, 0.45],
        [0.1, 1.9, 0.8],
      ] as const;
      coef.forEach(([c, f, g], step) => {
        const useTerm = step !== 1;
        const T = useTerm ? randBlock(150, b, 40 + step) : null;
        if (T) session.term().set(T);
        session.step(c, f, g, prev !== null, useTerm);
        const want = stepReference(S, cur, prev, T, b, c, f, g);
        expect(differing(session.current(), want)).toBe(0);
        [prev, cur] = [cur, want];
      });
      const out = new Float64Array(150 * b).fill(NaN);
      session.finish(out);
      expect(differing(out, cur)).toBe(0);
    }
  });

  it("works in the band order of a large S and hands back rows in S's own order", () => {
    const n = 9000;
    const S = scatteredSymmetric(n, 9);
    const b = 5;
    const Y0 = randBlock(n, b, 3);
    const session = csrFilter(S, Y0, b)!;
    expect(session.permuted).toBe(true);
    // toStored moves rows into the session's order: the current block is Y0 moved so.
    const moved = new Float64Array(n * b);
    session.toStored(Y0, b, moved);
    expect(differing(session.current(), moved)).toBe(0);
    session.step(0.25, 1.5, 0, false, false);
    session.step(-0.5, 2.5, 0.75, true, false);
    const first = stepReference(S, Y0, null, null, b, 0.25, 1.5, 0);
    const want = stepReference(S, first, Y0, null, b, -0.5, 2.5, 0.75);
    const out = new Float64Array(n * b);
    session.finish(out);
    expect(differing(out, want)).toBe(0);
  });

  it('deflates locked vectors with the bits of deflateTs, which match a plain triple loop', () => {
    const n = 150;
    for (const [b, nc] of [
      [1, 0],
      [2, 1],
      [5, 3],
      [8, 7],
      [11, 4],
      [2, 5],
      [1, 9],
    ] as const) {
      const Y0 = randBlock(n, b, 60 + b);
      const X = randBlock(n, nc, 70 + b);
      const scale = Float64Array.from({ length: nc }, (_, p) => 0.5 - 0.3 * p);
      const session = csrFilter(randCsr(n, n, 0.06, 8), Y0, b)!;
      session.lock(X, nc);
      session.deflate(scale);
      // Plain loops: C = Xᵀ·Y0 (rows in order), times the scales, then X·C.
      const C = new Float64Array(nc * b);
      for (let i = 0; i < n; i++)
        for (let p = 0; p < nc; p++)
          for (let j = 0; j < b; j++) C[p * b + j]! += X[i * nc + p]! * Y0[i * b + j]!;
      for (let p = 0; p < nc; p++) for (let j = 0; j < b; j++) C[p * b + j]! *= scale[p]!;
      const want = new Float64Array(n * b);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < b; j++) {
          let t = 0;
          for (let p = 0; p < nc; p++) t += X[i * nc + p]! * C[p * b + j]!;
          want[i * b + j] = t;
        }
      const ts = new Float64Array(n * b);
      deflateTs(X, nc, Y0, b, scale, new Float64Array(nc * b), ts, n);
      expect(differing(ts, want), `b = ${b}, nc = ${nc}`).toBe(0);
      expect(differing(session.term(), want), `b = ${b}, nc = ${nc}`).toBe(0);
    }
  });

  it('deflates in TypeScript, with the same bits, when the locked vectors would pass the memory limit', () => {
    const n = 150;
    const b = 6;
    const nc = 9;
    const Y0 = randBlock(n, b, 81);
    const X = randBlock(n, nc, 82);
    const session = csrFilter(randCsr(n, n, 0.06, 9), Y0, b)!;
    setCsrMemoryLimit(1);
    try {
      session.lock(X, nc);
    } finally {
      setCsrMemoryLimit(null);
    }
    // Twice, with other scales: the scratch kept from `lock` starts from zero every time.
    for (const scale of [
      Float64Array.from({ length: nc }, (_, p) => 0.4 - 0.1 * p),
      Float64Array.from({ length: nc }, (_, p) => 1 + p),
    ]) {
      session.deflate(scale);
      const want = new Float64Array(n * b);
      deflateTs(X, nc, Y0, b, scale, new Float64Array(nc * b), want, n);
      expect(differing(session.term(), want)).toBe(0);
      expect(want.some((x) => x !== 0)).toBe(true);
    }
  });

  it("deflates in the band order: the rows of the term are those of S's own order, moved", () => {
    const n = 9000;
    const S = scatteredSymmetric(n, 9);
    const b = 5;
    const nc = 3;
    const Y0 = randBlock(n, b, 3);
    const X = randBlock(n, nc, 4);
    const scale = Float64Array.from([0.7, -0.2, 1.3]);
    const session = csrFilter(S, Y0, b)!;
    expect(session.permuted).toBe(true);
    session.lock(X, nc);
    session.deflate(scale);
    const plain = new Float64Array(n * b);
    deflateTs(X, nc, Y0, b, scale, new Float64Array(nc * b), plain, n);
    const moved = new Float64Array(n * b);
    session.toStored(plain, b, moved);
    // The sums over rows run in the band order there: equal to rounding.
    let worst = 0;
    const term = session.term();
    for (let q = 0; q < n * b; q++) worst = Math.max(worst, Math.abs(term[q]! - moved[q]!));
    expect(worst).toBeLessThan(1e-9);
    expect(worst).toBeGreaterThan(0);
  });

  it('is not offered by the TypeScript kernel', () => {
    try {
      expect(setCsrBackend('ts')).toBe('ts');
      expect(csrFilter(randCsr(20, 20, 0.2, 1), new Float64Array(40), 2)).toBeNull();
    } finally {
      setCsrBackend('wasm');
    }
  });
});
