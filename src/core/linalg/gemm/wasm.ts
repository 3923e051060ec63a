/**
 * The WebAssembly SIMD path of the products: wasm/gemm.wat, 4×4 tiles (NRW = 4) whose 16 sums
 * live in 8 f64x2 registers, 32 flops per 6 loads; on the 'fma' backend (where the engine has
 * relaxed SIMD and its relaxed_madd fuses) the same kernel with each multiply and add fused,
 * wasm/gemm-fma.wat, over the same memory and layouts. The packing writes straight into the module's
 * memory; the kernel sums the product of an A block and a B panel over up to KP of depth into a
 * tile buffer there, and TypeScript adds α times the buffer into C (`productWasm`). Its memory
 * (2.5 MiB at first, at most 7 MiB plus the resident operands) grows with k and is kept. Also
 * the backend switch: the modules are instantiated on first use, the fused one only where
 * `WebAssembly.validate` accepts it (feature detection) and its `probe` fuses; `setGemmBackend`
 * picks 'fma' (the default where available), 'wasm' (the default elsewhere) or 'ts', which
 * sends every product to the plain loop (plain.ts).
 */
import { GEMM_FMA_WASM } from '../wasm/gemm-fma-wasm';
import { GEMM_WASM } from '../wasm/gemm-wasm';
import { WASM_PAGE, type WasmApi, type WasmMemory, wasmApi } from '../../wasm-api';
import {
  copyPanelA,
  KC,
  KP,
  lhsOffset,
  MC,
  NC,
  packPanelA,
  packPanelB4,
  roundUp4,
  type PackedLhs,
  type Strided,
} from './layout';

/** Byte offsets in the wasm memory: the packed A block, the tile buffer T, the packed B panel. */
const W_A = 0;
export const W_T = W_A + 8 * MC * KC;
export const W_B = W_T + 8 * MC * NC;
/** Where resident packed left operands (`PackedLhs`) start: after the deepest B panel. */
const W_R = W_B + 8 * KP * NC;
/** Most bytes of resident packed operands; larger ones are copied block by block instead. */
const RESIDENT_MAX = 256 * 2 ** 20;
/** Resident slots: an operator may take turns between four packed factors (CGL's H-step). */
const SLOTS = 4;

/** One module's kernels, see gemm.wat. */
interface Kernels {
  /** `block(pa, pb, pc, mb, nb, kb, ldc, lim, acc)`. */
  readonly block: (...args: number[]) => void;
  /** The tall-skinny kernels `ta(pa, pb, pt, n, ka, kb)` and `nn(pa, pm, pc, n, k, kb)`. */
  readonly ta: (...args: number[]) => void;
  readonly nn: (...args: number[]) => void;
}

/**
 * The instantiated wasm kernels and their memory, which grows with the depth of the B panel.
 * `block`, `ta` and `nn` are the set the backend uses now (`selectKernels`).
 */
export interface WasmKernel extends Kernels {
  /** gemm.wat's kernels (unfused). */
  readonly unfused: Kernels;
  /**
   * gemm-fma.wat's, the same contracts with fused updates, over the same memory; null where
   * relaxed SIMD is missing or its multiply-add is not fused.
   */
  readonly fused: Kernels | null;
  readonly memory: WasmMemory;
  /** A view of the whole memory, renewed when it grows. */
  f64: Float64Array;
  /**
   * Packed left operands kept in the memory from W_R on, so that repeated products from one
   * read it in place: per slot the operand it holds (or null), its byte offset and capacity,
   * and when it was last used (the least recently used slot is refilled).
   */
  readonly slots: { owner: object | null; offset: number; bytes: number; used: number }[];
  /** First free byte of the resident region, and a use counter. */
  top: number;
  clock: number;
}

/**
 * Which micro-kernel the products run on: WebAssembly relaxed SIMD with fused multiply-add
 * (the packed block path; the tall-skinny kernels stay unfused), WebAssembly SIMD, or plain
 * TypeScript.
 */
export type GemmBackend = 'fma' | 'wasm' | 'ts';

let wantWasm = true;
let wantFma = true;
/** undefined until first needed; null when this engine cannot run the module. */
let wasmState: WasmKernel | null | undefined;

/**
 * Chooses the micro-kernel (for tests and benchmarks; the default is 'fma' where available,
 * else 'wasm'). 'fma' falls back to 'wasm' where relaxed SIMD is missing (Node 20 without
 * --experimental-wasm-relaxed-simd) or its multiply-add does not fuse, and 'wasm' to 'ts' where
 * WebAssembly or its SIMD extension is missing. Returns the backend now in use.
 */
export function setGemmBackend(backend: GemmBackend): GemmBackend {
  wantWasm = backend !== 'ts';
  wantFma = backend === 'fma';
  selectKernels();
  return gemmBackend();
}

/** The backend the products use now (instantiating the wasm kernels if they are wanted). */
export function gemmBackend(): GemmBackend {
  const w = wasmKernel();
  return !w ? 'ts' : w.block === w.fused?.block ? 'fma' : 'wasm';
}

/**
 * The wasm kernels if wanted and available, instantiated synchronously on first use; `block`,
 * `ta` and `nn` are the fused ones when 'fma' is wanted and available, else gemm.wat's.
 */
export function wasmKernel(): WasmKernel | null {
  if (!wantWasm) return null;
  if (wasmState === undefined) {
    wasmState = instantiateWasm();
    selectKernels();
  }
  return wasmState;
}

/** Points the kernel's `block`, `ta` and `nn` at the fused set or gemm.wat's, as wanted. */
function selectKernels(): void {
  if (wasmState)
    Object.assign(wasmState, wantFma ? (wasmState.fused ?? wasmState.unfused) : wasmState.unfused);
}

/**
 * Compiles GEMM_WASM synchronously over a memory holding A, T and one KC slice of B, or returns
 * null when WebAssembly is absent, rejects the module (no SIMD) or refuses to compile (a page
 * whose CSP lacks 'wasm-unsafe-eval'). Synchronous compilation is allowed everywhere for a
 * module this small (Chromium's main-thread limit is 4 KiB).
 */
function instantiateWasm(): WasmKernel | null {
  const api = wasmApi();
  try {
    if (!api || !api.validate(GEMM_WASM)) return null;
    const memory = new api.Memory({
      initial: Math.ceil((W_B + 8 * KC * NC) / WASM_PAGE),
      maximum: Math.ceil((W_R + RESIDENT_MAX) / WASM_PAGE),
    });
    const instance = new api.Instance(new api.Module(GEMM_WASM), { env: { memory } });
    const { block, ta, nn } = instance.exports;
    if (typeof block !== 'function' || typeof ta !== 'function' || typeof nn !== 'function')
      return null;
    const unfused = {
      block: block as Kernels['block'],
      ta: ta as Kernels['ta'],
      nn: nn as Kernels['nn'],
    };
    const f64 = new Float64Array(memory.buffer);
    const slots = Array.from({ length: SLOTS }, () => ({
      owner: null,
      offset: 0,
      bytes: 0,
      used: 0,
    }));
    return {
      ...unfused,
      unfused,
      fused: instantiateFused(api, memory),
      memory,
      f64,
      slots,
      top: W_R,
      clock: 0,
    };
  } catch {
    return null;
  }
}

/**
 * gemm-fma.wat's kernels over `memory`, or null when the engine rejects the module (no
 * relaxed SIMD) or its relaxed_madd rounds twice (an engine may lower it to a multiply and an
 * add): x = 1 + 2⁻³⁰, y = 1 − 2⁻³⁰ give x·y − 1 = −2⁻⁶⁰ exactly when fused and 0 when the
 * product 1 − 2⁻⁶⁰ is rounded first. So the 'fma' backend always means one rounding per step.
 */
function instantiateFused(api: WasmApi, memory: WasmMemory): Kernels | null {
  try {
    if (!api.validate(GEMM_FMA_WASM)) return null;
    const instance = new api.Instance(new api.Module(GEMM_FMA_WASM), { env: { memory } });
    const { block, ta, nn, probe } = instance.exports;
    const fns = [block, ta, nn, probe];
    if (fns.some((f) => typeof f !== 'function')) return null;
    const fused = (probe as (x: number, y: number, z: number) => number)(
      1 + 2 ** -30,
      1 - 2 ** -30,
      -1,
    );
    if (fused !== -(2 ** -60)) return null;
    return { block: block as Kernels['block'], ta: ta as Kernels['ta'], nn: nn as Kernels['nn'] };
  } catch {
    return null;
  }
}

/**
 * The byte offset in the wasm memory where P's packed data lies, copying it there into the least
 * recently used slot if it is not resident yet; null when it is too large to keep (the caller
 * then copies block by block). A slot too small for P gets a new region at the top of the
 * resident area; when that area is full, every slot is emptied and the area starts again.
 */
function resident(w: WasmKernel, P: PackedLhs): number | null {
  return residentCopy(w, P, P.packed, 0);
}

/**
 * The byte offset of `data` (keyed by `owner`) in a resident slot, copied there unless that slot
 * still holds it, followed by `pad` zeros; null when it is too large for a slot.
 */
export function residentCopy(
  w: WasmKernel,
  owner: object,
  data: Float64Array,
  pad: number,
): number | null {
  const bytes = 8 * (data.length + pad);
  if (bytes > RESIDENT_MAX / SLOTS) return null;
  w.clock++;
  for (const s of w.slots) {
    if (s.owner === owner) {
      s.used = w.clock;
      return s.offset;
    }
  }
  let slot = w.slots[0]!;
  for (const s of w.slots) if (s.used < slot.used) slot = s;
  if (slot.bytes < bytes) {
    if (w.top + bytes > W_R + RESIDENT_MAX) {
      for (const s of w.slots) Object.assign(s, { owner: null, offset: 0, bytes: 0, used: 0 });
      w.top = W_R;
    }
    slot.offset = w.top;
    slot.bytes = bytes;
    w.top += bytes;
  }
  reserve(w, slot.offset + bytes);
  w.f64.set(data, slot.offset / 8);
  w.f64.fill(0, slot.offset / 8 + data.length, slot.offset / 8 + data.length + pad);
  slot.owner = owner;
  slot.used = w.clock;
  return slot.offset;
}

/** Grows the wasm memory to at least `bytes` (it never shrinks) and renews the view over it. */
export function reserve(w: WasmKernel, bytes: number): void {
  const have = w.memory.buffer.byteLength;
  if (have >= bytes) return;
  w.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
  w.f64 = new Float64Array(w.memory.buffer);
}

/**
 * `product` on the wasm kernel. Loops: n in panels of NC; k in chunks of KP, whose op(B) panel
 * is packed whole (KC slices one after the other, slivers of NRW = 4 columns); m in blocks of
 * MC. For an A block, each KC slice is packed and the kernel adds its product into the tile
 * buffer T (MC × NC, starting from zero at the first slice), then α·T is added into C. So each
 * entry of C receives its dot product summed in order over a whole KP chunk, and with α = 1,
 * β = 0 and k ≤ KP equals the plain sequential loop's bit for bit; on the 'fma' backend the
 * fused kernel (same layouts) makes it the fused sequential dot product's instead. With `upper`, the kernel skips
 * tiles wholly below the diagonal and only entries on and above it are added.
 */
export function productWasm(
  w: WasmKernel,
  m: number,
  n: number,
  k: number,
  alpha: number,
  A: Strided | PackedLhs,
  transA: boolean,
  B: Strided,
  transB: boolean,
  C: Strided,
  upper: boolean,
  /**
   * C's block is written, not added to, by the first KP chunk (the caller's α = 1, β = 0, no
   * `upper`): 0 + T is T bit for bit, since the kernel's sums start from +0 and so are never −0.
   */
  assign = false,
): void {
  const { data: c, offset: c0, ld: ldc } = C;
  const t0 = W_T / 8;
  const home = 'packed' in A ? resident(w, A) : null;
  for (let j0 = 0; j0 < n; j0 += NC) {
    const nb = Math.min(NC, n - j0);
    const nbPad = roundUp4(nb);
    for (let q0 = 0; q0 < k; q0 += KP) {
      const kq = Math.min(KP, k - q0);
      reserve(w, W_B + 8 * kq * nbPad);
      const mem = w.f64;
      for (let p0 = q0; p0 < q0 + kq; p0 += KC) {
        const kb = Math.min(KC, q0 + kq - p0);
        packPanelB4(B, transB, p0, kb, j0, nb, mem, W_B / 8 + (p0 - q0) * nbPad);
      }
      for (let i0 = 0; i0 < m && !(upper && i0 >= j0 + nb); i0 += MC) {
        const mb = Math.min(MC, m - i0);
        const mbPad = roundUp4(mb);
        // Tile (i, j) of T is computed when i < lim + j + 4: all of them, or with `upper`
        // those reaching the diagonal (global row i0 + i, global column j0 + j).
        const lim = upper ? j0 - i0 : mbPad;
        for (let p0 = q0; p0 < q0 + kq; p0 += KC) {
          const kb = Math.min(KC, q0 + kq - p0);
          let pa = W_A;
          if (home !== null) pa = home + 8 * lhsOffset(i0, mb, p0, k);
          else if ('packed' in A) copyPanelA(A, i0, mb, p0, kb, w.f64, W_A / 8);
          else packPanelA(A, transA, i0, mb, p0, kb, w.f64, W_A / 8);
          const pb = W_B + 8 * (p0 - q0) * nbPad;
          w.block(pa, pb, W_T, mbPad, nbPad, kb, nbPad, lim, p0 === q0 ? 0 : 1);
        }
        const set = assign && q0 === 0;
        writeTile(mem, t0, nbPad, c, c0 + i0 * ldc + j0, ldc, mb, nb, alpha, upper ? lim : mb, set);
      }
    }
  }
}

/**
 * The tile buffer t (rows × cols from t0, ld ldt) into C's block at r0 (ld ldc): with `set`,
 * c = t row by row as memory copies (every entry); else c[r0 + i·ldc + j] += α·t[t0 + i·ldt + j]
 * for max(0, i − lim) ≤ j < cols (lim ≥ rows: every j), α = ±1 by loops without the product,
 * which is exact for them: the same bits.
 */
function writeTile(
  t: Float64Array,
  t0: number,
  ldt: number,
  c: Float64Array,
  r0: number,
  ldc: number,
  rows: number,
  cols: number,
  alpha: number,
  lim: number,
  set: boolean,
): void {
  for (let i = 0; i < rows; i++) {
    const r = r0 + i * ldc;
    const s = t0 + i * ldt;
    const j0 = Math.max(0, i - lim);
    if (set) c.set(t.subarray(s, s + cols), r);
    else if (alpha === 1) for (let j = j0; j < cols; j++) c[r + j]! += t[s + j]!;
    else if (alpha === -1) for (let j = j0; j < cols; j++) c[r + j]! -= t[s + j]!;
    else for (let j = j0; j < cols; j++) c[r + j]! += alpha * t[s + j]!;
  }
}
