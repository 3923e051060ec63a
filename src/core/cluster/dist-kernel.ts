/**
 * k-means' distance columns on WebAssembly SIMD (`wasm/dist.wat`):
 *   D[i·k + j] ← Σ_p (x_ip − c_jp)²   for every row i and the listed centres j,
 * the same bits as the TypeScript loop in kmeans-passes.ts (`updateDistances`: each value summed from
 * zero over p = 0 … d − 1, difference, square and sum as separate IEEE operations), which stays
 * the fallback where the engine has no WebAssembly SIMD or the data would not fit the module's
 * memory.
 *
 * The module has its own memory (one per thread, made on first use): X transposed (d rows of n,
 * so one f64x2 holds two samples' values of a feature), the centres, the distances (n × k) and
 * the centre list. X is copied in when a k-means call (its `owner`, any object) first asks, and
 * again whenever another call took the memory in between; the centres go in on every call and
 * the listed columns of D come back out. X must not change during a call.
 */
import { transposeInto } from '../linalg/dense';
import type { Mat } from '../linalg/types';
import { DIST_WASM } from './wasm/dist-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

/** Which loop computes the distances (`setDistBackend`). */
export type DistBackend = 'wasm' | 'ts';

type DistFn = (
  xt: number,
  n: number,
  d: number,
  c: number,
  D: number,
  k: number,
  chg: number,
  m: number,
) => void;

interface DistWasm {
  readonly dist: DistFn;
  readonly memory: WasmMemory;
  /** The call whose X is in the memory (and its shape), or null. */
  owner: object | null;
  n: number;
  d: number;
  k: number;
}

/** Largest memory the module grows to; larger problems keep the TypeScript loop. */
const MAX_BYTES = 1024 * 2 ** 20;

/** Memory the module may keep after a k-means call (wasm memory never shrinks). */
const KEEP_BYTES = 64 * 2 ** 20;

let want: DistBackend = 'wasm';
let state: DistWasm | null | undefined;

/** Chooses the loop (for tests and benchmarks); returns the one now in use. */
export function setDistBackend(backend: DistBackend): DistBackend {
  want = backend;
  return distBackend();
}

/** The loop in use now ('ts' where WebAssembly SIMD is missing). */
export function distBackend(): DistBackend {
  return kernel() ? 'wasm' : 'ts';
}

function kernel(): DistWasm | null {
  if (want !== 'wasm') return null;
  if (state === undefined) state = instantiate();
  return state;
}

/**
 * Called by kmeans.ts when a call ends: a module whose memory grew past KEEP_BYTES is dropped
 * (and made again, ~1 kB, on the next use) rather than holding X for the rest of the process.
 */
export function trimDistMemory(): void {
  if (state && state.memory.buffer.byteLength > KEEP_BYTES) state = undefined;
}

/** Bytes of the module's memory now (0 before first use); for tests. */
export function distMemoryBytes(): number {
  return state ? state.memory.buffer.byteLength : 0;
}

function instantiate(): DistWasm | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(DIST_WASM)) return null;
    const inst = new api.Instance(new api.Module(DIST_WASM), {});
    const { dist } = inst.exports;
    const memory = inst.exports.memory as DistWasm['memory'] | undefined;
    if (typeof dist !== 'function' || !memory) return null;
    return { dist: dist as DistFn, memory, owner: null, n: 0, d: 0, k: 0 };
  } catch {
    // No SIMD, or a page whose CSP forbids compiling: the TypeScript loop.
    return null;
  }
}

/** Byte offsets of the parts for an n × d X and k centres: Xᵀ, C, D, then the list. */
function layout(
  n: number,
  d: number,
  k: number,
): { c: number; D: number; chg: number; end: number } {
  const c = 8 * n * d;
  const D = c + 8 * k * d;
  const chg = D + 8 * n * k;
  return { c, D, chg, end: chg + 4 * k };
}

/**
 * D's columns changed[0 … m) for the centres C (k × d, row-major) of the rows of X (n × d), D
 * (n × k) row-major; the other columns are left as they are. `owner` identifies the k-means
 * call (X is copied into the module once per owner). Returns false, having done nothing, when
 * the module is unavailable or the problem does not fit it: the caller's loop then does it.
 */
export function distanceColumns(
  owner: object,
  X: Mat,
  C: Float64Array,
  k: number,
  changed: Int32Array,
  m: number,
  D: Float64Array,
): boolean {
  const w = kernel();
  const { rows: n, cols: d } = X;
  if (!w || n === 0 || d === 0 || m === 0) return false;
  const at = layout(n, d, k);
  if (at.end > MAX_BYTES) return false;
  const have = w.memory.buffer.byteLength;
  if (have < at.end) w.memory.grow(Math.ceil((at.end - have) / WASM_PAGE));
  const buf = w.memory.buffer;
  if (w.owner !== owner || w.n !== n || w.d !== d || w.k !== k) {
    transposeInto(X, { rows: d, cols: n, data: new Float64Array(buf, 0, n * d) });
    Object.assign(w, { owner, n, d, k });
  }
  new Float64Array(buf, at.c, k * d).set(C.subarray(0, k * d));
  new Int32Array(buf, at.chg, m).set(changed.subarray(0, m));
  w.dist(0, n, d, at.c, at.D, k, at.chg, m);
  const out = new Float64Array(buf, at.D, n * k);
  if (m === k) D.set(out);
  else copyColumns(out, D, changed, m, n, k);
  return true;
}

// The loops below are functions of their own, so V8 optimises each once instead of
// recompiling `distanceColumns` around them.

/** D's columns changed[0 … m) ← out's (both n × k). */
function copyColumns(
  out: Float64Array,
  D: Float64Array,
  changed: Int32Array,
  m: number,
  n: number,
  k: number,
): void {
  for (let q = 0; q < m; q++) {
    const j = changed[q]!;
    for (let i = 0; i < n; i++) D[i * k + j] = out[i * k + j]!;
  }
}

/** Forgets which call's X is in the module (tests; a call's X may then be copied again). */
export function releaseDistData(): void {
  if (state) state.owner = null;
}
