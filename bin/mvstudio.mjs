#!/usr/bin/env node
// The `mvstudio` command. It runs a bundle of src/cli (out/cli/mvstudio.mjs) that esbuild
// rebuilds here whenever a file under src/ is newer than it (~0.1 s), so the command always
// runs the current sources without a separate build step. Dependencies stay external: h5wasm's
// 4 MB module is loaded by Node as it is (through a TypeScript loader it took 3 s per run).
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'out/cli/mvstudio.mjs');

/** Latest modification time of any file under `dir`. */
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

if (!existsSync(bundle) || newest(join(root, 'src')) > statSync(bundle).mtimeMs) {
  const { build } = await import('esbuild');
  // Build beside the target and rename, so a concurrent run never imports half a file.
  const tmp = `${bundle}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  renameSync(tmp, bundle);
}

const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = await main(process.argv.slice(2));
