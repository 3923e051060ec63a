/**
 * `npm run fuzz [-- --files N --seed S --minutes M --legs cli,serve --only i,j-k --write dir]`:
 * the long fuzz run. Prints each failure as it happens, then the counts per leg, family and
 * outcome and the list of failing files with their recipes. `--only` runs just those case
 * indices; `--write dir` writes those cases (or cases 0..N−1) into dir and runs nothing, to
 * reproduce a failure by hand. Exit 1 when any file failed, 2 on bad arguments.
 */
import { mkdirSync } from 'node:fs';
import { makeCase, prepareBases } from './corpus';
import { PASSING, report, runFuzz } from './harness';
import type { Leg } from './harness';

interface Args {
  files: number;
  seed: number;
  minutes: number;
  legs: Leg[];
  only: number[] | null;
  write: string | null;
}

function parse(argv: readonly string[]): Args {
  const out: Args = {
    files: 10_000,
    seed: 16,
    minutes: 0,
    legs: ['cli', 'serve'],
    only: null,
    write: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[++i];
    const n = Number(value);
    if (arg === '--legs') {
      const legs = (value ?? '').split(',');
      if (legs.some((l) => l !== 'cli' && l !== 'serve')) {
        throw new Error(`--legs expects cli, serve or cli,serve, got '${value ?? ''}'`);
      }
      out.legs = legs as Leg[];
    } else if (arg === '--only') {
      const list: number[] = [];
      for (const part of (value ?? '').split(',')) {
        const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
        if (m === null) {
          throw new Error(`--only expects case indices like 4,5,17 or 0-99, got '${value ?? ''}'`);
        }
        const lo = Number(m[1]);
        const hi = m[2] === undefined ? lo : Number(m[2]);
        for (let i = lo; i <= hi; i++) list.push(i);
      }
      out.only = list;
    } else if (arg === '--write') {
      if (value === undefined || value === '') throw new Error('--write expects a folder');
      out.write = value;
    } else if (arg === '--files' || arg === '--seed' || arg === '--minutes') {
      if (value === undefined || !Number.isInteger(n) || n < 0) {
        throw new Error(`${arg} expects a whole number, got '${value ?? ''}'`);
      }
      out[arg.slice(2) as 'files' | 'seed' | 'minutes'] = n;
    } else {
      throw new Error(
        `unknown option '${arg}' (expected --files, --seed, --minutes, --legs, --only, --write)`,
      );
    }
  }
  return out;
}

let args: Args;
try {
  args = parse(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`fuzz: ${(e as Error).message}\n`);
  process.exit(2);
}
const indices = args.only ?? Array.from({ length: args.files }, (_, i) => i);

if (args.write !== null) {
  mkdirSync(args.write, { recursive: true });
  const bases = await prepareBases(args.write);
  for (const i of indices) {
    const c = makeCase(args.write, bases, args.seed, i);
    process.stdout.write(`${c.path}\t${c.family}\t${c.recipe}\n`);
  }
} else {
  const summary = await runFuzz({
    seed: args.seed,
    indices,
    legs: args.legs,
    ...(args.minutes > 0 ? { budgetMs: args.minutes * 60_000 } : {}),
    onResult: (r) => {
      if (!PASSING.has(r.outcome)) {
        process.stderr.write(
          `[${r.leg}] ${r.outcome} #${r.fuzzCase.index} ${r.fuzzCase.family}: ${r.detail.slice(0, 200)}\n`,
        );
      }
    },
  });
  process.stdout.write(report(summary) + '\n');
  if (summary.ran < summary.planned) {
    process.stdout.write(
      `(stopped by --minutes after ${summary.ran} of ${summary.planned} files)\n`,
    );
  }
  process.exitCode = summary.results.every((r) => PASSING.has(r.outcome)) ? 0 : 1;
}
