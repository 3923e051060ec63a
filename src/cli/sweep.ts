/**
 * `mvstudio sweep <method> <dataset> --grid name=v1,v2,... [name2=...] --seeds N`: the
 * one-method study. It builds a spec (one method, one dataset, the grid, the seeds), runs it into
 * a study folder (resumable: the folder's name is derived from the spec, so the same command
 * resumes) and prints the heatmap table with the oracle and the label-free choices marked, or
 * with --json one object: `cells` (each with its parameters and metric mean/std) and both
 * selections.
 */
import { createHash } from 'node:crypto';
import { basename, extname, join } from 'node:path';
import { selectGrid, type GridPointSummary } from '../core/study/select';
import { validateStudySpec } from '../core/study/spec';
import type { StudyMetric } from '../core/study/types';
import { DECIMAL_NUMBER } from '../core/solvers/params';
import type { ParamValue } from '../core/solvers/types';
import { resolvePaths } from '../backend/study/engine';
import { splitArgs } from './args';
import { UsageError } from './errors';
import { LOAD_FLAGS, loadOptionsFrom } from './load-args';
import { EXECUTOR_FLAGS, executorFrom, isStudyInputError, runWithCancel } from './study';
import { renderHeatmap } from './study-format';

const OUT = 'mvstudio-studies';
const FLAGS = new Set<string>([
  'seeds',
  'seed',
  'k',
  'preprocess',
  'replicates',
  'out',
  ...EXECUTOR_FLAGS,
  ...LOAD_FLAGS,
]);

/** A command-line value as JSON would give it: a plain decimal is a number, true/false booleans. */
function typed(raw: string): ParamValue {
  if (DECIMAL_NUMBER.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

/** Splits off the `--grid a=1,2 b=k,2k` entries (every `x=...` word after --grid). */
export function gridArgs(argv: readonly string[]): {
  grid: Record<string, ParamValue[]>;
  rest: string[];
} {
  const grid: Record<string, ParamValue[]> = {};
  const rest: string[] = [];
  let inGrid = false;
  for (const arg of argv) {
    if (arg === '--grid') {
      inGrid = true;
      continue;
    }
    const m = inGrid && !arg.startsWith('--') ? /^([^=]+)=(.*)$/.exec(arg) : null;
    if (!m) {
      inGrid = false;
      rest.push(arg);
      continue;
    }
    const name = m[1]!;
    if (grid[name]) throw new UsageError(`--grid gives '${name}' twice`);
    grid[name] = m[2]!.split(',').map((v) => typed(v.trim()));
  }
  return { grid, rest };
}

/** Numbers without ' ± ' text, for --json. */
function jsonPoint(p: GridPointSummary): object {
  return {
    cell: p.cell,
    params: p.grid,
    seeds: p.seeds,
    failed: p.failed,
    metrics: p.metrics,
    stability: p.stability,
    objective: p.objective,
  };
}

async function sweep(argv: string[]): Promise<number> {
  const { grid, rest } = gridArgs(argv);
  const { positionals, flags, params, json } = splitArgs(rest, FLAGS);
  const [method, ...files] = positionals;
  if (method === undefined || files.length === 0) {
    throw new UsageError(
      'sweep needs a method and a file: mvstudio sweep <method> <file> --grid name=v1,v2,...',
    );
  }
  if (Object.keys(grid).length === 0)
    throw new UsageError('sweep needs --grid name=v1,v2,... (one or more)');
  const get = (f: string): string | undefined => flags.get(f);
  const num = (f: string): number | undefined =>
    get(f) === undefined ? undefined : (typed(get(f)!) as number);
  const load = loadOptionsFrom(Object.fromEntries(flags));
  if (load.orientation)
    throw new UsageError('sweep does not take --orientation; write a study spec instead');
  const count = num('seeds') ?? 5;
  const first = num('seed');
  const raw = {
    name: `sweep ${method}`,
    methods: [
      { method, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typed(v)])) },
    ],
    datasets: [{ files, ...load }],
    grid: { [method]: grid },
    seeds: first === undefined ? count : Array.from({ length: Number(count) }, (_, i) => first + i),
    protocol: {
      ...(get('k') !== undefined ? { k: num('k') } : {}),
      ...(get('preprocess') !== undefined ? { preprocess: get('preprocess') } : {}),
      ...(get('replicates') !== undefined ? { replicates: num('replicates') } : {}),
    },
  };
  const spec = resolvePaths(validateStudySpec(raw), process.cwd());
  const hash = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 8);
  const out =
    get('out') ?? join(OUT, `sweep-${method}-${basename(files[0]!, extname(files[0]!))}-${hash}`);
  const executor = executorFrom(get);
  const done = await runWithCancel(out, spec, `sweep ${method}`, executor);
  if (!done) return 130;
  const [s] = selectGrid(done.rows, spec.selection.oracle, spec.selection.labelFree);
  const metric: StudyMetric = s?.points.some((p) => p.metrics.acc) ? 'acc' : 'silhouette';
  if (json) {
    process.stdout.write(
      JSON.stringify({
        method,
        dataset: s?.dataset,
        out,
        cells: s?.points.map(jsonPoint) ?? [],
        oracle: s?.oracle ?? null,
        labelFree: s?.labelFree ?? null,
        note: s?.note ?? '',
      }) + '\n',
    );
    return 0;
  }
  if (s) process.stdout.write(renderHeatmap(s, metric, done.study.ks[s.dataset]!));
  process.stdout.write(`study folder: ${out}\n`);
  return 0;
}

/** Entry of `mvstudio sweep`. */
export async function runSweepCommand(argv: string[]): Promise<number> {
  try {
    return await sweep(argv);
  } catch (e) {
    if (isStudyInputError(e)) {
      process.stderr.write(`mvstudio sweep: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}
