/**
 * Hamerly's reassignment scan fused in one WebAssembly SIMD pass (`wasm/hamerly.wat`): per row
 * the own distance, the bound test, a failing row's distances to every centre (two centres per
 * f64x2) with its move and new bound, and the next centres' sums, the same IEEE operations in
 * the same order as `boundedScan`'s TypeScript loop (kmeans-bounds.ts), so the same bits. That
 * loop stays the fallback where the engine has no WebAssembly SIMD or the data would not fit.
 *
 * The module has its own memory (one per thread, made on first use). X (row-major) is copied in
 * when a k-means call (its `owner`, the call's Work) first asks, and again whenever another call
 * took the memory in between; X must not change during a call. Per scan the centres (plain and
 * paired), the labels, bounds, sums and counts go in (O(n + k·d)), the bounds, sums, counts
 * and moves come back out.
 */
import { HAMERLY_WASM } from './wasm/hamerly-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';
import type { Work } from './kmeans-work';

/** Which loop runs Hamerly's scan (`setHamerlyBackend`). */
export type HamerlyBackend = 'wasm' | 'ts';

type ScanFn = (
  x: number,
  n: number,
  d: number,
  c: number,
  cp: number,
  k: number,
  half: number,
  labels: number,
  lower: number,
  sums: number,
  counts: number,
  mv: number,
  out: number,
  row: number,
  max1: number,
  max2: number,
  arg1: number,
  skipUp: number,
  slackUp: number,
  slackDown: number,
  sse: number,
) => number;

interface HamerlyWasm {
  readonly scan: ScanFn;
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

let want: HamerlyBackend = 'wasm';
let state: HamerlyWasm | null | undefined;

/** Chooses the loop (tests and benchmarks); returns the one now in use. */
export function setHamerlyBackend(backend: HamerlyBackend): HamerlyBackend {
  want = backend;
  return hamerlyBackend();
}

/** The loop in use now ('ts' where WebAssembly SIMD is missing). */
export function hamerlyBackend(): HamerlyBackend {
  return kernel() ? 'wasm' : 'ts';
}

function kernel(): HamerlyWasm | null {
  if (want !== 'wasm') return null;
  if (state === undefined) state = instantiate();
  return state;
}

/**
 * Called by kmeans.ts when a call ends: a module whose memory grew past KEEP_BYTES is dropped
 * (and made again, ~1 kB, on the next use) rather than holding X for the rest of the process.
 */
export function trimHamerlyMemory(): void {
  if (state && state.memory.buffer.byteLength > KEEP_BYTES) state = undefined;
}

/** Bytes of the module's memory now (0 before first use); for tests. */
export function hamerlyMemoryBytes(): number {
  return state ? state.memory.buffer.byteLength : 0;
}

function instantiate(): HamerlyWasm | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(HAMERLY_WASM)) return null;
    const inst = new api.Instance(new api.Module(HAMERLY_WASM), {});
    const { scan } = inst.exports;
    const memory = inst.exports.memory as HamerlyWasm['memory'] | undefined;
    if (typeof scan !== 'function' || !memory) return null;
    return { scan: scan as ScanFn, memory, owner: null, n: 0, d: 0, k: 0 };
  } catch {
    // No SIMD, or a page whose CSP forbids compiling: the TypeScript loop.
    return null;
  }
}

/** Byte offsets of the parts (f64 parts first, 16-byte aligned; the i32 parts last). */
interface Layout {
  c: number;
  cp: number;
  half: number;
  lower: number;
  sums: number;
  counts: number;
  row: number;
  labels: number;
  mv: number;
  out: number;
  end: number;
}

function layout(n: number, d: number, k: number): Layout {
  const up = (b: number): number => Math.ceil(b / 16) * 16;
  const pairs = Math.ceil(k / 2);
  const c = up(8 * n * d);
  const cp = up(c + 8 * k * d);
  const half = up(cp + 16 * pairs * d);
  const lower = up(half + 8 * k);
  const sums = up(lower + 8 * n);
  const counts = up(sums + 8 * k * d);
  const row = up(counts + 8 * k);
  const labels = up(row + 16 * pairs);
  const mv = up(labels + 4 * n);
  const out = up(mv + 8 * n);
  return { c, cp, half, lower, sums, counts, row, labels, mv, out, end: out + 16 };
}

/** The scan's constants and the centre moves, as `boundedScan` computes them. */
export interface ScanArgs {
  max1: number;
  max2: number;
  arg1: number;
  skipUp: number;
  slackUp: number;
  slackDown: number;
}

/**
 * Hamerly's scan of w on the module: updates w.lower, w.nextSums, w.nextCounts, w.sse,
 * w.moves (with w.moveRow, w.moveTo) and w.unskipped exactly as `boundedScan`'s loop. Returns
 * false, having done nothing, when the module is unavailable or the problem does not fit it.
 */
export function hamerlyScan(w: Work, a: ScanArgs): boolean {
  const m = kernel();
  const { X, k } = w;
  const { rows: n, cols: d } = X;
  if (!m || n === 0) return false;
  const at = layout(n, d, k);
  if (at.end > MAX_BYTES) return false;
  const have = m.memory.buffer.byteLength;
  if (have < at.end) m.memory.grow(Math.ceil((at.end - have) / WASM_PAGE));
  const buf = m.memory.buffer;
  if (m.owner !== w || m.n !== n || m.d !== d || m.k !== k) {
    new Float64Array(buf, 0, n * d).set(X.data.subarray(0, n * d));
    Object.assign(m, { owner: w, n, d, k });
  }
  new Float64Array(buf, at.c, k * d).set(w.C.subarray(0, k * d));
  pairCentres(w.C, new Float64Array(buf, at.cp, 2 * Math.ceil(k / 2) * d), k, d);
  new Float64Array(buf, at.half, k).set(w.half);
  const lower = new Float64Array(buf, at.lower, n);
  lower.set(w.lower);
  const sums = new Float64Array(buf, at.sums, k * d);
  sums.set(w.nextSums);
  const counts = new Float64Array(buf, at.counts, k);
  counts.set(w.nextCounts);
  new Int32Array(buf, at.labels, n).set(w.labels);
  const out = new Int32Array(buf, at.out, 2);
  const moves0 = w.moves;
  out[0] = moves0;
  w.sse = m.scan(
    0,
    n,
    d,
    at.c,
    at.cp,
    k,
    at.half,
    at.labels,
    at.lower,
    at.sums,
    at.counts,
    at.mv,
    at.out,
    at.row,
    a.max1,
    a.max2,
    a.arg1,
    a.skipUp,
    a.slackUp,
    a.slackDown,
    w.sse,
  );
  w.lower.set(lower);
  w.nextSums.set(sums);
  w.nextCounts.set(counts);
  w.moves = out[0]!;
  w.unskipped = out[1]!;
  unpackMoves(new Int32Array(buf, at.mv, 2 * n), w.moveRow, w.moveTo, moves0, w.moves);
  return true;
}

// The loops below are functions of their own, so V8 optimises each once.

/** cp[(b·d + p)·2 + lane] = C[(2b + lane)·d + p]; an odd k's last lane repeats centre k − 1. */
function pairCentres(C: Float64Array, cp: Float64Array, k: number, d: number): void {
  for (let j = 0; j < 2 * Math.ceil(k / 2); j++) {
    const src = Math.min(j, k - 1) * d;
    const dst = (j >> 1) * 2 * d + (j & 1);
    for (let p = 0; p < d; p++) cp[dst + 2 * p] = C[src + p]!;
  }
}

/** moveRow/moveTo[q] for q in [from, to) from the module's (row, target) pairs. */
function unpackMoves(
  mv: Int32Array,
  moveRow: Int32Array,
  moveTo: Int32Array,
  from: number,
  to: number,
): void {
  for (let q = from; q < to; q++) {
    moveRow[q] = mv[2 * q]!;
    moveTo[q] = mv[2 * q + 1]!;
  }
}

/** Forgets which call's X is in the module (tests; a call's X may then be copied again). */
export function releaseHamerlyData(): void {
  if (state) state.owner = null;
}
