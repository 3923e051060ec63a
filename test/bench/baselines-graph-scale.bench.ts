/**
 * `npm run bench -- baselines-graph-scale`: the graph baselines at scale (issue 20's targets).
 * Synthetic data (`core/synth`, 4 views of d = 20, 30, 40, 50, c = 10, complete) at n = 20,000
 * for amgl and mvgl, each in ≤ 60 s and ≤ 2 GB; mlrssc-pairwise on HW (n = 2,000, 6 views):
 * completes, its time and peak memory reported. Each case runs alone in a fresh child process
 * of baselines-graph.bench.ts (as the solver worker: V8's defaults, helper threads), so its peak
 * RSS (process.resourceUsage().maxRSS) is its own; the time is the solver's own stages, as in
 * baselines-graph. A case still running after BASELINES_SCALE_LIMIT seconds (default 600, ten
 * times the target) is stopped and listed as not finished.
 */
import { registered, spawnCase, type Case } from './baselines-graph.bench';
import { scaleLimitSeconds } from './solve-timing';
import { table } from './util';

const SCALE_N = 20_000;

export async function run(): Promise<void> {
  const limit = scaleLimitSeconds(600);
  const have = registered();
  const rows: (string | number)[][] = [
    ['case', 'method', 'solve s', 'peak RSS MB', 'iterations', 'ACC'],
  ];
  const cases: Case[] = [
    { kind: 'scale', method: 'amgl', n: SCALE_N },
    { kind: 'scale', method: 'mvgl', n: SCALE_N },
    { kind: 'hw', method: 'mlrssc-pairwise' },
  ];
  for (const c of cases) {
    if (c.kind === 'probe' || c.kind === 'reference') continue;
    const label =
      c.kind === 'scale'
        ? `synthetic n = ${c.n.toLocaleString('en-US')}, 4 views`
        : 'HW (n = 2,000, 6 views)';
    if (!have.has(c.method)) {
      rows.push([label, c.method, 'not registered', '–', '–', '–']);
      continue;
    }
    // HW's MLRSSC has no time target: it runs to the end.
    const r = spawnCase(c, c.kind === 'scale' ? limit : undefined);
    if (typeof r === 'string') rows.push([label, c.method, r, '–', '–', '–']);
    else
      rows.push([
        label,
        c.method,
        r.solveSeconds.toFixed(1),
        r.maxRssMB.toFixed(0),
        r.iterations,
        r.ACC === null ? '–' : r.ACC.toFixed(3),
      ]);
    console.log(table([rows[0]!, rows.at(-1)!]));
  }
  console.log('\n' + table(rows));
  console.log(
    'target: amgl and mvgl at n = 20,000 in ≤ 60 s and ≤ 2 GB; mlrssc-pairwise on HW: completes, time and peak memory reported.',
  );
  await Promise.resolve();
}
