/**
 * The 'fma' backend (wasm/gemm-fma.wat: gemm.wat's kernels with each multiply and add fused by
 * relaxed SIMD's f64x2.relaxed_madd). Its products run in a child Node with relaxed SIMD on
 * (gemm-fma-child.ts; the test runner's own Node 20 has it off), and are checked here:
 * - bit for bit against a fused reference: the triple loop with each step c ← fl(a·b + c)
 *   rounded once, by an exact FMA in BigInt arithmetic (`fmaExact`), summed from +0 in order of
 *   k, for every case with k ≤ KP = 1024 (m, n, k = 1 … 13, transposes, α/β, syrk on the packed
 *   and tall paths, the tall `nn` kernel, a depth over two KC slices, gemmPacked);
 * - every case, deep ones too, against the plain unfused loop within the bound both roundings
 *   obey: |ĉ − c| ≤ γ_k·Σ_p |a_ip||b_pj| with γ_k = k·u/(1 − k·u), u = 2⁻⁵³ (Higham, Accuracy and
 *   Stability of Numerical Algorithms, 2nd ed., eq. 3.5), so |fma − plain| ≤ 2γ_k·Σ|a||b|
 *   (plus 4u·|c| for the roundings of α·t and β·c₀ + α·t, which both apply alike).
 * Also the module's build, the detection (the backend falls back to 'wasm' when relaxed SIMD is
 * missing or its multiply-add rounds twice) and that without relaxed SIMD nothing changes.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import wabtInit from 'wabt';
import { readFileSync } from 'node:fs';
import {
  gemm,
  gemmBackend,
  gemmPacked,
  packLhs,
  setGemmBackend,
  syrk,
} from '../../../src/core/linalg/gemm';
import type * as GemmModule from '../../../src/core/linalg/gemm';
import { GEMM_FMA_WASM } from '../../../src/core/linalg/wasm/gemm-fma-wasm';
import type { Mat } from '../../../src/core/linalg/types';
import { wasmApi } from '../../../src/core/wasm-api';
import { naiveMul, randMat } from '../../helpers/mat';
import { fmaCases, operands, type FmaCase } from './gemm-fma-child';

const KP = 1024;
const U = 2 ** -53;
const CHILD = fileURLToPath(new URL('./gemm-fma-child.ts', import.meta.url));

/** x = m·2^e exactly, m an integer (|m| < 2⁵³). */
function split(x: number): [bigint, number] {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  const hi = v.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(v.getUint32(4));
  if (biased !== 0) m |= 1n << 52n;
  return [hi >>> 31 ? -m : m, (biased === 0 ? 1 : biased) - 1075];
}

/**
 * fl(a·b + c) rounded once to nearest even, for finite a, b, c whose result is a normal number:
 * the exact value N·2^E as a BigInt, cut to 64 bits with a sticky bit (so the one rounding
 * below, Number(BigInt), which ECMAScript defines as round to nearest even, sees every discarded
 * bit), then scaled by 2^E exactly. An exact zero is +0 (as IEEE's round to nearest gives for
 * a sum from +0), −0 only for (−0) + (−0).
 */
export function fmaExact(a: number, b: number, c: number): number {
  const [ma, ea] = split(a);
  const [mb, eb] = split(b);
  const [mc, ec] = split(c);
  const e = Math.min(ea + eb, ec);
  const sum = ((ma * mb) << BigInt(ea + eb - e)) + (mc << BigInt(ec - e));
  if (sum === 0n) return Object.is(a * b, -0) && Object.is(c, -0) ? -0 : 0;
  let mag = sum < 0n ? -sum : sum;
  let shift = 0;
  const bits = mag.toString(2).length;
  if (bits > 64) {
    shift = bits - 64;
    const sticky = (mag & ((1n << BigInt(shift)) - 1n)) !== 0n ? 1n : 0n;
    mag = (mag >> BigInt(shift)) | sticky;
  }
  const scale = e + shift;
  if (scale < -960) throw new Error('fmaExact: the test data must stay in the normal range');
  const r = Number(mag) * 2 ** scale;
  return sum < 0n ? -r : r;
}

/** op(X)[i, p] for X stored as `operands` stores it. */
const entry = (X: Mat, t: boolean, i: number, p: number): number =>
  t ? X.data[p * X.cols + i]! : X.data[i * X.cols + p]!;

/** The expected result of case c by `dot(i, j)` = the entry's dot product, as gemm applies α, β. */
function expected(c: FmaCase, A: Mat, B: Mat, C0: Mat, dot: (i: number, j: number) => number) {
  const out = new Float64Array(c.m * c.n);
  for (let i = 0; i < c.m; i++)
    for (let j = 0; j < c.n; j++) {
      if (c.op === 'syrk') {
        out[i * c.n + j] = i <= j ? dot(i, j) : dot(j, i);
        continue;
      }
      const t = dot(i, j);
      const c0 = C0.data[i * c.n + j]!;
      const scaled = c.beta === 1 ? c0 : c.beta === 0 ? 0 : c0 * c.beta;
      out[i * c.n + j] = c.alpha === 1 && c.beta === 0 ? t : scaled + c.alpha * t;
    }
  return out;
}

/** The fused sequential dot product of entry (i, j), from +0 in order of k. */
function fusedDot(c: FmaCase, A: Mat, B: Mat): (i: number, j: number) => number {
  const [tA, tB] = c.op === 'syrk' ? [true, false] : [c.transA, c.transB];
  const Bm = c.op === 'syrk' ? A : B;
  return (i, j) => {
    let s = 0;
    for (let p = 0; p < c.k; p++) s = fmaExact(entry(A, tA, i, p), entry(Bm, tB, p, j), s);
    return s;
  };
}

/** Σ_p |op(A)[i,p]|·|op(B)[p,j]|, for the bound. */
function absDot(c: FmaCase, A: Mat, B: Mat): (i: number, j: number) => number {
  const [tA, tB] = c.op === 'syrk' ? [true, false] : [c.transA, c.transB];
  const Bm = c.op === 'syrk' ? A : B;
  return (i, j) => {
    let s = 0;
    for (let p = 0; p < c.k; p++) s += Math.abs(entry(A, tA, i, p) * entry(Bm, tB, p, j));
    return s;
  };
}

/**
 * The cases checked bit for bit: k ≤ KP (deeper, a KP chunk's sum is added into C unfused) and
 * small enough for the BigInt reference (about a microsecond per step: the 130×770×300 case is
 * left to the bound); their fused references, computed once for both children.
 */
const CASES = fmaCases();
const EXACT = CASES.map((c, i) => i).filter((i) => {
  const c = CASES[i]!;
  return c.k <= KP && c.m * c.n * c.k <= 5e5;
});
const fusedRefs = new Map<number, Float64Array>();
function fusedRef(i: number): Float64Array {
  let r = fusedRefs.get(i);
  if (!r) {
    const c = CASES[i]!;
    const { A, B, C0 } = operands(c, i);
    r = expected(c, A, B, C0, fusedDot(c, A, B));
    fusedRefs.set(i, r);
  }
  return r;
}

/** Runs the child and returns its backend and results; `how` turns relaxed SIMD on. */
function runChild(how: 'node flag' | 'setFlagsFromString'): {
  backend: string;
  results: number[][];
} {
  const args =
    how === 'node flag'
      ? ['--experimental-wasm-relaxed-simd', '--import', 'tsx', CHILD]
      : ['--import', 'tsx', CHILD, '--set-flag'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { backend: string; results: number[][] };
}

describe('the fma module', () => {
  it('is the committed build of gemm-fma.wat (run `npm run build:wasm` after editing it)', async () => {
    const wabt = await wabtInit();
    const wat = new URL('../../../src/core/linalg/wasm/gemm-fma.wat', import.meta.url);
    const features = { simd: true, relaxed_simd: true };
    const mod = wabt.parseWat('gemm-fma.wat', readFileSync(wat, 'utf8'), features);
    try {
      mod.validate();
      const built = mod.toBinary({ log: false, write_debug_names: false }).buffer;
      expect(Array.from(GEMM_FMA_WASM)).toEqual(Array.from(built));
    } finally {
      mod.destroy();
    }
  });

  it('fmaExact rounds once: cases where a multiply then an add would differ', () => {
    expect(fmaExact(1 + 2 ** -30, 1 - 2 ** -30, -1)).toBe(-(2 ** -60));
    expect((1 + 2 ** -30) * (1 - 2 ** -30) - 1).toBe(0);
    // a·b = 1 + 2⁻⁵² + 2⁻¹⁰⁴ − … : the exact tail decides the tie of fl(a·b + 2⁻⁵³).
    const a = 1 + 2 ** -52;
    expect(fmaExact(a, a, 0)).toBe(a * a);
    expect(fmaExact(a, a, -1)).toBe(2 ** -51 + 2 ** -104);
    expect(fmaExact(3, 5, 7)).toBe(22);
    expect(Object.is(fmaExact(-0, 1, -0), -0)).toBe(true);
    expect(Object.is(fmaExact(2, 3, -6), 0)).toBe(true);
  });
});

describe.each(['node flag', 'setFlagsFromString'] as const)(
  'the fma backend with relaxed SIMD on (%s, in a child Node)',
  (how) => {
    const cases = CASES;
    let child: { backend: string; results: number[][] } | undefined;
    const results = (): number[][] => (child ??= runChild(how)).results;

    it('is chosen by detection', () => {
      results();
      expect(child!.backend).toBe('fma');
      expect(results()).toHaveLength(cases.length);
    });

    it('gives the fused reference bit for bit wherever k ≤ KP, and fuses', () => {
      let differsFromPlain = 0;
      for (const i of EXACT) {
        const c = cases[i]!;
        const ref = fusedRef(i);
        expect(results()[i], `${JSON.stringify(c)}`).toEqual(Array.from(ref));
        if (c.op === 'gemm' && c.alpha === 1 && !c.transA && !c.transB) {
          const { A, B } = operands(c, i);
          const plain = naiveMul(A, B).data;
          for (let e = 0; e < ref.length; e++) if (plain[e] !== ref[e]) differsFromPlain++;
        }
      }
      // All but the three cases past KP or too large for the reference.
      expect(EXACT).toHaveLength(cases.length - 3);
      // Fusing shows: a good part of the entries are not the unfused loop's.
      expect(differsFromPlain).toBeGreaterThan(1000);
    });

    it('is within 2γ_k·Σ|a||b| of the plain unfused loop on every case', () => {
      expect(setGemmBackend('ts')).toBe('ts');
      try {
        cases.forEach((c, i) => {
          const { A, B, C0 } = operands(c, i);
          const C: Mat = { rows: c.m, cols: c.n, data: C0.data.slice() };
          const opts = { transB: c.transB, alpha: c.alpha, beta: c.beta };
          let plain: Float64Array;
          if (c.op === 'syrk') plain = syrk(A).data;
          else if (c.op === 'packed') plain = gemmPacked(packLhs(A, c.transA), B, C, opts).data;
          else plain = gemm(A, B, C, { ...opts, transA: c.transA }).data;
          const abs = expected({ ...c, alpha: 1, beta: 0 }, A, B, C0, absDot(c, A, B));
          const g = (c.k * U) / (1 - c.k * U);
          const got = results()[i]!;
          let outside = 0;
          for (let e = 0; e < plain.length; e++) {
            const bound = 2 * g * Math.abs(c.alpha) * abs[e]! + 4 * U * Math.abs(plain[e]!);
            if (!(Math.abs(got[e]! - plain[e]!) <= bound)) outside++;
          }
          expect(outside, JSON.stringify(c)).toBe(0);
        });
      } finally {
        setGemmBackend('wasm');
      }
    });
  },
);

describe('without relaxed SIMD', () => {
  const relaxed = wasmApi()?.validate(GEMM_FMA_WASM) === true;

  it.runIf(!relaxed)('the default and setGemmBackend("fma") are the wasm kernel, same bits', () => {
    expect(gemmBackend()).toBe('wasm');
    const [A, B] = [randMat(37, 300, 11), randMat(300, 29, 12)];
    const want = naiveMul(A, B).data;
    expect(setGemmBackend('fma')).toBe('wasm');
    const C: Mat = { rows: 37, cols: 29, data: new Float64Array(37 * 29) };
    expect(Array.from(gemm(A, B, C).data)).toEqual(Array.from(want));
    expect(setGemmBackend('wasm')).toBe('wasm');
    expect(Array.from(gemm(A, B, C).data)).toEqual(Array.from(want));
  });
});

describe('detection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  const real = (globalThis as { WebAssembly?: Record<string, unknown> }).WebAssembly!;
  const isFma = (bytes: Uint8Array): boolean =>
    bytes.length === GEMM_FMA_WASM.length && bytes.every((b, i) => b === GEMM_FMA_WASM[i]);

  /** An engine that accepts gemm-fma.wat and whose relaxed_madd gives `probe` for the probe. */
  function stubEngine(probe: number): void {
    const fake = {};
    const noop = (): void => {};
    const RealModule = real.Module as new (b: Uint8Array) => object;
    const RealInstance = real.Instance as new (m: object, i: object) => object;
    vi.stubGlobal(
      'WebAssembly',
      Object.create(real, {
        validate: { value: () => true },
        Module: {
          value: function (bytes: Uint8Array) {
            return isFma(bytes) ? fake : new RealModule(bytes);
          },
        },
        Instance: {
          value: function (mod: object, imports: object) {
            if (mod !== fake) return new RealInstance(mod, imports);
            return { exports: { block: noop, ta: noop, nn: noop, probe: () => probe } };
          },
        },
      }),
    );
  }

  const fresh = async (): Promise<typeof GemmModule> => {
    vi.resetModules();
    return import('../../../src/core/linalg/gemm');
  };

  it("takes 'fma' where relaxed_madd fuses", async () => {
    stubEngine(-(2 ** -60));
    const g = await fresh();
    expect(g.gemmBackend()).toBe('fma');
    expect(g.setGemmBackend('wasm')).toBe('wasm');
    expect(g.setGemmBackend('fma')).toBe('fma');
  });

  it("stays on 'wasm' where relaxed_madd rounds twice (an engine may lower it so)", async () => {
    stubEngine(0);
    const g = await fresh();
    expect(g.gemmBackend()).toBe('wasm');
    expect(g.setGemmBackend('fma')).toBe('wasm');
  });
});
