/**
 * `npm run fuzz [-- --files N --seed S --minutes M --legs cli,serve]`: the long fuzz run.
 * Prints each failure as it happens, then the counts per leg, family and outcome and the list
 * of failing files with their recipes. Exit 1 when any file failed, 2 on bad arguments.
 */
import { PASSING, report, runFuzz } from './harness';
import type { Leg } from './harness';

function parse(argv: readonly string[]): {
  files: number;
  seed: number;
  minutes: number;
  legs: Leg[];
} {
  const out = { files: 10_000, seed: 16, minutes: 0, legs: ['cli', 'serve'] as Leg[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[++i];
    const n = Number(value);
    if (arg === '--legs') {
      const legs = (value ?? '').split(',');
      if (legs.length === 0 || legs.some((l) => l !== 'cli' && l !== 'serve')) {
        throw new Error(`--legs expects cli, serve or cli,serve, got '${value ?? ''}'`);
      }
      out.legs = legs as Leg[];
    } else if (arg === '--files' || arg === '--seed' || arg === '--minutes') {
      if (value === undefined || !Number.isInteger(n) || n < 0) {
        throw new Error(`${arg} expects a whole number, got '${value ?? ''}'`);
      }
      out[arg.slice(2) as 'files' | 'seed' | 'minutes'] = n;
    } else {
      throw new Error(`unknown option '${arg}' (expected --files, --seed, --minutes, --legs)`);
    }
  }
  return out;
}

let args: ReturnType<typeof parse>;
try {
  args = parse(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`fuzz: ${(e as Error).message}\n`);
  process.exit(2);
}
const summary = await runFuzz({
  seed: args.seed,
  files: args.files,
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
  process.stdout.write(`(stopped by --minutes after ${summary.ran} of ${summary.planned} files)\n`);
}
process.exitCode = summary.results.every((r) => PASSING.has(r.outcome)) ? 0 : 1;
