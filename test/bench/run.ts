/**
 * `npm run bench [-- name ...]`: benchmarks, each printing its figures beside the anchor it
 * chases. Never part of `npm test`. With no name, every benchmark runs.
 */
import { benchLoad } from './load';

const BENCHES: Record<string, () => Promise<void>> = {
  load: benchLoad,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(a in BENCHES));
if (unknown.length) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`,
  );
  process.exit(2);
}
for (const name of asked.length ? asked : Object.keys(BENCHES)) {
  console.log(`\n== ${name}`);
  await BENCHES[name]!();
}
