/**
 * `SEED_BEFORE=/path/to/checkout npm run bench -- seed-methods`: the seed methods (CGL,
 * CGMVC-NC, IMVC-CBG) before and after, side by side: every case runs from the checkout at
 * SEED_BEFORE ("before", e.g. `git worktree add /work/before <rev>` with node_modules
 * hard-linked from the main checkout) and from this checkout ("after"), in fresh processes
 * (seed-methods-child.ts, as the app's solver worker: V8's defaults, helper threads), the two taking
 * turns within each repetition and swapping who goes first every repetition, so that both share
 * the machine's spells. Prints each run, then per case the medians (with ranges) before and
 * after, the ratio after / before, the issue's target and whether the after median meets it,
 * whether the objective trace and every label agree between the checkouts, the after run's peak
 * RSS and its protocol stages (medians). IMVC-CBG on the files is timed warm (the second run in
 * its process, as imvc-cbg.bench.ts does; the cold first run is printed beside it).
 *
 * Options: SEED_CASES=cgl-hw,imvc-ngs (default all, `CASES` in seed-methods-child.ts);
 * SEED_RUNS=5 repetitions (the medians are of these); SEED_PROF=/dir adds `--cpu-prof` to the
 * after runs, writing their V8 CPU profiles there (for where the time goes; the profiler slows
 * the run, so its times are not the figures).
 *
 * The targets (issue 19): CGL and CGMVC-NC on HW end to end ≤ 5 s each (Octave 731 / 832 s);
 * CGL on synthetic n = 50,000 ≤ 60 s; IMVC-CBG on NGs and BDGP Per0.5 (reference protocol, the
 * file read included) ≥ 20× faster than the reference's total (prep + solver + kmeans_total in
 * shared/reference/imvc-cbg.json); IMVC-CBG at n = 500,000 × 5 views (Σd = 500) ≤ 120 s and
 * ≤ 8 GB peak RSS (generation excluded).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SHARED } from '../helpers/paths';
import { CASES, type CaseName } from './seed-methods-child';
import { median, table } from './util';

const here = dirname(fileURLToPath(import.meta.url));
const AFTER = resolve(here, '../..');

interface Result {
  seconds: number;
  generateSeconds: number;
  stages: Record<string, number>;
  maxRssMB: number;
  iterations: number;
  ACC: number;
  trace: string;
  labels: string;
  /** IMVC-CBG on a file: the first (cold) run's time; `seconds` is then the second's. */
  coldSeconds?: number;
}

/** The reference protocol's total (prep + solver + kmeans_total) of an IMVC-CBG file, s. */
function imvcReference(file: string): number {
  const ref = JSON.parse(readFileSync(join(SHARED, 'reference/imvc-cbg.json'), 'utf8')) as {
    runs: { file: string; timings_s: { prep: number; solver: number; kmeans_total: number } }[];
  };
  const t = ref.runs.find((r) => r.file === file)!.timings_s;
  return t.prep + t.solver + t.kmeans_total;
}

interface Target {
  text: string;
  met: (after: number, rssMB: number) => boolean;
}

function target(name: CaseName): Target {
  const atMost = (s: number, extra = ''): Target => ({
    text: `≤ ${s} s${extra}`,
    met: (t) => t <= s,
  });
  switch (name) {
    case 'cgl-hw':
      return atMost(5, ' (Octave 731 s)');
    case 'cgmvc-hw':
      return atMost(5, ' (Octave 832 s)');
    case 'cgl-50k':
      return atMost(60);
    case 'imvc-ngs':
    case 'imvc-bdgp': {
      const ref = imvcReference(
        name === 'imvc-ngs' ? 'NGs/NGs_Per0.5.mat' : 'BDGP/BDGP_fea_Per0.5.mat',
      );
      return {
        text: `≤ ${(ref / 20).toFixed(3)} s (reference total ${ref.toFixed(2)} s / 20)`,
        met: (t) => ref / t >= 20,
      };
    }
    case 'imvc-500k':
      return { text: '≤ 120 s and ≤ 8 GB', met: (t, rss) => t <= 120 && rss <= 8192 };
  }
}

function runCase(root: string, name: CaseName, prof: string | undefined): Result | string {
  const args = [
    '--max-old-space-size=8000',
    ...(prof
      ? ['--cpu-prof', `--cpu-prof-dir=${prof}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]
      : []),
    '--import',
    'tsx',
    join(here, 'seed-methods-child.ts'),
    root,
    name,
  ];
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) return `failed (${r.status}): ${r.stderr.slice(-400)}`;
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Result;
}

export async function run(): Promise<void> {
  const before = process.env['SEED_BEFORE'];
  if (!before || !existsSync(join(before, 'src/core/protocol.ts'))) {
    console.log(
      'SEED_BEFORE=/path/to/checkout is required (a checkout of the rev to compare with)',
    );
    return;
  }
  const names = (process.env['SEED_CASES'] ?? Object.keys(CASES).join(',')).split(
    ',',
  ) as CaseName[];
  for (const n of names) if (!(n in CASES)) throw new Error(`unknown case ${n}`);
  const runs = Number(process.env['SEED_RUNS'] ?? 5);
  const prof = process.env['SEED_PROF'];
  const revOf = (root: string): string => {
    const r = spawnSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' });
    return r.stdout.trim().slice(0, 70);
  };
  console.log(`before: ${before} (${revOf(before)})\nafter:  ${AFTER} (${revOf(AFTER)})`);
  const got = new Map<CaseName, { before: (Result | string)[]; after: (Result | string)[] }>(
    names.map((n) => [n, { before: [], after: [] }]),
  );
  for (let r = 0; r < runs; r++) {
    for (const name of names) {
      const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const side of order) {
        const res = runCase(
          side === 'before' ? before : AFTER,
          name,
          side === 'after' ? prof : undefined,
        );
        got.get(name)![side].push(res);
        console.log(
          `round ${r + 1}/${runs} ${name} ${side}: ` +
            (typeof res === 'string'
              ? res
              : `${res.seconds.toFixed(2)} s, ${res.maxRssMB.toFixed(0)} MB`) +
            // The 1-minute load average after the run: these machines are shared, and a figure
            // taken under a load above the core count is not the method's speed.
            `, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
        );
      }
    }
  }
  const rows: (string | number)[][] = [
    [
      'case',
      'before s',
      'after s',
      'after/before',
      'target (after)',
      'met',
      'same trace+labels',
      'peak RSS MB (before/after)',
      'after stages s (median)',
      'cold s (before/after)',
    ],
  ];
  const span = (xs: number[]): string =>
    `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  for (const name of names) {
    const g = got.get(name)!;
    const ok = (xs: (Result | string)[]): Result[] =>
      xs.filter((x): x is Result => typeof x !== 'string');
    const b = ok(g.before);
    const a = ok(g.after);
    if (b.length === 0 || a.length === 0) {
      rows.push([
        name,
        b.length ? span(b.map((x) => x.seconds)) : 'failed',
        a.length ? span(a.map((x) => x.seconds)) : 'failed',
        ...Array<string>(rows[0]!.length - 3).fill(''),
      ]);
      continue;
    }
    const bt = b.map((x) => x.seconds);
    const at = a.map((x) => x.seconds);
    const rss = Math.max(...a.map((x) => x.maxRssMB));
    const tg = target(name);
    const same = [...a, ...b].every((x) => x.trace === b[0]!.trace && x.labels === b[0]!.labels);
    const stageNames = Object.keys(a[0]!.stages);
    rows.push([
      name,
      span(bt),
      span(at),
      (median(at) / median(bt)).toFixed(3),
      tg.text,
      tg.met(median(at), rss) ? 'yes' : 'NO',
      same ? `yes (${a[0]!.iterations} it, ACC ${a[0]!.ACC.toFixed(3)})` : 'NO',
      `${Math.max(...b.map((x) => x.maxRssMB)).toFixed(0)} / ${rss.toFixed(0)}`,
      stageNames.map((s) => `${s} ${median(a.map((x) => x.stages[s] ?? 0)).toFixed(2)}`).join(', '),
      a[0]!.coldSeconds === undefined
        ? ''
        : `${median(b.map((x) => x.coldSeconds!)).toFixed(2)} / ${median(a.map((x) => x.coldSeconds!)).toFixed(2)}`,
    ]);
  }
  console.log('\n' + table(rows));
  console.log(
    `medians of ${runs}, before and after interleaved (fresh process each, helper threads as the app's worker). ` +
      'Synthetic cases exclude data generation.',
  );
  for (const name of names) console.log(`${name}: ${CASES[name]}`);
}

// `npx tsx test/bench/seed-methods.bench.ts` runs it alone (docs/performance.md untouched).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
