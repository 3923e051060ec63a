/**
 * The FFT panel passes on WebAssembly SIMD (`src/core/fft/wasm/panel.wat`, driven by
 * `panel-run.ts`): the committed module is the build of the .wat; every radix (2, 3, 4, 5, 8),
 * with and without twiddles (ido > 1 and the last pass), gives the TypeScript passes' bits on
 * panels full of exact cancellations, signed zeros, infinities, NaN and extreme magnitudes;
 * `ColumnWork` takes the module only for the cores it can run, keeps the TypeScript passes
 * otherwise (generic odd radix, Bluestein) and after `setPanelBackend('ts')`, and survives its
 * memory growing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ColumnWork,
  createRealFftPlan,
  panelBackend,
  setPanelBackend,
} from '../../../src/core/fft';
import { builtWat } from '../../helpers/wasm-build';
import type { FftCore } from '../../../src/core/fft/core';
import type { MixedRadixCore } from '../../../src/core/fft/mixed-radix';
import { SimdPanel, simdCore } from '../../../src/core/fft/panel-run';
import { fftCore } from '../../../src/core/fft/plan';
import { PANEL_WASM } from '../../../src/core/fft/wasm/panel-wasm';
import { randomReal } from '../../helpers/fft-naive';

afterEach(() => {
  setPanelBackend('wasm');
});

/** Element for element (Object.is: signed zeros and NaN too); the first difference, or -1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/**
 * A panel of 2·n·count values: small integers of both signs and signed zeros (so that sums and
 * differences cancel exactly, where the order and the sign of zero show), mixed with random
 * doubles, ±Infinity, NaN and values near the over- and underflow limits.
 */
function nastyPanel(length: number, seed: number): Float64Array {
  const r = randomReal(length, seed);
  const out = new Float64Array(length);
  const special = [0, -0, 1, -1, 2, -2, Infinity, -Infinity, NaN, 1e308, -1e308, 5e-324, -5e-324];
  for (let i = 0; i < length; i++) {
    const u = Math.abs(r[i]!) * 1000;
    const pick = Math.floor(u) % 10;
    if (pick < 4) out[i] = Math.round(3 * r[i]!) || (pick % 2 ? -0 : 0);
    else if (pick < 8) out[i] = r[i]!;
    else out[i] = special[Math.floor(u * 13) % special.length]!;
  }
  return out;
}

/** Only +0 and −0: every result is a zero whose sign is decided by the order of operations. */
function zerosPanel(length: number, seed: number): Float64Array {
  return randomReal(length, seed).map((x) => (x < 0 ? -0 : 0));
}

/** −1, −0, +0, 1: exact cancellations everywhere (differences of equal legs). */
function unitsPanel(length: number, seed: number): Float64Array {
  return randomReal(length, seed).map((x) => [-1, -0, 0, 1][Math.floor((x + 1) * 2)]!);
}

/** The core's passes on the WebAssembly panel and in TypeScript from the same panel. */
function runBoth(core: FftCore, count: number, input: Float64Array): [Float64Array, Float64Array] {
  const simd = SimdPanel.create();
  expect(simd).not.toBeNull();
  expect(simdCore(core)).toBe(true);
  expect(simd!.reserve(input.length, core as MixedRadixCore)).toBe(true);
  simd!.a.set(input);
  const wasm = simd!.run(count).slice(0, input.length);
  const a = input.slice();
  const b = new Float64Array(input.length);
  const ts = core.runPanel(a, b, count).slice();
  return [wasm, ts];
}

describe('FFT panel passes on WebAssembly SIMD', () => {
  it('is the committed build of panel.wat (run `npm run build:wasm` after editing the .wat)', async () => {
    const wat = new URL('../../../src/core/fft/wasm/panel.wat', import.meta.url);
    expect(Array.from(PANEL_WASM)).toEqual(await builtWat(wat));
  });

  it('runs here (Node has WebAssembly SIMD), so the tests below exercise the module', () => {
    expect(panelBackend()).toBe('wasm');
    expect(SimdPanel.create()).not.toBeNull();
  });

  it('every radix, twiddled or not, gives the TypeScript bits on hostile panels', () => {
    // Each length's passes (factorize): 2 [2], 3 [3], 4 [4], 5 [5], 8 [8], 6 [2, 3],
    // 40 [8, 5], 50 [2, 5, 5], 96 [8, 4, 3], 120 [8, 3, 5], 1000 [8, 5, 5, 5], 4096 [8, 8, 8, 8],
    // 48 [4, 4, 3] — every radix both with twiddles (not last) and without (last).
    const lengths = [2, 3, 4, 5, 8, 6, 40, 50, 96, 120, 1000, 4096, 48, 9, 18];
    const seen = new Set<string>();
    let seed = 11;
    for (const n of lengths) {
      const core = fftCore(n, 'mixed-radix') as MixedRadixCore;
      core.stages.forEach((st) => seen.add(`${st.p}:${st.ido > 1 ? 'tw' : 'last'}`));
      for (const count of [1, 3, 8])
        for (const make of [nastyPanel, zerosPanel, unitsPanel]) {
          const input = make(2 * n * count, seed++);
          const [wasm, ts] = runBoth(core, count, input);
          const at = firstDifference(wasm, ts);
          expect(at, `${make.name} n = ${n}, count = ${count}: differs at ${at}`).toBe(-1);
        }
    }
    for (const p of [2, 3, 4, 5, 8])
      for (const k of ['tw', 'last']) expect(seen.has(`${p}:${k}`), `${p} ${k}`).toBe(true);
  });

  it('plain random panels: the same bits, and the DFT (spot check against the naive sum)', () => {
    const n = 1000;
    const count = 5;
    const core = fftCore(n, 'mixed-radix');
    const input = randomReal(2 * n * count, 99);
    const [wasm, ts] = runBoth(core, count, input);
    expect(firstDifference(wasm, ts)).toBe(-1);
    // Bin 7 of signal 2 by the definition X_k = Σ_j x_j e^{−2πijk/n}.
    const [b, k] = [2, 7];
    let re = 0;
    let im = 0;
    for (let j = 0; j < n; j++) {
      const xr = input[2 * (j * count + b)]!;
      const xi = input[2 * (j * count + b) + 1]!;
      const t = (-2 * Math.PI * j * k) / n;
      re += xr * Math.cos(t) - xi * Math.sin(t);
      im += xr * Math.sin(t) + xi * Math.cos(t);
    }
    expect(wasm[2 * (k * count + b)]).toBeCloseTo(re, 9);
    expect(wasm[2 * (k * count + b) + 1]).toBeCloseTo(im, 9);
  });

  it('ColumnWork: the module only for the cores it can run, the same bits either way', () => {
    // 2000 (core 1000: radices 8, 5): module; 14 (core 7: generic odd radix) and 2003 (odd,
    // Bluestein): TypeScript passes, on the same work object in between.
    expect(simdCore(fftCore(1000))).toBe(true);
    expect(simdCore(fftCore(7))).toBe(false);
    expect(simdCore(fftCore(2003))).toBe(false);
    const work = new ColumnWork();
    const ref = new ColumnWork();
    let seed = 40;
    for (const n of [2000, 14, 2003, 2000, 4096, 64]) {
      const plan = createRealFftPlan(n);
      const count = 6;
      const x = randomReal(n * count, seed++);
      const re1 = new Float64Array(plan.bins * count);
      const im1 = new Float64Array(plan.bins * count);
      const re2 = re1.slice();
      const im2 = im1.slice();
      setPanelBackend('ts');
      plan.forwardColumns(count, x, 0, count, re1, im1, 0, count, ref);
      setPanelBackend('wasm');
      plan.forwardColumns(count, x, 0, count, re2, im2, 0, count, work);
      expect(firstDifference(re1, re2), `rfft ${n}`).toBe(-1);
      expect(firstDifference(im1, im2), `rfft ${n}`).toBe(-1);
      const back1 = new Float64Array(n * count);
      const back2 = new Float64Array(n * count);
      setPanelBackend('ts');
      plan.inverseColumns(count, re1, im1, 0, count, back1, 0, count, ref);
      setPanelBackend('wasm');
      plan.inverseColumns(count, re1, im1, 0, count, back2, 0, count, work);
      expect(firstDifference(back1, back2), `irfft ${n}`).toBe(-1);
    }
    // The reference object never held WebAssembly buffers; the other did (for 4096 last).
    expect(ref.a.buffer).toBeInstanceOf(ArrayBuffer);
    expect(work.a.buffer).not.toBe(ref.a.buffer);
  });

  it('a work object whose memory grows between uses keeps giving the same bits', () => {
    const work = new ColumnWork();
    let seed = 70;
    // Growing counts and lengths: each reserve may grow the memory (detaching older views).
    for (const [n, count] of [
      [16, 1],
      [2000, 10],
      [2000, 60],
      [20000, 12],
      [16, 2],
    ] as const) {
      const plan = createRealFftPlan(n);
      const x = randomReal(n * count, seed++);
      const re = new Float64Array(plan.bins * count);
      const im = new Float64Array(plan.bins * count);
      plan.forwardColumns(count, x, 0, count, re, im, 0, count, work);
      const re1 = new Float64Array(plan.bins);
      const im1 = new Float64Array(plan.bins);
      for (const b of [0, count - 1]) {
        plan.forward(x, re1, im1, b, count, 0, 1);
        for (let k = 0; k < plan.bins; k++) {
          expect(Object.is(re[k * count + b], re1[k]), `n ${n} bin ${k}`).toBe(true);
          expect(Object.is(im[k * count + b], im1[k]), `n ${n} bin ${k}`).toBe(true);
        }
      }
    }
  });
});
