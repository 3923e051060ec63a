/**
 * The two GEMM micro-kernels (WebAssembly SIMD and plain TypeScript) against the triple loop and
 * against each other, on odd shapes, shapes crossing the cache blocks (MC = 128 rows, KC = 256
 * and KP = 1024 of depth, NC = 768 columns) and the micro-tile edges (4×4, 4×3), transposed
 * variants, strided views, `out` reuse, empty dimensions and syrk; plus the build of the wasm
 * module and the fallback where WebAssembly or its SIMD is missing.
 * Tolerance: |fl(AB) − AB| ≤ k·ε·|A|·|B|, taken as 1e-14·‖A‖_F·‖B‖_F. Where the depth fits one
 * KC slice both kernels add the products in the triple loop's order with separate IEEE
 * operations, so C = A·B is then required bit for bit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  gemm,
  gemmBackend,
  gemmStrided,
  matmul,
  matmulTA,
  matmulTB,
  setGemmBackend,
  syrk,
  thinFactor,
  thinNN,
  thinTA,
  type GemmBackend,
} from '../../../src/core/linalg/gemm';
import { builtWat } from '../../helpers/wasm-build';
import { GEMM_FMA_WASM } from '../../../src/core/linalg/wasm/gemm-fma-wasm';
import { GEMM_WASM } from '../../../src/core/linalg/wasm/gemm-wasm';
import { wasmApi } from '../../../src/core/wasm-api';
import type * as GemmModule from '../../../src/core/linalg/gemm';
import type { Mat } from '../../../src/core/linalg/types';
import { at, fro, maxDiff, naiveMul, randMat, transpose } from '../../helpers/mat';

const TOL = 1e-14;
const KC = 256;

const withinBound = (C: Mat, ref: Mat, A: Mat, B: Mat): void => {
  expect(maxDiff(C, ref)).toBeLessThanOrEqual(TOL * fro(A) * fro(B));
};

/** Checks C against ref = A·B: bit for bit when the depth fits one slice, else by the bound. */
function expectProduct(C: Mat, A: Mat, B: Mat, ref: Mat): void {
  if (A.cols <= KC) expect(Array.from(C.data)).toEqual(Array.from(ref.data));
  else withinBound(C, ref, A, B);
}

/** Runs `f` on the given backend and restores the default afterwards. */
function on<T>(backend: GemmBackend, f: () => T): T {
  expect(setGemmBackend(backend)).toBe(backend);
  try {
    return f();
  } finally {
    setGemmBackend('wasm');
  }
}

/** m, k, n: A is m×k, B is k×n. */
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [7, 13, 5],
  [257, 129, 65],
  [5, 257, 9],
  [129, 3, 771],
  [6, 1100, 7],
  [130, 300, 770],
];

describe('the wasm module', () => {
  it('is the committed build of gemm.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/linalg/wasm/gemm.wat', import.meta.url);
    expect(Array.from(GEMM_WASM)).toEqual(await builtWat(wat));
  });

  it('is the default backend on this engine (Node has WebAssembly SIMD; relaxed SIMD, for the fused kernel, only from Node 22 or with a flag)', () => {
    expect(gemmBackend()).toBe(wasmApi()?.validate(GEMM_FMA_WASM) ? 'fma' : 'wasm');
  });
});

describe.each(['wasm', 'ts'] as const)('the %s micro-kernel', (backend) => {
  beforeAll(() => {
    expect(setGemmBackend(backend)).toBe(backend);
  });
  afterAll(() => {
    setGemmBackend('wasm');
  });

  it.each(SHAPES)(
    'A·B, (Aᵀ)ᵀ·B, A·(Bᵀ)ᵀ, gemm(Aᵀ, Bᵀ) for A %i×%i, B with %i columns',
    (m, k, n) => {
      const A = randMat(m, k, 3 * m + k);
      const B = randMat(k, n, 5 * n + k);
      const [At, Bt] = [transpose(A), transpose(B)];
      const ref = naiveMul(A, B);
      expectProduct(matmul(A, B), A, B, ref);
      expectProduct(matmulTA(At, B), A, B, ref);
      expectProduct(matmulTB(A, Bt), A, B, ref);
      const C: Mat = { rows: m, cols: n, data: new Float64Array(m * n).fill(NaN) };
      gemm(At, Bt, C, { transA: true, transB: true });
      expectProduct(C, A, B, ref);
    },
  );

  it('α and β, and β = 0 ignoring NaN in C', () => {
    const A = randMat(37, 300, 1);
    const B = randMat(300, 23, 2);
    const C0 = randMat(37, 23, 3);
    const C: Mat = { rows: 37, cols: 23, data: C0.data.slice() };
    gemm(transpose(A), B, C, { transA: true, alpha: -0.5, beta: 2 });
    const AB = naiveMul(A, B);
    const ref: Mat = { ...C0, data: AB.data.map((x, i) => -0.5 * x + 2 * C0.data[i]!) };
    expect(maxDiff(C, ref)).toBeLessThanOrEqual(TOL * fro(A) * fro(B) + 1e-15 * fro(C0));
    C.data.fill(NaN);
    gemm(A, B, C, { alpha: 1, beta: 0 });
    withinBound(C, AB, A, B);
  });

  it('reuses an out (garbage included) and writes nothing around an out that is a view', () => {
    const A = randMat(9, 11, 4);
    const buf = new Float64Array(200).fill(NaN);
    const out: Mat = { rows: 9, cols: 7, data: buf.subarray(50, 113) };
    for (const seed of [5, 6]) {
      const B = randMat(11, 7, seed);
      expect(matmul(A, B, out)).toBe(out);
      expectProduct(out, A, B, naiveMul(A, B));
      expect(matmulTB(A, transpose(B), out)).toBe(out);
      expectProduct(out, A, B, naiveMul(A, B));
    }
    expect(buf[49]).toBeNaN();
    expect(buf[113]).toBeNaN();
  });

  it('multiplies strided sub-blocks in place (gemmStrided, as the Householder code does)', () => {
    // A: rows 2..8, columns 3..12 of a 10×20 buffer; B: a 10×5 block of a 12×6 one; C: a 7×5
    // block of a 9×8 one, C ← C − A·B.
    const [a, b, c0] = [randMat(10, 20, 7), randMat(12, 6, 8), randMat(9, 8, 9)];
    const c = c0.data.slice();
    const view = (X: Mat, r: number, q: number, rows: number, cols: number): Mat => {
      const data = new Float64Array(rows * cols);
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < cols; j++) data[i * cols + j] = at(X, r + i, q + j);
      return { rows, cols, data };
    };
    const A = view(a, 2, 3, 7, 10);
    const B = view(b, 1, 1, 10, 5);
    gemmStrided(
      7,
      5,
      10,
      -1,
      { data: a.data, offset: 2 * 20 + 3, ld: 20 },
      false,
      { data: b.data, offset: 6 + 1, ld: 6 },
      false,
      1,
      { data: c, offset: 8 + 2, ld: 8 },
    );
    const AB = naiveMul(A, B);
    for (let i = 0; i < 9; i++) {
      for (let j = 0; j < 8; j++) {
        const inside = i >= 1 && i < 8 && j >= 2 && j < 7;
        const want = at(c0, i, j) - (inside ? at(AB, i - 1, j - 2) : 0);
        expect(Math.abs(c[i * 8 + j]! - want)).toBeLessThanOrEqual(1e-14);
      }
    }
  });

  it('handles empty dimensions', () => {
    expect(Array.from(matmul(randMat(3, 0, 1), randMat(0, 4, 2)).data)).toEqual(
      new Array(12).fill(0),
    );
    expect(matmul(randMat(0, 3, 1), randMat(3, 4, 2)).data.length).toBe(0);
    expect(matmul(randMat(3, 4, 1), randMat(4, 0, 2)).data.length).toBe(0);
    const out: Mat = { rows: 2, cols: 3, data: new Float64Array(6).fill(NaN) };
    expect(Array.from(matmulTA(randMat(0, 2, 1), randMat(0, 3, 2), out).data)).toEqual(
      new Array(6).fill(0),
    );
    expect(Array.from(matmulTB(randMat(2, 0, 1), randMat(3, 0, 2)).data)).toEqual(
      new Array(6).fill(0),
    );
    expect(Array.from(syrk(randMat(0, 3, 1)).data)).toEqual(new Array(9).fill(0));
    expect(syrk(randMat(4, 0, 1)).data.length).toBe(0);
  });

  it.each([
    [1, 1],
    [13, 7],
    [129, 257],
    [50, 800],
    [1100, 6],
  ])('syrk: AᵀA for A %i×%i, exactly symmetric', (m, k) => {
    const A = randMat(m, k, 7 * m + k);
    const At = transpose(A);
    const out: Mat = { rows: k, cols: k, data: new Float64Array(k * k).fill(NaN) };
    const C = syrk(A, out);
    expect(C).toBe(out);
    expectProduct(C, At, A, naiveMul(At, A));
    let asymmetric = 0;
    for (let i = 0; i < k; i++)
      for (let j = 0; j < i; j++) if (at(C, i, j) !== at(C, j, i)) asymmetric++;
    expect(asymmetric).toBe(0);
  });
});

describe('wasm and TypeScript kernels agree', () => {
  it.each(SHAPES)('A %i×%i times B with %i columns, all transpositions', (m, k, n) => {
    const A = randMat(m, k, m + 11 * k);
    const B = randMat(k, n, n + 17 * k);
    const [At, Bt] = [transpose(A), transpose(B)];
    for (const f of [
      () => matmul(A, B),
      () => matmulTA(At, B),
      () => matmulTB(A, Bt),
      () => syrk(B),
    ]) {
      const w = on('wasm', f);
      const t = on('ts', f);
      // Bit for bit within one slice; beyond, both within the bound of the exact product.
      const s = Math.max(fro(A), fro(B));
      if (k <= KC) expect(Array.from(w.data)).toEqual(Array.from(t.data));
      else expect(maxDiff(w, t)).toBeLessThanOrEqual(2 * TOL * s * s);
    }
  });
});

describe('fallback to the TypeScript kernel', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** A fresh copy of gemm.ts, so that its first use sees the stubbed global. */
  const fresh = async (): Promise<typeof GemmModule> => {
    vi.resetModules();
    return import('../../../src/core/linalg/gemm');
  };

  it('without WebAssembly', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    const g = await fresh();
    expect(g.gemmBackend()).toBe('ts');
    expect(g.setGemmBackend('wasm')).toBe('ts');
    const [A, B] = [randMat(9, 14, 1), randMat(14, 10, 2)];
    expect(Array.from(g.matmul(A, B).data)).toEqual(Array.from(naiveMul(A, B).data));
  });

  const real = (globalThis as { WebAssembly?: object }).WebAssembly;

  it('when the engine rejects the module (no SIMD)', async () => {
    vi.stubGlobal('WebAssembly', Object.create(real ?? null, { validate: { value: () => false } }));
    const g = await fresh();
    expect(g.gemmBackend()).toBe('ts');
    const [A, B] = [randMat(6, 5, 3), randMat(5, 8, 4)];
    expect(Array.from(g.matmul(A, B).data)).toEqual(Array.from(naiveMul(A, B).data));
  });

  it('when instantiation fails', async () => {
    const Module = function (): never {
      throw new Error('out of memory');
    };
    vi.stubGlobal('WebAssembly', Object.create(real ?? null, { Module: { value: Module } }));
    const g = await fresh();
    expect(g.gemmBackend()).toBe('ts');
    const A = randMat(7, 3, 5);
    const C = g.syrk(A);
    const ref = naiveMul(transpose(A), A);
    expect(Array.from(C.data)).toEqual(Array.from(ref.data));
  });
});

/**
 * The tall-skinny kernels (gemm.wat's `ta` and `nn`), which the wasm backend takes for Aᵀ·B and
 * syrk with both short sides ≤ 16 over ≥ 64 rows (Aᵀ·B with up to 128 rows when B has ≤ 16
 * columns), and for A·B and A·Bᵀ with depth ≤ 16 and up to 64 columns, or depth ≤ 128 and up to
 * 16 columns, over ≥ 64 rows: the
 * bits of the packed wasm path they replace (each entry summed from +0 over each KP = 1024 rows
 * of depth, in order, the chunks' sums added in order: `chunked` below), and so of the triple
 * loop and of the TypeScript backend where the depth fits one KC slice; depths across the
 * chunks, widths across the kernels' column groups (8, then 2 at a time), and what lies around
 * a strided `out`.
 */
describe('tall-skinny products', () => {
  const KP = 1024;
  /** Aᵀ·B (A rows × a, B rows × b) summed as the wasm path sums a depth beyond one KP chunk. */
  function chunked(A: Mat, B: Mat): Mat {
    const a = A.cols;
    const b = B.cols;
    const C = { rows: a, cols: b, data: new Float64Array(a * b) };
    for (let i = 0; i < a; i++)
      for (let j = 0; j < b; j++) {
        let total = 0;
        for (let q0 = 0; q0 < A.rows; q0 += KP) {
          let s = 0;
          for (let r = q0; r < Math.min(A.rows, q0 + KP); r++) s += at(A, r, i) * at(B, r, j);
          total = q0 === 0 ? s : total + s;
        }
        C.data[i * b + j] = total;
      }
    return C;
  }
  const bits = (X: Mat): number[] => Array.from(X.data);

  it('Aᵀ·B and syrk: the bits of the packed path (KP-row chunks), of ts within one KC slice', () => {
    let seed = 300;
    for (const rows of [64, 256, 1023, 1024, 1025, 2500]) {
      for (const [a, b] of [
        [1, 1],
        [3, 10],
        [10, 10],
        [7, 16],
        [16, 9],
        [16, 16],
        [100, 10],
        [128, 16],
        [17, 3],
      ] as [number, number][]) {
        const A = randMat(rows, a, seed++);
        const B = randMat(rows, b, seed++);
        expect(bits(matmulTA(A, B))).toEqual(bits(chunked(A, B)));
        const S = syrk(B);
        expect(bits(S)).toEqual(bits(chunked(B, B)));
        if (rows <= KC) {
          expect(bits(matmulTA(A, B))).toEqual(bits(on('ts', () => matmulTA(A, B))));
          expect(bits(S)).toEqual(bits(on('ts', () => syrk(B))));
        }
        withinBound(matmulTA(A, B), naiveMul(transpose(A), B), A, B);
      }
    }
  });

  it('A·B and A·Bᵀ: the bits of the triple loop (depth ≤ 128) and of ts, rows across 4096-row chunks', () => {
    let seed = 400;
    for (const rows of [64, 65, 4096, 5000]) {
      for (const [k, n] of [
        [1, 1],
        [2, 7],
        [10, 10],
        [16, 13],
        [9, 16],
        [5, 3],
        [10, 60],
        [16, 64],
        [3, 33],
        [12, 11],
        [7, 12],
        [100, 10],
        [128, 16],
        [17, 1],
      ] as [number, number][]) {
        const A = randMat(rows, k, seed++);
        const B = randMat(k, n, seed++);
        const C = matmul(A, B);
        expect(bits(C)).toEqual(bits(naiveMul(A, B)));
        expect(bits(C)).toEqual(bits(on('ts', () => matmul(A, B))));
        const Bt = transpose(B);
        expect(bits(matmulTB(A, Bt))).toEqual(bits(C));
        expect(bits(on('ts', () => matmulTB(A, Bt)))).toEqual(bits(C));
      }
    }
  });

  it('writes a strided out exactly in its block (A·B and Aᵀ·B)', () => {
    const A = randMat(200, 10, 1);
    const view = (X: Mat): { data: Float64Array; offset: number; ld: number } => ({
      data: X.data,
      offset: 0,
      ld: X.cols,
    });
    // op(A)·B into columns col0 … of a NaN-filled rows × ld matrix: the block equals ref (to
    // 1e-12 of it), everything around it is still NaN.
    const check = (transA: boolean, B: Mat, ref: Mat, ld: number, col0: number): void => {
      const out = new Float64Array(ref.rows * ld).fill(Number.NaN);
      gemmStrided(ref.rows, ref.cols, B.rows, 1, view(A), transA, view(B), false, 0, {
        data: out,
        offset: col0,
        ld,
      });
      for (let i = 0; i < ref.rows; i++)
        for (let j = 0; j < ld; j++) {
          const v = out[i * ld + j]!;
          if (j < col0 || j >= col0 + ref.cols) expect(v).toBeNaN();
          else expect(Math.abs(v - at(ref, i, j - col0))).toBeLessThanOrEqual(1e-12 * Math.abs(v));
        }
    };
    const M = randMat(10, 7, 2);
    check(false, M, naiveMul(A, M), 12, 3);
    const B = randMat(200, 5, 3);
    check(true, B, naiveMul(transpose(A), B), 9, 2);
  });
});

/**
 * Thin factors (`thinFactor`, `thinTA`, `thinNN`: CGL's H-step factors, n × w with w ≤ 64, kept
 * row-major in the wasm memory and multiplied on the tall kernels): the bits of matmulTA / matmul
 * on the packed path for every width, block width (the kernels' 12-, 8- and 2-column paths) and
 * row count across KP (1024) and NN_ROWS (4096) chunks; a new handle after the matrix changed
 * is copied afresh; the fallbacks (b > 64, w > 64, the TypeScript backend).
 */
describe('thin factors', () => {
  const bits = (X: Mat): number[] => Array.from(X.data);

  it('Fᵀ·X and F·M: the bits of matmulTA and matmul', () => {
    let seed = 700;
    for (const rows of [64, 1025, 4100]) {
      for (const w of [1, 10, 60, 64]) {
        const F = randMat(rows, w, seed++);
        const handle = thinFactor(F)!;
        expect(handle).not.toBeNull();
        for (const b of [1, 2, 9, 10, 12, 13, 16, 40, 64]) {
          const X = randMat(rows, b, seed++);
          const M = randMat(w, b, seed++);
          const T = { rows: w, cols: b, data: new Float64Array(w * b).fill(NaN) };
          const Y = { rows, cols: b, data: new Float64Array(rows * b).fill(NaN) };
          expect(bits(thinTA(handle, X, T)), `Fᵀ·X ${rows}×${w}, b = ${b}`).toEqual(
            bits(matmulTA(F, X)),
          );
          expect(bits(thinNN(handle, M, Y)), `F·M ${rows}×${w}, b = ${b}`).toEqual(
            bits(matmul(F, M)),
          );
        }
      }
    }
  });

  it('a new handle after the matrix changed gives the new products (the slot is refilled)', () => {
    const F = randMat(300, 20, 1);
    const X = randMat(300, 10, 2);
    const first = bits(
      thinTA(thinFactor(F)!, X, { rows: 20, cols: 10, data: new Float64Array(200) }),
    );
    F.data.set(randMat(300, 20, 3).data);
    // Other factors take the slots in between, as the H-step's views do.
    for (let s = 4; s < 10; s++) thinTA(thinFactor(randMat(300, 20, s))!, X, randMat(20, 10, 0));
    const again = thinTA(thinFactor(F)!, X, { rows: 20, cols: 10, data: new Float64Array(200) });
    expect(bits(again)).toEqual(bits(matmulTA(F, X)));
    expect(bits(again)).not.toEqual(first);
  });

  it('falls back to gemm: blocks wider than 64; no handle past 64 columns or on ts', () => {
    const F = randMat(200, 30, 5);
    const X = randMat(200, 70, 6);
    const M = randMat(30, 70, 7);
    const handle = thinFactor(F)!;
    expect(bits(thinTA(handle, X, { rows: 30, cols: 70, data: new Float64Array(2100) }))).toEqual(
      bits(matmulTA(F, X)),
    );
    expect(bits(thinNN(handle, M, { rows: 200, cols: 70, data: new Float64Array(14000) }))).toEqual(
      bits(matmul(F, M)),
    );
    expect(thinFactor(randMat(200, 65, 8))).toBeNull();
    expect(on('ts', () => thinFactor(F))).toBeNull();
    expect(() => thinTA(handle, randMat(199, 3, 9), randMat(30, 3, 9))).toThrow(/thinTA/);
    expect(() => thinNN(handle, randMat(29, 3, 9), randMat(200, 3, 9))).toThrow(/thinNN/);
  });
});
