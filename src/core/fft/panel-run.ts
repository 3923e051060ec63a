/**
 * The panel passes of `panel.ts` on WebAssembly SIMD (`wasm/panel.wat`): a `ColumnWork` whose
 * two panel buffers live in a WebAssembly memory of its own, so that the real plans fill the
 * panel and read the spectra in TypeScript as before, and the passes in between run in the
 * module without a copy. Each complex value is one f64x2 and each operation the one `panel.ts`
 * performs on both of its halves, in the same order: every signal gets the same bits
 * (`fft-panel-wasm.test.ts` checks it pass by pass, special values included).
 *
 * Memory layout (bytes): 0–255 the module's constants (the doubles `panel.ts` uses), then the
 * panels a and b (8·length each), then the twiddle tables of the core last run (its stages in
 * order, copied in when the core changes).
 *
 * Only mixed-radix cores whose radices are all 2, 3, 4, 5 or 8 run here (every even length with
 * no other prime factor: HW's 1000 = 8·5·5·5, 100Leaves' 800, the scale runs'); other cores (a
 * generic odd radix, Bluestein) keep the TypeScript passes on the same buffers.
 */
import type { FftCore, Real } from './core';
import type { Stage } from './kernels';
import { MixedRadixCore } from './mixed-radix';
import { PANEL_WASM } from './wasm/panel-wasm';
import { WASM_PAGE, type WasmMemory, wasmApi } from '../wasm-api';

type Pass = (c: number, h: number, tw: number, ido: number, l1: number, count: number) => void;

/** Which passes the column transforms use (`setPanelBackend`). */
export type PanelBackend = 'wasm' | 'ts';

/** Bytes of the constants at the start of the memory. */
const CONSTANTS = 256;
/** Largest memory a panel grows to (both buffers and the twiddles); larger panels stay in TS. */
const MAX_BYTES = 1024 * 2 ** 20;
const RADICES = new Set([2, 3, 4, 5, 8]);

let want: PanelBackend = 'wasm';
/** The compiled module: undefined until first needed, null where the engine cannot run it. */
let compiled: object | null | undefined;

/**
 * Chooses the passes of the column transforms (for tests and benchmarks; the default is
 * 'wasm', which falls back to 'ts' where WebAssembly SIMD is missing). Returns the one in use.
 * Work buffers made earlier keep the passes they were made with until they next grow.
 */
export function setPanelBackend(backend: PanelBackend): PanelBackend {
  want = backend;
  return panelBackend();
}

/** The passes new column work buffers use now. */
export function panelBackend(): PanelBackend {
  return want === 'wasm' && wasmModule() ? 'wasm' : 'ts';
}

function wasmModule(): object | null {
  if (compiled === undefined) {
    const w = wasmApi();
    try {
      compiled = w && w.validate(PANEL_WASM) ? new w.Module(PANEL_WASM) : null;
    } catch {
      // No SIMD, or a page whose CSP forbids compiling: the TypeScript passes.
      compiled = null;
    }
  }
  return compiled;
}

/** True when `core` runs on the module: mixed radix, every radix one of 2, 3, 4, 5, 8. */
export function simdCore(core: FftCore): core is MixedRadixCore {
  return core instanceof MixedRadixCore && core.stages.every((st) => RADICES.has(st.p));
}

/** The constants of wasm/panel.wat's header, in its order (see there). */
function constants(): Float64Array {
  const C1 = Math.cos((2 * Math.PI) / 5);
  const C2 = Math.cos((4 * Math.PI) / 5);
  const S1 = Math.sin((2 * Math.PI) / 5);
  const S2 = Math.sin((4 * Math.PI) / 5);
  const SIN60 = Math.sqrt(3) / 2;
  const R = Math.SQRT1_2;
  return Float64Array.of(
    ...[C1, C1, C2, C2, S1, S1, S2, S2, SIN60, SIN60, R, R],
    ...[1, -1, R, -R, -1, 1, 0.5, 0.5],
  );
}

/** Two panel buffers and a core's twiddles in one WebAssembly memory, and its passes. */
export class SimdPanel {
  private readonly memory: WasmMemory;
  private readonly pass: Readonly<Record<number, Pass>>;
  /** Values per buffer, and the byte offsets of b and of the twiddles. */
  private length = 0;
  private bOffset = CONSTANTS;
  private twOffset = CONSTANTS;
  /** The core whose tables are at twOffset, and each stage's offset there. */
  private resident: MixedRadixCore | null = null;
  private readonly stageOffsets: number[] = [];
  a: Real = new Float64Array(0);
  b: Real = new Float64Array(0);

  private constructor(memory: WasmMemory, exports: Record<string, unknown>) {
    this.memory = memory;
    const pass: Record<number, Pass> = {};
    for (const p of RADICES) pass[p] = exports[`pass${p}`] as Pass;
    this.pass = pass;
    new Float64Array(memory.buffer, 0, CONSTANTS / 8).set(constants());
  }

  /** A panel on its own memory, or null where the module is unavailable or not wanted. */
  static create(): SimdPanel | null {
    const w = wasmApi();
    const mod = want === 'wasm' ? wasmModule() : null;
    if (!w || !mod) return null;
    try {
      const memory = new w.Memory({ initial: 1, maximum: MAX_BYTES / WASM_PAGE });
      const inst = new w.Instance(mod, { env: { memory } });
      if (![...RADICES].every((p) => typeof inst.exports[`pass${p}`] === 'function')) return null;
      return new SimdPanel(memory, inst.exports);
    } catch {
      return null;
    }
  }

  /**
   * Makes a and b hold at least `length` values each and `core`'s twiddles resident; false
   * (nothing changed) when that needs more than the memory's limit. The buffers' contents are
   * not kept when they grow.
   */
  reserve(length: number, core: MixedRadixCore): boolean {
    const panels = Math.max(length, this.length);
    let twBytes = 0;
    for (const st of core.stages) twBytes += 8 * st.tw.length;
    const need = CONSTANTS + 16 * panels + twBytes;
    if (need > MAX_BYTES) return false;
    const have = this.memory.buffer.byteLength;
    if (have < need) this.memory.grow(Math.ceil((need - have) / WASM_PAGE));
    if (panels !== this.length || this.a.buffer !== this.memory.buffer) {
      this.length = panels;
      this.bOffset = CONSTANTS + 8 * panels;
      this.twOffset = this.bOffset + 8 * panels;
      this.a = new Float64Array(this.memory.buffer, CONSTANTS, panels);
      this.b = new Float64Array(this.memory.buffer, this.bOffset, panels);
      this.resident = null;
    }
    if (this.resident !== core) {
      let at = this.twOffset;
      this.stageOffsets.length = 0;
      for (const st of core.stages) {
        this.stageOffsets.push(at);
        new Float64Array(this.memory.buffer, at, st.tw.length).set(st.tw);
        at += 8 * st.tw.length;
      }
      this.resident = core;
    }
    return true;
  }

  /** True when `core`'s passes can run here now (the last `reserve` was for it). */
  holds(core: FftCore): boolean {
    return this.resident === core;
  }

  /**
   * The passes of the resident core on the panel of `count` signals in a (a is overwritten, b
   * is work); returns the buffer holding the spectra, a or b (as `FftCore.runPanel`).
   */
  run(count: number): Real {
    const stages: readonly Stage[] = this.resident!.stages;
    let from = CONSTANTS;
    let to = this.bOffset;
    for (let t = 0; t < stages.length; t++) {
      const st = stages[t]!;
      this.pass[st.p]!(from, to, this.stageOffsets[t]!, st.ido, st.l1, count);
      const x = from;
      from = to;
      to = x;
    }
    return from === CONSTANTS ? this.a : this.b;
  }
}
