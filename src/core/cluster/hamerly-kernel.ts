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
 * and moves come back out. A call with helper threads splits the scan (`hamerlySplitScan`): a
 * helper scans the last rows on its own module (those rows of X resident there under the
 * call's id) and gives back each row's target and own distance through shared memory; the
 * calling thread adds their sums after its own rows' with the module's `add`, in row order.
 */
import { HAMERLY_WASM } from './wasm/hamerly-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';
import { float64Array } from '../parallel';
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
  owns: number,
) => number;

type AddFn = (
  x: number,
  n: number,
  d: number,
  targets: number,
  owns: number,
  sums: number,
  counts: number,
  sse: number,
) => number;

interface HamerlyWasm {
  readonly scan: ScanFn;
  readonly add: AddFn;
  readonly memory: WasmMemory;
  /**
   * The call whose X rows are in the memory (its Work here, its token on a helper), the first
   * of those rows, their count and the shape; owner null when none.
   */
  owner: object | number | null;
  r0: number;
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
    const { scan, add } = inst.exports;
    const memory = inst.exports.memory as HamerlyWasm['memory'] | undefined;
    if (typeof scan !== 'function' || typeof add !== 'function' || !memory) return null;
    return {
      scan: scan as ScanFn,
      add: add as AddFn,
      memory,
      owner: null,
      r0: 0,
      n: 0,
      d: 0,
      k: 0,
    };
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
  owns: number;
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
  const owns = up(lower + 8 * n);
  const sums = up(owns + 8 * n);
  const counts = up(sums + 8 * k * d);
  const row = up(counts + 8 * k);
  const labels = up(row + 16 * pairs);
  const mv = up(labels + 4 * n);
  const out = up(mv + 8 * n);
  return { c, cp, half, lower, owns, sums, counts, row, labels, mv, out, end: out + 16 };
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

/** One scan's inputs: `rows` rows' labels and bounds (the first rows of these), the centres. */
interface ScanIn {
  rows: number;
  d: number;
  k: number;
  C: Float64Array;
  half: Float64Array;
  labels: Int32Array;
  lower: Float64Array;
}

/**
 * Grows m's memory for `rows` rows and makes those rows of X resident under `key` (from
 * `xRows` when they are not, or false when they are not and `xRows` is null); the layout.
 */
function resident(
  m: HamerlyWasm,
  key: object | number,
  r0: number,
  rows: number,
  xRows: (() => Float64Array) | null,
  d: number,
  k: number,
): Layout | false {
  const at = layout(rows, d, k);
  if (m.owner !== key || m.r0 !== r0 || m.n !== rows || m.d !== d || m.k !== k) {
    if (!xRows) return false;
    const have = m.memory.buffer.byteLength;
    if (have < at.end) m.memory.grow(Math.ceil((at.end - have) / WASM_PAGE));
    new Float64Array(m.memory.buffer, 0, rows * d).set(xRows());
    Object.assign(m, { owner: key, r0, n: rows, d, k });
  }
  return at;
}

/** The whole of w's X resident in m (this thread's call); its layout. */
function residentCall(m: HamerlyWasm, w: Work): Layout {
  const { rows: n, cols: d, data } = w.X;
  return resident(m, w, 0, n, () => data.subarray(0, n * d), d, w.k) as Layout;
}

/**
 * The module's scan of the first s.rows rows of its resident X (`at` its layout), moves
 * numbered from `moves0`. With `sums` the next centres' sums (already in the module) are
 * accumulated as in the plain scan; without, the module writes each row's own distance and
 * target instead (a helper's share, whose sums the caller adds in row order). Returns the SSE
 * from `sse`.
 */
function runScan(
  m: HamerlyWasm,
  at: Layout,
  s: ScanIn,
  a: ScanArgs,
  sums: boolean,
  sse: number,
  moves0: number,
): number {
  const { rows: n, d, k } = s;
  const buf = m.memory.buffer;
  new Float64Array(buf, at.c, k * d).set(s.C.subarray(0, k * d));
  pairCentres(s.C, new Float64Array(buf, at.cp, 2 * Math.ceil(k / 2) * d), k, d);
  new Float64Array(buf, at.half, k).set(s.half);
  new Float64Array(buf, at.lower, n).set(s.lower.subarray(0, n));
  new Int32Array(buf, at.labels, n).set(s.labels.subarray(0, n));
  new Int32Array(buf, at.out, 2)[0] = moves0;
  return m.scan(
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
    sse,
    sums ? 0 : at.owns,
  );
}

/** w's next sums and counts into the module (before a scan that adds to them). */
function putSums(m: HamerlyWasm, at: Layout, w: Work): void {
  const d = w.X.cols;
  new Float64Array(m.memory.buffer, at.sums, w.k * d).set(w.nextSums);
  new Float64Array(m.memory.buffer, at.counts, w.k).set(w.nextCounts);
}

/**
 * After a scan of w's first `rows` rows on the module (moves numbered from moves0): their
 * bounds, the sums and counts, the moves and the rows not skipped, back into w.
 */
function readBack(m: HamerlyWasm, at: Layout, w: Work, rows: number, moves0: number): void {
  const buf = m.memory.buffer;
  const d = w.X.cols;
  w.lower.set(new Float64Array(buf, at.lower, rows));
  w.nextSums.set(new Float64Array(buf, at.sums, w.k * d));
  w.nextCounts.set(new Float64Array(buf, at.counts, w.k));
  const out = new Int32Array(buf, at.out, 2);
  w.moves = out[0]!;
  w.unskipped += out[1]!;
  unpackMoves(
    new Int32Array(buf, at.mv, 2 * rows),
    w.moveRow,
    w.moveTo,
    moves0,
    w.moves,
    moves0,
    0,
  );
}

/** w's scan state as the module's scan reads it, on its first `rows` rows. */
function scanIn(w: Work, rows: number): ScanIn {
  return {
    rows,
    d: w.X.cols,
    k: w.k,
    C: w.C,
    half: w.half,
    labels: w.labels,
    lower: w.lower,
  };
}

/**
 * Hamerly's scan of w on the module: updates w.lower, w.nextSums, w.nextCounts, w.sse,
 * w.moves (with w.moveRow, w.moveTo) and adds to w.unskipped exactly as `boundedScan`'s loop.
 * Returns false, having done nothing, when the module is unavailable or the problem does not
 * fit it.
 */
export function hamerlyScan(w: Work, a: ScanArgs): boolean {
  const m = kernel();
  const { rows: n, cols: d } = w.X;
  if (!m || n === 0 || layout(n, d, w.k).end > MAX_BYTES) return false;
  const at = residentCall(m, w);
  const moves0 = w.moves;
  putSums(m, at, w);
  w.sse = runScan(m, at, scanIn(w, n), a, true, w.sse, moves0);
  readBack(m, at, w, n, moves0);
  return true;
}

/**
 * A helper's rows r0 … n − 1 of a split scan, in shared memory (`SharedArrayBuffer`): their
 * labels and bounds go to the helper in `labels` and `lower`; it gives back in place the
 * targets, the new bounds, each row's own distance in `owns` and its moves (row − r0,
 * target) in `moves`.
 */
export interface SplitRows {
  readonly r0: number;
  readonly labels: Int32Array;
  readonly lower: Float64Array;
  readonly owns: Float64Array;
  readonly moves: Int32Array;
}

/** Input of the helper task 'kmeans.hamerly' (`core/tasks.ts`). */
export interface HamerlyTaskInput {
  /** The call (`Work.id`): X's rows stay resident in the helper's module under it. */
  readonly token: number;
  readonly rows: number;
  readonly d: number;
  readonly k: number;
  /** X's rows r0 … r0 + rows − 1, sent only when the helper asked for them (it returned null). */
  readonly X: Float64Array | null;
  readonly C: Float64Array;
  readonly half: Float64Array;
  readonly split: SplitRows;
  readonly args: ScanArgs;
}

/**
 * A helper's share of a split scan (`hamerlySplitScan`): fills input.split in place and
 * returns [moves, rows not skipped]; null when its X rows are not resident (or no module).
 */
export function hamerlyTask(input: HamerlyTaskInput): [number, number] | null {
  const m = kernel();
  const { token, rows, d, k, X, split } = input;
  if (!m || layout(rows, d, k).end > MAX_BYTES) return null;
  const at = resident(m, token, split.r0, rows, X ? () => X : null, d, k);
  if (!at) return null;
  const s: ScanIn = { rows, d, k, C: input.C, half: input.half, ...split };
  runScan(m, at, s, input.args, false, 0, 0);
  const buf = m.memory.buffer;
  const [moves, unskipped] = new Int32Array(buf, at.out, 2) as unknown as [number, number];
  split.labels.set(new Int32Array(buf, at.labels, rows));
  split.owns.set(new Float64Array(buf, at.owns, rows));
  split.lower.set(new Float64Array(buf, at.lower, rows));
  split.moves.set(new Int32Array(buf, at.mv, 2 * moves));
  return [moves, unskipped];
}

/** Share of the rows the calling thread scans itself when a helper takes the rest. */
const OWN_SHARE = 0.4;

/** w's split buffers for rows r0 … n − 1 (made on first use in a call). */
function splitRows(w: Work, r0: number): SplitRows {
  if (w.split && w.split.r0 === r0) return w.split;
  const m = w.X.rows - r0;
  const i32 = (len: number): Int32Array => new Int32Array(new SharedArrayBuffer(4 * len));
  w.split = {
    r0,
    labels: i32(m),
    lower: float64Array(m, true),
    owns: float64Array(m, true),
    moves: i32(2 * m),
  };
  return w.split;
}

/**
 * Hamerly's scan split with helper 0 of w.pool: this thread scans the first OWN_SHARE of the
 * rows on its module, the helper the rest on its own (its X rows resident there across the
 * call's iterations); the helper's own distances and sums are then added here, in row order,
 * by the module's `add`, so every output has the bits of the one-thread scan. False, having
 * done nothing, when there is no pool, module or shared memory, or the problem does not fit.
 */
export function hamerlySplitScan(w: Work, a: ScanArgs): boolean {
  const pool = w.pool;
  const m = kernel();
  const { X, k } = w;
  const { rows: n, cols: d } = X;
  const r0 = Math.round(OWN_SHARE * n);
  if (!pool || !m || typeof SharedArrayBuffer !== 'function') return false;
  if (r0 < 1 || r0 >= n || layout(n, d, k).end > MAX_BYTES) return false;
  const split = splitRows(w, r0);
  split.labels.set(w.labels.subarray(r0));
  split.lower.set(w.lower.subarray(r0));
  const input = (withX: boolean): HamerlyTaskInput => ({
    token: w.id,
    rows: n - r0,
    d,
    k,
    X: withX ? X.data.slice(r0 * d, n * d) : null,
    C: w.C,
    half: w.half,
    split,
    args: a,
  });
  pool.start(0, 'kmeans.hamerly', input(false));
  const moves0 = w.moves;
  let out: [number, number] | null = null;
  let error: unknown = null;
  try {
    const at = residentCall(m, w);
    putSums(m, at, w);
    w.sse = runScan(m, at, scanIn(w, r0), a, true, w.sse, moves0);
    readBack(m, at, w, r0, moves0);
  } catch (e) {
    error = e;
  }
  try {
    out = pool.finish(0) as [number, number] | null;
    if (out === null && error === null) {
      pool.start(0, 'kmeans.hamerly', input(true));
      out = pool.finish(0) as [number, number] | null;
    }
  } catch (e) {
    error ??= e;
  }
  if (error !== null) throw error;
  if (!out) throw new Error('kmeans: a helper thread could not run the Hamerly scan');
  const [moves, unskipped] = out;
  w.lower.set(split.lower, r0);
  const from = w.moves;
  w.moves += moves;
  unpackMoves(split.moves, w.moveRow, w.moveTo, from, w.moves, 0, r0);
  w.unskipped += unskipped;
  // The helper's rows' SSE terms, counts and sums after this thread's rows, in row order (X
  // made resident again in case this thread's module ran the helper's share too: tests).
  const at = residentCall(m, w);
  putSums(m, at, w);
  const buf = m.memory.buffer;
  const rest = n - r0;
  new Int32Array(buf, at.labels + 4 * r0, rest).set(split.labels);
  new Float64Array(buf, at.owns + 8 * r0, rest).set(split.owns);
  const x = 8 * r0 * d;
  w.sse = m.add(x, rest, d, at.labels + 4 * r0, at.owns + 8 * r0, at.sums, at.counts, w.sse);
  w.nextSums.set(new Float64Array(buf, at.sums, k * d));
  w.nextCounts.set(new Float64Array(buf, at.counts, k));
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

/**
 * moveRow/moveTo[q] for q in [from, to) from (row − r0, target) pairs, pair `from` at 2·at in
 * mv (the module numbers its pairs from the moves so far, a helper's from 0).
 */
function unpackMoves(
  mv: Int32Array,
  moveRow: Int32Array,
  moveTo: Int32Array,
  from: number,
  to: number,
  at: number,
  r0: number,
): void {
  for (let q = from; q < to; q++) {
    const o = 2 * (q - from + at);
    moveRow[q] = mv[o]! + r0;
    moveTo[q] = mv[o + 1]!;
  }
}

/** Forgets which call's X is in the module (tests; a call's X may then be copied again). */
export function releaseHamerlyData(): void {
  if (state) state.owner = null;
}
