/**
 * The part of the WebAssembly JavaScript API the kernels use (linalg/gemm.ts,
 * linalg/csr-kernel.ts, fft/panel-run.ts, cluster/dist-kernel.ts), typed here once: core is
 * compiled without the DOM library, which is where TypeScript declares `WebAssembly`. Each
 * kernel instantiates its own module and memory and falls back to TypeScript when `wasmApi()`
 * is undefined or refuses its module.
 */

/** A WebAssembly.Memory: its buffer (replaced when it grows) and `grow` by pages. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number; maximum: number }) => WasmMemory;
}

/** Bytes per WebAssembly memory page. */
export const WASM_PAGE = 65536;

/** The engine's WebAssembly API, or undefined where there is none. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}
