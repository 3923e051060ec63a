/**
 * IMVC-CBG scaling on synthetic data (core/synth.ts): 5 views of d = 400 (Σd = 2000), k = 10,
 * half the samples complete and the rest missing 1..4 views (the reference protocol), n =
 * 10,000, 50,000 and 100,000. Each n runs alone in a fresh process (imvc-cbg-scale-child.ts)
 * so its peak RSS is its own. The run is the app's default: seeded start, default parameters,
 * one k-means ('single' protocol). Anchor: n = 100,000 in ≤ 60 s and ≤ 4 GB, time and memory
 * growing linearly in n (time per sample and memory per stored value printed to show it).
 * Generation time is printed apart; it is not the method's.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './util';

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env['IMVC_SCALE_SIZES'] ?? '10000,50000,100000').split(',').map(Number);

interface Case {
  n: number;
  generate_s: number;
  solve_s: number;
  kmeans_s: number;
  total_s: number;
  iterations: number;
  ACC: number;
  values: number;
  maxRss_mb: number;
}

export async function run(): Promise<void> {
  const rows: (string | number)[][] = [
    [
      'n',
      'stored values',
      'generate s',
      'solve s',
      'iterations',
      'k-means s',
      'total s',
      'µs/sample',
      'peak RSS MB',
      'bytes/value',
      'ACC',
    ],
  ];
  for (const n of SIZES) {
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=6000',
        '--import',
        'tsx',
        join(here, 'imvc-cbg-scale-child.ts'),
        String(n),
      ],
      { encoding: 'utf8', timeout: 600_000 },
    );
    if (r.status !== 0) {
      console.log(`n = ${n}: failed (${r.status}) ${r.stderr.slice(-500)}`);
      continue;
    }
    const c = JSON.parse(r.stdout.trim().split('\n').pop()!) as Case;
    rows.push([
      n,
      c.values,
      c.generate_s.toFixed(2),
      c.solve_s.toFixed(2),
      c.iterations,
      c.kmeans_s.toFixed(2),
      c.total_s.toFixed(2),
      ((c.total_s * 1e6) / n).toFixed(1),
      c.maxRss_mb.toFixed(0),
      ((c.maxRss_mb * 1048576) / c.values).toFixed(1),
      c.ACC.toFixed(3),
    ]);
  }
  console.log(table(rows));
  console.log('anchor: n = 100,000 in ≤ 60 s (total, generation excluded) and ≤ 4 GB peak RSS');
}
