/**
 * The symmetric matrix-vector kernels of the tridiagonalisation (linalg/symv-kernel.ts): the
 * WebAssembly module is the committed build of symv.wat, and both kernels equal a plain loop
 * over the full symmetric matrix (Σ_j s_ij·u_j) to rounding, for every n up to 13 and from
 * offset (all the four-row and odd-column edges), larger odd and even n, while the lower
 * triangle and u[0..from) hold NaN (so reading them would show) and p[0..from) keeps its
 * sentinel (so writing it would show). The blocked tridiagonalisation with either kernel gives
 * the same T and reflectors to rounding, and T has the eigenvalues of A (trace and Frobenius
 * norm, both invariant under the orthogonal similarity).
 * The bidiagonalisation's kernels (gemvT: out_c += Σ_r u_r·a_rc two rows per pass; gemv:
 * x_r = Σ_c a_rc·v_c in order of c) equal their scalar loops bit for bit on every edge (odd and
 * even row and column ranges, a single row or column) without touching entries outside their
 * ranges, and the bidiagonalisation with the wasm kernels gives the bits of the TypeScript one.
 * The tridiagonalisation's panel kernels (panelDots, panelP, panelRow) give their loops' bits.
 * Tolerance: |fl(Su) − Su|_i ≤ n·ε·Σ_j |s_ij|·|u_j|, taken as 1e-15·n·(that sum) + 1e-300.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { builtWat } from '../../helpers/wasm-build';
import { bidiagonalise } from '../../../src/core/linalg/bidiag';
import { tridiagonalizeBlocked } from '../../../src/core/linalg/eigh-tridiag';
import {
  gemvWorkspace,
  setSymvBackend,
  symvBackend,
  symvUpper,
  symvWorkspace,
  trimSymvMemory,
} from '../../../src/core/linalg/symv-kernel';
import { SYMV_WASM } from '../../../src/core/linalg/wasm/symv-wasm';
import { prng } from '../../helpers/prng';

afterAll(() => {
  setSymvBackend('wasm');
});

/** A random symmetric n×n (full), and its copy with NaN below the diagonal. */
function randSym(n: number, seed: number): { full: Float64Array; upper: Float64Array } {
  const r = prng(seed);
  const full = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) full[i * n + j] = full[j * n + i] = 2 * r() - 1;
  const upper = full.slice();
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) upper[i * n + j] = NaN;
  return { full, upper };
}

/** The plain loop, and the per-entry error bound Σ_j |s_ij·u_j|. */
function reference(full: Float64Array, n: number, from: number, u: Float64Array) {
  const y = new Float64Array(n);
  const bound = new Float64Array(n);
  for (let i = from; i < n; i++)
    for (let j = from; j < n; j++) {
      y[i]! += full[i * n + j]! * u[j]!;
      bound[i]! += Math.abs(full[i * n + j]! * u[j]!);
    }
  return { y, bound };
}

const SENTINEL = 12345.5;

function check(
  n: number,
  from: number,
  p: Float64Array,
  ref: { y: Float64Array; bound: Float64Array },
): void {
  for (let i = 0; i < from; i++) expect(p[i]).toBe(SENTINEL);
  for (let i = from; i < n; i++)
    expect(Math.abs(p[i]! - ref.y[i]!)).toBeLessThanOrEqual(1e-15 * n * ref.bound[i]! + 1e-300);
}

function vectorFor(n: number, from: number, seed: number): Float64Array {
  const r = prng(seed);
  const u = new Float64Array(n).fill(NaN);
  for (let j = from; j < n; j++) u[j] = 2 * r() - 1;
  return u;
}

const SHAPES: [number, number][] = [];
for (let n = 1; n <= 13; n++) for (let from = 0; from < n; from++) SHAPES.push([n, from]);
SHAPES.push([64, 0], [64, 3], [101, 0], [101, 50], [130, 7], [257, 1]);

describe('the wasm module', () => {
  it('is the committed build of symv.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/linalg/wasm/symv.wat', import.meta.url);
    expect(Array.from(SYMV_WASM)).toEqual(await builtWat(wat));
  });

  it('is the kernel in use where WebAssembly SIMD exists', () => {
    expect(setSymvBackend('wasm')).toBe('wasm');
    expect(symvBackend()).toBe('wasm');
  });
});

describe('symv against the plain loop', () => {
  it('wasm: every n ≤ 13 and offset, and larger shapes; lower triangle and u[0..from) unread', () => {
    setSymvBackend('wasm');
    for (const [n, from] of SHAPES) {
      const { full, upper } = randSym(n, 7 * n + from);
      const u = vectorFor(n, from, n + 3 * from);
      const ws = symvWorkspace(n)!;
      expect(ws).not.toBeNull();
      ws.a.set(upper);
      ws.u.set(u);
      ws.p.fill(SENTINEL);
      ws.run(from);
      check(n, from, ws.p, reference(full, n, from, u));
    }
  });

  it('ts: the same shapes', () => {
    for (const [n, from] of SHAPES) {
      const { full, upper } = randSym(n, 11 * n + from);
      const u = vectorFor(n, from, 2 * n + from);
      const p = new Float64Array(n).fill(SENTINEL);
      symvUpper(upper, n, from, u, p);
      check(n, from, p, reference(full, n, from, u));
    }
  });

  it('a second, smaller workspace after a larger one computes on its own n', () => {
    setSymvBackend('wasm');
    for (const n of [300, 17]) {
      const { full, upper } = randSym(n, n);
      const u = vectorFor(n, 0, n + 1);
      const ws = symvWorkspace(n)!;
      ws.a.set(upper);
      ws.u.set(u);
      ws.p.fill(SENTINEL);
      ws.run(0);
      check(n, 0, ws.p, reference(full, n, 0, u));
    }
  });
});

describe('the tridiagonalisation with either kernel', () => {
  it('gives the same T and reflectors to rounding, with the trace and ‖A‖_F of A', () => {
    for (const n of [130, 201]) {
      const { full } = randSym(n, 99 + n);
      const out = (['ts', 'wasm'] as const).map((be) => {
        expect(setSymvBackend(be)).toBe(be);
        const a = full.slice();
        const d = new Float64Array(n);
        const e = new Float64Array(n);
        const tau = new Float64Array(n);
        tridiagonalizeBlocked(a, n, d, e, tau);
        return { a, d, e, tau };
      });
      let trace = 0;
      let fro2 = 0;
      for (let i = 0; i < n; i++) {
        trace += full[i * n + i]!;
        for (let j = 0; j < n; j++) fro2 += full[i * n + j]! ** 2;
      }
      for (const { d, e } of out) {
        let tT = 0;
        let fT = 0;
        for (let i = 0; i < n; i++) {
          tT += d[i]!;
          fT += d[i]! ** 2 + (i < n - 1 ? 2 * e[i]! ** 2 : 0);
        }
        expect(Math.abs(tT - trace)).toBeLessThanOrEqual(1e-12 * n);
        expect(Math.abs(fT - fro2)).toBeLessThanOrEqual(1e-12 * n * fro2);
      }
      const [ts, wasm] = out as [(typeof out)[0], (typeof out)[0]];
      for (let i = 0; i < n; i++) {
        expect(Math.abs(ts.d[i]! - wasm.d[i]!)).toBeLessThanOrEqual(1e-11);
        if (i < n - 1)
          expect(Math.abs(Math.abs(ts.e[i]!) - Math.abs(wasm.e[i]!))).toBeLessThanOrEqual(1e-11);
        expect(Math.abs(ts.tau[i]! - wasm.tau[i]!)).toBeLessThanOrEqual(1e-11);
      }
      // The reflectors (upper triangle right of the superdiagonal) agree too.
      let diff = 0;
      for (let i = 0; i < n; i++)
        for (let j = i + 2; j < n; j++)
          diff = Math.max(diff, Math.abs(ts.a[i * n + j]! - wasm.a[i * n + j]!));
      expect(diff).toBeLessThanOrEqual(1e-10);
    }
  });

  it('gives back the memory of a large matrix after trimSymvMemory, keeps a small one', () => {
    const small = symvWorkspace(100)!;
    const kept = small.a.buffer;
    trimSymvMemory();
    expect(symvWorkspace(100)!.a.buffer).toBe(kept);
    // 3000² doubles = 72 MB: above what the module keeps between reductions.
    const big = symvWorkspace(3000)!;
    expect(big.a.buffer.byteLength).toBeGreaterThanOrEqual(8 * 3000 * 3000);
    trimSymvMemory();
    const after = symvWorkspace(100)!;
    expect(after.a.buffer.byteLength).toBeLessThan(8 * 3000 * 3000);
    after.u.fill(1);
    after.a.fill(0);
    for (let i = 0; i < 100; i++) after.a[i * 100 + i] = 2;
    after.run(0);
    expect(Array.from(after.p.subarray(0, 3))).toEqual([2, 2, 2]);
  });

  it('falls back to TypeScript when asked (no workspace)', () => {
    expect(setSymvBackend('ts')).toBe('ts');
    expect(symvWorkspace(10)).toBeNull();
    setSymvBackend('wasm');
  });
});

describe('the matrix-vector kernels of the bidiagonalisation', () => {
  /** Bit-for-bit comparison that also tells NaN apart from numbers. */
  const same = (x: ArrayLike<number>, y: ArrayLike<number>): void => {
    expect(x.length).toBe(y.length);
    for (let i = 0; i < x.length; i++)
      if (!Object.is(x[i], y[i])) expect([i, x[i]]).toEqual([i, y[i]]);
  };

  it("gemvT and gemv give the scalar loops' bits on every edge, nothing outside their ranges", () => {
    setSymvBackend('wasm');
    const m = 11;
    const n = 9;
    const r = prng(5);
    for (let r0 = 0; r0 < m; r0 += 3)
      for (let r1 = r0 + 1; r1 <= m; r1++)
        for (let c0 = 0; c0 < n; c0 += 2)
          for (let c1 = c0 + 1; c1 <= n; c1++) {
            const ws = gemvWorkspace(m, n)!;
            for (let i = 0; i < m * n; i++) ws.a[i] = 2 * r() - 1;
            for (let i = 0; i < m; i++) ws.u[i] = i >= r0 && i < r1 ? 2 * r() - 1 : NaN;
            for (let c = 0; c < n; c++) ws.y[c] = c >= c0 && c < c1 ? r() : SENTINEL;
            const y = ws.y.slice();
            let i = r0;
            for (; i + 1 < r1; i += 2)
              for (let c = c0; c < c1; c++)
                y[c]! += ws.u[i]! * ws.a[i * n + c]! + ws.u[i + 1]! * ws.a[(i + 1) * n + c]!;
            if (i < r1) for (let c = c0; c < c1; c++) y[c]! += ws.u[i]! * ws.a[i * n + c]!;
            ws.gemvT(r0, r1, c0, c1, 'y');
            same(ws.y, y);
            ws.t.set(ws.y);
            ws.gemvT(r0, r1, c0, c1, 't');
            // Into t: the same sums again on top of the first.
            i = r0;
            const t = ws.y.slice();
            for (; i + 1 < r1; i += 2)
              for (let c = c0; c < c1; c++)
                t[c]! += ws.u[i]! * ws.a[i * n + c]! + ws.u[i + 1]! * ws.a[(i + 1) * n + c]!;
            if (i < r1) for (let c = c0; c < c1; c++) t[c]! += ws.u[i]! * ws.a[i * n + c]!;
            same(ws.t, t);
            const v = (r0 + 5) % m;
            ws.x.fill(SENTINEL);
            const x = ws.x.slice();
            for (let q = r0; q < r1; q++) {
              let s = 0;
              for (let c = c0; c < c1; c++) s += ws.a[q * n + c]! * ws.a[v * n + c]!;
              x[q] = s;
            }
            ws.gemv(r0, r1, c0, c1, v);
            same(ws.x, x);
          }
  });

  it('bidiagonalise with them gives the bits of the TypeScript loops', () => {
    for (const [m, n] of [
      [97, 70],
      [130, 130],
      [75, 33],
    ] as const) {
      const r = prng(m * n);
      const a0 = Float64Array.from({ length: m * n }, () => 2 * r() - 1);
      const out = (['ts', 'wasm'] as const).map((be) => {
        expect(setSymvBackend(be)).toBe(be);
        return bidiagonalise(a0.slice(), m, n);
      });
      const [ts, wasm] = out as [(typeof out)[0], (typeof out)[0]];
      for (const k of ['a', 'd', 'e', 'tauq', 'taup'] as const) same(wasm[k], ts[k]);
    }
    setSymvBackend('wasm');
  });
});

describe('the panel kernels of the tridiagonalisation', () => {
  it('give the bits of the TypeScript loops for every panel position', () => {
    setSymvBackend('wasm');
    const n = 23;
    const h = 5;
    const r = prng(77);
    for (let i = 0; i <= h; i++)
      for (const k of [0, 3, 10, 21, 22]) {
        const ws = symvWorkspace(n, h)!;
        for (let q = 0; q < ws.vw.length; q++) ws.vw[q] = 2 * r() - 1;
        for (let q = 0; q < n * n; q++) ws.a[q] = 2 * r() - 1;
        for (let q = 0; q < n; q++) ws.p[q] = 2 * r() - 1;
        const vw = ws.vw;
        const row = (j: number, c: number): number => vw[j * n + c]!;
        // panelDots + panelP against the loops (V_j = row j, W_j = row h + j, v = row i).
        const dots = new Float64Array(2 * h);
        for (let j = 0; j < i; j++) {
          let sv = 0;
          let sw = 0;
          for (let c = k + 1; c < n; c++) {
            sv += row(j, c) * row(i, c);
            sw += row(h + j, c) * row(i, c);
          }
          dots[j] = sv;
          dots[h + j] = sw;
        }
        const p = ws.p.slice();
        for (let j = 0; j < i; j++)
          for (let c = k + 1; c < n; c++)
            p[c]! -= row(j, c) * dots[h + j]! + row(h + j, c) * dots[j]!;
        ws.panelDots(i, k + 1);
        for (let j = 0; j < i; j++) {
          expect(Object.is(ws.dots[j], dots[j])).toBe(true);
          expect(Object.is(ws.dots[h + j], dots[h + j])).toBe(true);
        }
        ws.panelP(i, k + 1);
        for (let c = 0; c < n; c++) expect(Object.is(ws.p[c], p[c])).toBe(true);
        // panelRow against updateRow's loop; the other rows stay as they were.
        const a = ws.a.slice();
        for (let j = 0; j < i; j++)
          for (let c = k; c < n; c++)
            a[k * n + c]! -= row(j, k) * row(h + j, c) + row(h + j, k) * row(j, c);
        ws.panelRow(k, i);
        for (let q = 0; q < n * n; q++) expect(Object.is(ws.a[q], a[q])).toBe(true);
      }
  });
});
