/**
 * `npm run bench [-- name ...]`: benchmarks, each printing its figures beside the anchor it
 * chases. Never part of `npm test`. Every `test/bench/<name>.bench.ts` exporting
 * `run(): Promise<void>` is a benchmark called `<name>`; with no name, all run.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
for (const name of asked.length ? asked : available) {
  console.log(`\n== ${name}`);
  const mod = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as {
    run: () => Promise<void>;
  };
  await mod.run();
}
