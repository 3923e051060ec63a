/**
 * One scale case of imvc-cbg-scale.bench.ts, alone in a fresh process so that its peak RSS is
 * its own: `node --import tsx imvc-cbg-scale-child.ts <n>`. Prints one JSON line.
 */
import { evaluate } from '../../src/core/protocol';
import { imvcCbg } from '../../src/core/solvers/imvc-cbg';
import { validateParams } from '../../src/core/solvers/params';
import { synthesize } from '../../src/core/synth';

export const DIMS = [400, 400, 400, 400, 400];
export const K = 10;
export const COMPLETE = 0.5;

const n = Number(process.argv[2]);
let t = performance.now();
const ds = synthesize({ n, k: K, dims: DIMS, completeFraction: COMPLETE, seed: 1 });
const generate = performance.now() - t;
const stages: Record<string, number> = {};
t = performance.now();
const gen = evaluate(ds, imvcCbg, validateParams(imvcCbg.schema, {}), K, {
  protocol: 'single',
  seed: 1,
});
let last = performance.now();
for (;;) {
  const r = gen.next();
  const now = performance.now();
  const stage = r.done ? 'metrics' : r.value.step.stage;
  stages[stage] = (stages[stage] ?? 0) + (now - last);
  last = now;
  if (r.done) {
    console.log(
      JSON.stringify({
        n,
        generate_s: generate / 1000,
        solve_s:
          ((stages['prepare'] ?? 0) + (stages['solve'] ?? 0) + (stages['embed'] ?? 0)) / 1000,
        kmeans_s: (stages['kmeans'] ?? 0) / 1000,
        total_s: (now - t) / 1000,
        iterations: r.value.iterations,
        ACC: r.value.metrics['ACC']?.mean,
        values: ds.views.reduce((s, v) => s + v.values.data.length, 0),
        maxRss_mb: process.resourceUsage().maxRSS / 1024,
      }),
    );
    break;
  }
}
