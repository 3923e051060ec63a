/** The check that a committed WebAssembly module is the build of its .wat source. */
import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';

/**
 * The bytes of `wat` (a file URL) compiled as `scripts/build-wasm.mjs` compiles it (SIMD on, no
 * names section), for comparison with the committed module.
 */
export async function builtWat(wat: URL): Promise<number[]> {
  const wabt = await wabtInit();
  const name = wat.pathname.split('/').pop()!;
  const mod = wabt.parseWat(name, readFileSync(wat, 'utf8'), { simd: true });
  try {
    mod.validate();
    return Array.from(mod.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}
