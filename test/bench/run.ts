/**
 * `npm run bench [-- name ...]`: benchmarks, each printing its figures beside the anchor it
 * chases. Never part of `npm test`. Every `test/bench/<name>.bench.ts` exporting
 * `run(): Promise<void>` is a benchmark called `<name>`; with no name, all run. Helper threads
 * (backend/threads.ts) are started first, as the app's solver worker starts them. What each
 * benchmark prints is also written to its section of docs/performance.md (`report.ts`), so the
 * page always holds the last figures of every benchmark beside their anchors.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { awaitHelpers, helperCountFromEnv, startThreadPool } from '../../src/backend/threads';
import { captured, machineLine, writeSections } from './report';

// MVSTUDIO_RELAXED_SIMD=1: WebAssembly relaxed SIMD on (Node 20 has it behind a flag; V8 reads
// it when a module is compiled, in this thread and the helpers started below), so the products
// take the fused 'fma' GEMM kernel as under Electron. Off by default: the figures of Node's CLI.
if (process.env.MVSTUDIO_RELAXED_SIMD === '1')
  setFlagsFromString('--experimental-wasm-relaxed-simd');

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !available.includes(a));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${available.join(', ')}`);
  process.exit(2);
}
// Helper threads as the app's solver worker has them (MVSTUDIO_THREADS; default one per extra
// core), up before any clock starts.
const pool = startThreadPool({ helpers: helperCountFromEnv() });
if (pool) awaitHelpers(pool);
console.log(
  `threads: the solver's + ${pool?.helpers ?? 0} helper(s) (MVSTUDIO_THREADS=0 for one thread)`,
);
for (const name of asked.length ? asked : available) {
  console.log(`\n== ${name}`);
  const mod = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as {
    run: () => Promise<void>;
  };
  const output = await captured(() => mod.run());
  // Written after each benchmark, so an interrupted run keeps what it measured.
  writeSections(join(here, '../../docs/performance.md'), [
    { name, output, date: new Date().toISOString(), machine: machineLine(pool?.helpers ?? 0) },
  ]);
}
