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
 */
import { SYMV_WASM } from './wasm/symv-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

/** Which kernel the tridiagonalisation uses. */
export type SymvBackend = 'wasm' | 'ts';

interface SymvWasm {
  readonly symv: (pa: number, n: number, from: number, pu: number, pp: number) => void;
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
    const { symv } = inst.exports;
    const memory = inst.exports.memory as WasmMemory | undefined;
    if (typeof symv !== 'function' || !memory) return null;
    return { symv: symv as SymvWasm['symv'], memory };
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
}

/** The workspace for an n×n matrix, or null when the TypeScript kernel is to be used. */
export function symvWorkspace(n: number): SymvWorkspace | null {
  const w = kernel();
  if (!w || n <= 0) return null;
  const bytes = 8 * (n * n + 2 * n);
  if (bytes > MAX_BYTES) return null;
  const have = w.memory.buffer.byteLength;
  try {
    if (have < bytes) w.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  } catch {
    return null;
  }
  const buf = w.memory.buffer;
  const pu = 8 * n * n;
  const pp = pu + 8 * n;
  return {
    a: new Float64Array(buf, 0, n * n),
    u: new Float64Array(buf, pu, n),
    p: new Float64Array(buf, pp, n),
    run: (from: number): void => w.symv(0, n, from, pu, pp),
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
