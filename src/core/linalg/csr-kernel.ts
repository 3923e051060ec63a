/**
 * y (rows × b) ← S·x (S.cols × b) for a CSR matrix S and row-major blocks: the product behind
 * `csrOp`, the hot loop of the block eigensolvers on graphs (spectral embeddings, CGL's H-step).
 *
 * Two kernels computing the same bits (each value is Σ_p s_p·x[i_p, j] summed from zero in the
 * order of the row's entries, no fused multiply-add):
 * - 'wasm', where the engine has WebAssembly SIMD: wasm/csr.wat, two columns per f64x2 lane,
 *   eight columns per pass over a row's entries. The module has its own memory holding the last
 *   S used (copied in when another S comes), x and y (copied in and out per product, 2·n·b
 *   values against the kernel's 2·nnz·b flops). A square S of n ≥ 8192 rows is stored in a
 *   bandwidth-reducing order (reverse Cuthill–McKee, `graph/reorder.ts`'s
 *   `rcmOrder`, computed once per S and cached), x's rows gathered
 *   into it and y's scattered back by the module;
 * - 'ts', the fallback: the same loop in TypeScript with the partial sums in locals.
 * Measured on CGL's HW graphs (n = 2000, nnz ≈ 41,000, b = 10): see `npm run bench -- linalg`.
 *
 * S must not be modified after its first product (its stored form is cached per object): the
 * solvers' graphs are built once and never modified.
 */
import { rcmOrder } from '../graph/reorder';
import type { Csr } from './types';
import { CSR_WASM } from './wasm/csr-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

/** Which kernel `csrTimesBlock` uses. */
export type CsrBackend = 'wasm' | 'ts';

interface CsrWasm {
  readonly spmm: (...args: number[]) => void;
  readonly cheb: (...args: number[]) => void;
  readonly defl: (...args: number[]) => void;
  readonly rows: (...args: number[]) => void;
  readonly memory: WasmMemory;
  /** The S whose arrays lie at the start of the memory, and the byte offsets of its parts. */
  last: Csr | null;
  /** perm[i] = the row of S stored as row i (null: S as it is; see `prepared`), kept at pq. */
  perm: Int32Array | null;
  pq: number;
  pp: number;
  pi: number;
  pv: number;
  /** First byte after S (8-aligned): x, then y. */
  end: number;
}

/** Largest memory the kernel will grow to; larger products take the TypeScript kernel. */
const MAX_BYTES = 1024 * 2 ** 20;
let maxBytes = MAX_BYTES;

let want: CsrBackend = 'wasm';
let state: CsrWasm | null | undefined;

/**
 * Sets the largest memory the kernel will grow to (null: the default, MAX_BYTES), for tests of
 * the routes taken past it.
 */
export function setCsrMemoryLimit(bytes: number | null): void {
  maxBytes = bytes ?? MAX_BYTES;
}

/** Chooses the kernel (for tests and benchmarks); returns the one now in use. */
export function setCsrBackend(backend: CsrBackend): CsrBackend {
  want = backend;
  return csrBackend();
}

/** The kernel in use now ('ts' where WebAssembly SIMD is missing). */
export function csrBackend(): CsrBackend {
  return kernel() ? 'wasm' : 'ts';
}

function kernel(): CsrWasm | null {
  if (want !== 'wasm') return null;
  if (state === undefined) state = instantiate();
  return state;
}

function instantiate(): CsrWasm | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(CSR_WASM)) return null;
    const inst = new api.Instance(new api.Module(CSR_WASM), {});
    const { spmm, rows, cheb, defl } = inst.exports;
    const memory = inst.exports.memory as CsrWasm['memory'] | undefined;
    if (
      typeof spmm !== 'function' ||
      typeof rows !== 'function' ||
      typeof cheb !== 'function' ||
      typeof defl !== 'function' ||
      !memory
    )
      return null;
    return {
      spmm: spmm as CsrWasm['spmm'],
      cheb: cheb as CsrWasm['cheb'],
      defl: defl as CsrWasm['defl'],
      rows: rows as CsrWasm['rows'],
      memory,
      last: null,
      perm: null,
      pq: 0,
      pp: 0,
      pi: 0,
      pv: 0,
      end: 0,
    };
  } catch {
    return null;
  }
}

const align8 = (x: number): number => (x + 7) & ~7;

/** Grows the memory to at least `bytes`; false when that would pass MAX_BYTES. */
function reserve(w: CsrWasm, bytes: number): boolean {
  if (bytes > maxBytes) return false;
  const have = w.memory.buffer.byteLength;
  if (have < bytes) w.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  return true;
}

/**
 * Square matrices from this size on are stored in a bandwidth-reducing order: a kNN graph in
 * file order makes S·x read rows of x scattered over memory, and once x outgrows the caches
 * (n·b·8 bytes: 2.5 MB at n = 20,000, b = 16) each entry is a cache miss.
 */
const BAND_MIN = 8192;

/** S as the kernel stores it: in a band order (rows and columns renumbered) or as it is. */
interface Stored {
  readonly perm: Int32Array | null;
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

/**
 * Each S's stored form, made once: the solvers alternate between a few matrices (CGL's H-step
 * goes through the views' graphs every pass), so the order is computed once per matrix and a
 * switch costs only the copy into the module's memory.
 */
const STORED = new WeakMap<Csr, Stored>();

function prepared(S: Csr): Stored {
  let st = STORED.get(S);
  if (st) return st;
  const n = S.rows;
  const nnz = S.indptr[n]!;
  const perm = S.rows === S.cols && n >= BAND_MIN ? rcmOrder(S) : null;
  if (!perm) {
    st = { perm, indptr: S.indptr, indices: S.indices, values: S.data };
  } else {
    const inv = new Int32Array(n);
    for (let i = 0; i < n; i++) inv[perm[i]!] = i;
    const indptr = new Int32Array(n + 1);
    const indices = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    for (let i = 0, q = 0; i < n; i++) {
      for (let p = S.indptr[perm[i]!]!; p < S.indptr[perm[i]! + 1]!; p++) {
        indices[q] = inv[S.indices[p]!]!;
        values[q++] = S.data[p]!;
      }
      indptr[i + 1] = q;
    }
    st = { perm, indptr, indices, values };
  }
  STORED.set(S, st);
  return st;
}

/** Puts S (its stored form) at the start of the module's memory unless it is there already. */
function load(w: CsrWasm, S: Csr): void {
  if (w.last === S) return;
  const nnz = S.indptr[S.rows]!;
  const prep = prepared(S);
  const pp = 0;
  const pi = align8(4 * (S.rows + 1));
  const pv = align8(pi + 4 * nnz);
  const pq = pv + 8 * nnz;
  const end = align8(pq + (prep.perm ? 4 * S.rows : 0));
  if (reserve(w, end)) {
    const buf = w.memory.buffer;
    if (prep.perm) new Int32Array(buf, pq, S.rows).set(prep.perm);
    new Int32Array(buf, pp, S.rows + 1).set(prep.indptr.subarray(0, S.rows + 1));
    new Int32Array(buf, pi, nnz).set(prep.indices.subarray(0, nnz));
    new Float64Array(buf, pv, nnz).set(prep.values.subarray(0, nnz));
    Object.assign(w, { last: S, perm: prep.perm, pq, pp, pi, pv, end });
  } else {
    w.last = null;
  }
}

/** y ← S·x (x: S.cols × b, y: S.rows × b, row-major; y is overwritten, never read). */
export function csrTimesBlock(S: Csr, x: Float64Array, y: Float64Array, b: number): void {
  const w = kernel();
  if (w && b > 0 && S.rows > 0) {
    load(w, S);
    const px = w.end;
    const py = px + 8 * S.cols * b;
    // With a band order: x (and y) in file order at pz, moved through perm by the module.
    const pz = py + 8 * S.rows * b;
    if (w.last === S && reserve(w, pz + (w.perm ? 8 * S.rows * b : 0))) {
      const mem = new Float64Array(w.memory.buffer);
      const x0 = px / 8;
      const y0 = py / 8;
      if (w.perm) {
        // Row i of the stored S is row perm[i] of S, and its columns are renumbered alike:
        // x's rows go in that order, y's come back through it.
        const z0 = pz / 8;
        mem.set(x.subarray(0, S.cols * b), z0);
        w.rows(pz, px, w.pq, S.rows, b, 0);
        w.spmm(w.pp, w.pi, w.pv, px, py, S.rows, b);
        w.rows(py, pz, w.pq, S.rows, b, 1);
        y.set(mem.subarray(z0, z0 + S.rows * b));
      } else {
        mem.set(x.subarray(0, S.cols * b), x0);
        w.spmm(w.pp, w.pi, w.pv, px, py, S.rows, b);
        y.set(mem.subarray(y0, y0 + S.rows * b));
      }
      return;
    }
  }
  csrTimesBlockTs(S, x, y, b);
}

/**
 * A Chebyshev filter's blocks (n × b each) held in the module's memory beside S, so that a step
 * of the filter copies nothing in or out: `cheb` (csr.wat) forms next ← f·((S·cur − T) − c·cur) −
 * g·prev in one pass per row chunk, the bits of csrTimesBlock followed by blockeig-filter.ts's
 * combination. The blocks are in the order S is stored (its band order for n ≥ BAND_MIN rows).
 * The deflation of locked vectors X (`lock`, then `deflate` before a step) runs in the module too
 * (`defl`), the same bits as `deflateTs` on the same row order.
 */
export interface CsrFilter {
  /** Whether rows are in a band order (the deflation's sums then run in that order). */
  readonly permuted: boolean;
  /** dst (n × cols) ← src's rows in the stored order. */
  toStored(src: Float64Array, cols: number, dst: Float64Array): void;
  /** The current block (stored order): a view valid until the next step. */
  current(): Float64Array;
  /** The block T to subtract in the next step (stored order): a view valid until that step. */
  term(): Float64Array;
  /** Holds X (n × nc, S's own row order) as the locked vectors `deflate` uses. */
  lock(X: Float64Array, nc: number): void;
  /** T ← X·diag(scale)·(Xᵀ·current): the term the next step subtracts. */
  deflate(scale: Float64Array): void;
  /** next ← f·((S·cur − T) − c·cur) − g·prev (T only with `useTerm`, prev only with `usePrev`). */
  step(c: number, f: number, g: number, usePrev: boolean, useTerm: boolean): void;
  /** out (n × b, S's own row order) ← the current block. */
  finish(out: Float64Array): void;
}

/**
 * T (rows × b) ← X·diag(scale)·(Xᵀ·cur) for X (rows × nc), in the order of csr.wat's `defl`:
 * C = Xᵀ·cur summed from zero over the rows in order, row p of C times scale[p], then each
 * T[i, j] = Σ_p X[i, p]·C[p, j] from zero. `C` is scratch (≥ nc·b).
 */
export function deflateTs(
  X: Float64Array,
  nc: number,
  cur: Float64Array,
  b: number,
  scale: Float64Array,
  C: Float64Array,
  T: Float64Array,
  rows: number,
): void {
  C.fill(0, 0, nc * b);
  for (let i = 0; i < rows; i++) {
    for (let p = 0; p < nc; p++) {
      const x = X[i * nc + p]!;
      for (let j = 0; j < b; j++) C[p * b + j]! += x * cur[i * b + j]!;
    }
  }
  for (let p = 0; p < nc; p++) {
    const d = scale[p]!;
    for (let j = 0; j < b; j++) C[p * b + j]! *= d;
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < b; j++) {
      let t = 0;
      for (let p = 0; p < nc; p++) t += X[i * nc + p]! * C[p * b + j]!;
      T[i * b + j] = t;
    }
  }
}

/** Rows per chunk of `cheb` (its scratch holds CHEB_ROWS·b values). */
const CHEB_ROWS = 64;

/**
 * A filter session on the square S starting from Y0 (n × b, row-major): null where the
 * WebAssembly kernel is not in use or its memory would pass MAX_BYTES (the caller then filters
 * with csrTimesBlock). No other product with this kernel may run while the session is used.
 */
export function csrFilter(S: Csr, Y0: Float64Array, b: number): CsrFilter | null {
  const w = kernel();
  const n = S.rows;
  if (!w || b <= 0 || n <= 0 || S.cols !== n) return null;
  load(w, S);
  const block = 8 * n * b;
  // Three rotating blocks, T, the scratch and (band order) a staging block in S's row order.
  const base = w.end;
  const ps = [base, base + block, base + 2 * block];
  const pt = base + 3 * block;
  const pscr = pt + block;
  const pz = pscr + 8 * CHEB_ROWS * b;
  // Past the staging block: the locked vectors (n × nc), the deflation's C (nc × b), the scales.
  const px = pz + (w.perm ? block : 0);
  if (w.last !== S || !reserve(w, px)) return null;
  const perm = w.perm;
  const f64 = (at: number, len: number): Float64Array => new Float64Array(w.memory.buffer, at, len);
  const check = (): void => {
    if (w.last !== S) throw new Error('csrFilter: another product used the kernel mid-filter');
  };
  if (perm) {
    f64(pz, n * b).set(Y0.subarray(0, n * b));
    w.rows(pz, ps[0]!, w.pq, n, b, 0);
  } else {
    f64(ps[0]!, n * b).set(Y0.subarray(0, n * b));
  }
  // Slots of prev, cur and next among ps.
  let [ip, ic, inx] = [2, 0, 1];
  let nc = 0;
  let pc = px;
  let pd = px;
  let held: Float64Array | null = null;
  // deflateTs's scratch Xᵀ·cur (nc × b), allocated with `held`.
  let heldC: Float64Array | null = null;
  const toStored = (src: Float64Array, cols: number, dst: Float64Array): void => {
    if (!perm) {
      dst.set(src.subarray(0, n * cols));
      return;
    }
    for (let i = 0; i < n; i++) {
      const o = perm[i]! * cols;
      for (let j = 0; j < cols; j++) dst[i * cols + j] = src[o + j]!;
    }
  };
  return {
    permuted: perm !== null,
    toStored,
    current: () => f64(ps[ic]!, n * b),
    term: () => f64(pt, n * b),
    lock(X, cols) {
      check();
      nc = cols;
      pc = px + 8 * n * nc;
      pd = pc + 8 * nc * b;
      // Past MAX_BYTES the locked vectors stay in TypeScript and deflateTs runs on the blocks.
      held = reserve(w, pd + 8 * nc) ? null : new Float64Array(n * nc);
      heldC = held ? new Float64Array(nc * b) : null;
      toStored(X, nc, held ?? f64(px, n * nc));
    },
    deflate(scale) {
      check();
      if (held && heldC) {
        deflateTs(held, nc, f64(ps[ic]!, n * b), b, scale, heldC, f64(pt, n * b), n);
        return;
      }
      f64(pd, nc).set(scale.subarray(0, nc));
      w.defl(px, ps[ic]!, pt, pc, pd, n, nc, b);
    },
    step(c, f, g, usePrev, useTerm) {
      check();
      const flags = (usePrev ? 1 : 0) | (useTerm ? 2 : 0);
      w.cheb(w.pp, w.pi, w.pv, ps[ic]!, ps[ip]!, pt, ps[inx]!, pscr, n, b, c, f, g, flags);
      [ip, ic, inx] = [ic, inx, ip];
    },
    finish(out) {
      check();
      if (perm) {
        w.rows(ps[ic]!, pz, w.pq, n, b, 1);
        out.set(f64(pz, n * b));
      } else {
        out.set(f64(ps[ic]!, n * b));
      }
    },
  };
}

/**
 * The TypeScript kernel. The columns are taken 8 (then 4, 2, 1) at a time with the partial sums
 * in locals, so each nonzero s_ip costs one read of 8 neighbouring entries of row p of x and no
 * traffic on y (measured 2× faster than updating y in place). Rows of x are read in the order
 * of S's column indices: a bandwidth-reducing order of S (`graph/reorder.ts`) keeps them in cache.
 */
export function csrTimesBlockTs(S: Csr, x: Float64Array, y: Float64Array, b: number): void {
  const { indptr, indices, data } = S;
  for (let i = 0; i < S.rows; i++) {
    const yo = i * b;
    const p0 = indptr[i]!;
    const p1 = indptr[i + 1]!;
    let j = 0;
    for (; j + 8 <= b; j += 8) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0;
      for (let p = p0; p < p1; p++) {
        const a = data[p]!;
        const o = indices[p]! * b + j;
        s0 += a * x[o]!;
        s1 += a * x[o + 1]!;
        s2 += a * x[o + 2]!;
        s3 += a * x[o + 3]!;
        s4 += a * x[o + 4]!;
        s5 += a * x[o + 5]!;
        s6 += a * x[o + 6]!;
        s7 += a * x[o + 7]!;
      }
      y[yo + j] = s0;
      y[yo + j + 1] = s1;
      y[yo + j + 2] = s2;
      y[yo + j + 3] = s3;
      y[yo + j + 4] = s4;
      y[yo + j + 5] = s5;
      y[yo + j + 6] = s6;
      y[yo + j + 7] = s7;
    }
    for (; j + 4 <= b; j += 4) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let p = p0; p < p1; p++) {
        const a = data[p]!;
        const o = indices[p]! * b + j;
        s0 += a * x[o]!;
        s1 += a * x[o + 1]!;
        s2 += a * x[o + 2]!;
        s3 += a * x[o + 3]!;
      }
      y[yo + j] = s0;
      y[yo + j + 1] = s1;
      y[yo + j + 2] = s2;
      y[yo + j + 3] = s3;
    }
    for (; j + 2 <= b; j += 2) {
      let s0 = 0,
        s1 = 0;
      for (let p = p0; p < p1; p++) {
        const a = data[p]!;
        const o = indices[p]! * b + j;
        s0 += a * x[o]!;
        s1 += a * x[o + 1]!;
      }
      y[yo + j] = s0;
      y[yo + j + 1] = s1;
    }
    for (; j < b; j++) {
      let s = 0;
      for (let p = p0; p < p1; p++) s += data[p]! * x[indices[p]! * b + j]!;
      y[yo + j] = s;
    }
  }
}
