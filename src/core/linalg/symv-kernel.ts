/**
 * The symmetric matrix-vector product p = S·u of the Householder tridiagonalisation
 * (eigh-tridiag.ts), S the trailing block of a row-major n×n matrix given by its upper triangle.
 *
 * Two kernels:
 * - 'wasm', where the engine has WebAssembly SIMD: wasm/symv.wat. The whole matrix is resident
 *   in the module's memory for the whole reduction (`symvWorkspace` hands out views of it, and
 *   the caller works on those views directly, the GEMM of the trailing update included), so a
 *   product copies nothing but u. Four rows at a time, two columns per f64x2 lane; every stored
 *   entry is loaded once and serves both halves of the triangle;
 * - 'ts', the fallback (and the reference of the tests): `symvUpper`, the same four-row loop in
 *   TypeScript on any Float64Array.
 * Both sum in the same order with separate IEEE operations except that the wasm kernel keeps two
 * partial sums per row (one per lane), so the two agree to rounding, not bit for bit.
 *
 * The same module holds the two products of each step of the Householder bidiagonalisation
 * (bidiag.ts) on an m×n matrix resident there (`gemvWorkspace`): Aᵀu (two rows per pass,
 * columns two per lane) and A·v (four independent row sums, each in order of the columns), the
 * same IEEE operations as the TypeScript loops, so the same bits.
 */
import { SYMV_WASM } from './wasm/symv-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

/** Which kernel the tridiagonalisation uses. */
export type SymvBackend = 'wasm' | 'ts';

interface SymvWasm {
  readonly symv: (pa: number, n: number, from: number, pu: number, pp: number) => void;
  /** `gemvT(pa, ld, r0, r1, c0, c1, pu, py)` and `gemv(pa, ld, r0, r1, c0, c1, pv, px)`. */
  readonly gemvT: (...args: number[]) => void;
  readonly gemv: (...args: number[]) => void;
  /** `rank2(px, py, ldb, count, c0, c1, pal, pbe, cs, pout)`. */
  readonly rank2: (...args: number[]) => void;
  readonly memory: WasmMemory;
}

/** Largest memory the kernel grows to (n ≈ 11,500); larger matrices take the TypeScript kernel. */
const MAX_BYTES = 1024 * 2 ** 20;

/**
 * Memory the module may keep between reductions: wasm memory never shrinks, so after a larger
 * matrix the instance is dropped (and made again, ~1 kB, on the next use) rather than holding
 * up to MAX_BYTES for the rest of the process.
 */
const KEEP_BYTES = 64 * 2 ** 20;

let want: SymvBackend = 'wasm';
let state: SymvWasm | null | undefined;

/** Chooses the kernel (for tests and benchmarks); returns the one now in use. */
export function setSymvBackend(backend: SymvBackend): SymvBackend {
  want = backend;
  return symvBackend();
}

/** The kernel in use now ('ts' where WebAssembly SIMD is missing). */
export function symvBackend(): SymvBackend {
  return kernel() ? 'wasm' : 'ts';
}

function kernel(): SymvWasm | null {
  if (want !== 'wasm') return null;
  if (state === undefined) state = instantiate();
  return state;
}

function instantiate(): SymvWasm | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(SYMV_WASM)) return null;
    const inst = new api.Instance(new api.Module(SYMV_WASM), {});
    const { symv, gemvT, gemv, rank2 } = inst.exports;
    const memory = inst.exports.memory as WasmMemory | undefined;
    const fns = [symv, gemvT, gemv, rank2];
    if (fns.some((f) => typeof f !== 'function') || !memory) return null;
    return {
      symv: symv as SymvWasm['symv'],
      gemvT: gemvT as SymvWasm['gemvT'],
      gemv: gemv as SymvWasm['gemv'],
      rank2: rank2 as SymvWasm['rank2'],
      memory,
    };
  } catch {
    return null;
  }
}

/**
 * A matrix resident in the wasm module: `a` (n·n), `u` and `p` (n each) are views of its memory,
 * valid until the next `symvWorkspace` call (which may grow the memory and so detach them).
 * `run(from)` sets p[from..n) ← S·u[from..n) for S = a[from.., from..] (upper triangle read).
 */
export interface SymvWorkspace {
  readonly a: Float64Array;
  readonly u: Float64Array;
  readonly p: Float64Array;
  run(from: number): void;
  /**
   * The panel of the blocked reduction (eigh-tridiag.ts), `vw` (2h×n: rows 0…h−1 the V_j, rows
   * h…2h−1 the W_j, h = `half`) and `dots` (2h), with three products giving the bits of that
   * file's TypeScript loops:
   * - `panelDots(i, from)`: dots[j] = Σ_c V_j[c]·V_i[c], dots[h+j] = Σ_c W_j[c]·V_i[c] over
   *   from ≤ c < n for j < i, each sum from 0 in order of c;
   * - `panelP(i, from)`: p_c ← p_c − (V_j[c]·dots[h+j] + W_j[c]·dots[j]) for j = 0 … i−1 in turn;
   * - `panelRow(k, i)`: a[k, c] ← a[k, c] − (W_j[c]·V_j[k] + V_j[c]·W_j[k]) for j = 0 … i−1 in
   *   turn, k ≤ c < n.
   */
  readonly vw: Float64Array;
  readonly dots: Float64Array;
  readonly half: number;
  panelDots(i: number, from: number): void;
  panelP(i: number, from: number): void;
  panelRow(k: number, i: number): void;
}

/**
 * The workspace for an n×n matrix (with a panel of 2·`half` rows), or null when the TypeScript
 * kernels are to be used.
 */
export function symvWorkspace(n: number, half = 0): SymvWorkspace | null {
  const w = n > 0 ? kernelWithMemory(8 * (n * n + 2 * n + 2 * half * (n + 1))) : null;
  if (!w) return null;
  const buf = w.memory.buffer;
  const pu = 8 * n * n;
  const pp = pu + 8 * n;
  const pv = pp + 8 * n;
  const pw = pv + 8 * half * n;
  const pd = pw + 8 * half * n;
  const ldb = 8 * n;
  return {
    a: new Float64Array(buf, 0, n * n),
    u: new Float64Array(buf, pu, n),
    p: new Float64Array(buf, pp, n),
    run: (from: number): void => w.symv(0, n, from, pu, pp),
    vw: new Float64Array(buf, pv, 2 * half * n),
    dots: new Float64Array(buf, pd, 2 * half),
    half,
    panelDots: (i, from): void => {
      w.gemv(pv, n, 0, i, from, n, pv + i * ldb, pd);
      w.gemv(pv, n, half, half + i, from, n, pv + i * ldb, pd);
    },
    panelP: (i, from): void => w.rank2(pv, pw, ldb, i, from, n, pd + 8 * half, pd, 8, pp),
    panelRow: (k, i): void => w.rank2(pw, pv, ldb, i, k, n, pv + 8 * k, pw + 8 * k, ldb, k * ldb),
  };
}

/** The kernel with at least `bytes` of memory, or null (no kernel, too large, growth refused). */
function kernelWithMemory(bytes: number): SymvWasm | null {
  const w = kernel();
  if (!w || bytes > MAX_BYTES) return null;
  const have = w.memory.buffer.byteLength;
  try {
    if (have < bytes) w.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  } catch {
    return null;
  }
  return w;
}

/**
 * An m×n row-major matrix resident in the same module, for the matrix-vector products of the
 * Householder bidiagonalisation (bidiag.ts): `a` (m·n), `u` and `x` (m), `y` and `t` (n) are
 * views of its memory, valid until the next workspace call. Rows and columns are global
 * indices of `a`; both products give the bits of bidiag.ts's TypeScript loops.
 */
export interface GemvWorkspace {
  readonly a: Float64Array;
  readonly u: Float64Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly t: Float64Array;
  /**
   * out[c] += Σ_{r0≤r<r1} u_r·a[r, c] for c0 ≤ c < c1, out = y or t: rows two at a time,
   * out_c ← out_c + (u_r·a_rc + u_{r+1}·a_{r+1,c}), an odd last row alone.
   */
  gemvT(r0: number, r1: number, c0: number, c1: number, out: 'y' | 't'): void;
  /** x_r ← Σ_{c0≤c<c1} a[r, c]·a[v, c] (row v of a), summed from 0 in order of c, r0 ≤ r < r1. */
  gemv(r0: number, r1: number, c0: number, c1: number, v: number): void;
}

/** The workspace for an m×n matrix, or null when the TypeScript loops are to be used. */
export function gemvWorkspace(m: number, n: number): GemvWorkspace | null {
  const w = m > 0 && n > 0 ? kernelWithMemory(8 * (m * n + 2 * m + 2 * n)) : null;
  if (!w) return null;
  const buf = w.memory.buffer;
  const pu = 8 * m * n;
  const px = pu + 8 * m;
  const py = px + 8 * m;
  const pt = py + 8 * n;
  return {
    a: new Float64Array(buf, 0, m * n),
    u: new Float64Array(buf, pu, m),
    x: new Float64Array(buf, px, m),
    y: new Float64Array(buf, py, n),
    t: new Float64Array(buf, pt, n),
    gemvT: (r0, r1, c0, c1, out): void => w.gemvT(0, n, r0, r1, c0, c1, pu, out === 'y' ? py : pt),
    gemv: (r0, r1, c0, c1, v): void => w.gemv(0, n, r0, r1, c0, c1, 8 * v * n, px),
  };
}

/** Frees the module's memory when it grew past KEEP_BYTES; views of it must not be used after. */
export function trimSymvMemory(): void {
  if (state && state.memory.buffer.byteLength > KEEP_BYTES) state = undefined;
}

/**
 * p[from..n) = S·u for the symmetric S = a[from.., from..] stored in its upper triangle: entry
 * a_ij (j > i) contributes a_ij·u_j to p_i and a_ij·u_i to p_j. Four rows at a time, so each
 * load of u_j and p_j serves four entries; every entry is read once. 4 flops per entry.
 */
export function symvUpper(
  a: Float64Array,
  n: number,
  from: number,
  u: Float64Array,
  p: Float64Array,
): void {
  p.fill(0, from, n);
  let i = from;
  for (; i + 3 < n; i += 4) {
    const r0 = i * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    const u0 = u[i]!;
    const u1 = u[i + 1]!;
    const u2 = u[i + 2]!;
    const u3 = u[i + 3]!;
    // The 4×4 diagonal block, from its upper triangle.
    const a01 = a[r0 + i + 1]!;
    const a02 = a[r0 + i + 2]!;
    const a03 = a[r0 + i + 3]!;
    const a12 = a[r1 + i + 2]!;
    const a13 = a[r1 + i + 3]!;
    const a23 = a[r2 + i + 3]!;
    let acc0 = a[r0 + i]! * u0 + a01 * u1 + a02 * u2 + a03 * u3;
    let acc1 = a01 * u0 + a[r1 + i + 1]! * u1 + a12 * u2 + a13 * u3;
    let acc2 = a02 * u0 + a12 * u1 + a[r2 + i + 2]! * u2 + a23 * u3;
    let acc3 = a03 * u0 + a13 * u1 + a23 * u2 + a[r3 + i + 3]! * u3;
    for (let j = i + 4; j < n; j = (j + 1) | 0) {
      const x0 = a[(r0 + j) | 0]!;
      const x1 = a[(r1 + j) | 0]!;
      const x2 = a[(r2 + j) | 0]!;
      const x3 = a[(r3 + j) | 0]!;
      const uj = u[j]!;
      acc0 += x0 * uj;
      acc1 += x1 * uj;
      acc2 += x2 * uj;
      acc3 += x3 * uj;
      p[j]! += x0 * u0 + x1 * u1 + (x2 * u2 + x3 * u3);
    }
    p[i]! += acc0;
    p[i + 1]! += acc1;
    p[i + 2]! += acc2;
    p[i + 3]! += acc3;
  }
  for (; i < n; i++) {
    const r = i * n;
    const ui = u[i]!;
    let acc = a[r + i]! * ui;
    for (let j = i + 1; j < n; j++) {
      const x = a[r + j]!;
      acc += x * u[j]!;
      p[j]! += x * ui;
    }
    p[i]! += acc;
  }
}
