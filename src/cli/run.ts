/**
 * `mvstudio methods | run | compare`: the solvers of the registry run in-process under the
 * evaluation protocol (core/protocol.ts), driven and timed by backend/drive.ts, each run saved
 * as a bundle (io/bundle.ts). Exit 0 on success, 2 on bad input: an unknown method, parameter
 * or option, a value out of range, an unreadable file, data the protocol refuses (NaN/Inf,
 * overflow, a numerical failure), a run whose memory estimate is above the solver memory limit
 * (backend/estimate.ts), a bundle that cannot be written. The metrics are printed
 * before the bundle is written, so a full disk or a bad --out loses nothing computed; leftovers
 * of a killed bundle write in --out are cleared at the start.
 */
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { MultiViewDataset } from '../core/dataset';
import { MAX_SEEDS } from '../core/limits';
import type { ProtocolKind, ProtocolStep } from '../core/protocol';
import { PREPROCESS_MODES, type Preprocess } from '../core/views/preprocess';
import { DECIMAL_INTEGER, ParamError, describeSpec, validateParams } from '../core/solvers/params';
import { listSolvers } from '../core/solvers/registry';
import type { ParamValue, Params, Solver } from '../core/solvers/types';
import { drive, since } from '../backend/drive';
import { estimateMemory, shapeOf } from '../backend/estimate';
import { runView } from '../backend/run-view';
import { solverMemoryLimit } from '../backend/worker-host';
import { removeStaleTemporaries } from '../io/atomic';
import { BundleWriteError, writeRunBundle, type RunBundle } from '../io/bundle';
import { loadDataset } from '../io/load';
import { DEFAULT_SEED } from '../shared/defaults';
import { solverNamed, splitArgs } from './args';
import { UsageError, isInputError, parseStrict } from './errors';
import { LOAD_FLAGS, LOAD_OPTIONS, datasetArgs, type DatasetArgs } from './load-args';
import { bundleLine, formatCompare, formatRun, scoresOf, type RunSummary } from './run-format';

export type { RunSummary };

/** Where bundles go without --out (relative to the working folder). */
const OUT = 'mvstudio-runs';
/** Flags of `run` that take a value (besides the method's parameters). */
const RUN_FLAGS = new Set<string>([
  'k',
  'seed',
  'protocol',
  'seeds',
  'preprocess',
  'out',
  ...LOAD_FLAGS,
]);

/** One run's settings, after parsing. */
interface RunSettings {
  readonly solver: Solver;
  readonly rawParams: Readonly<Record<string, ParamValue>>;
  readonly k: number | null;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  readonly seeds?: number;
  readonly preprocess: Preprocess;
}

/** --preprocess: one of PREPROCESS_MODES (default 'none'), else a UsageError listing them. */
function preprocessFlag(raw: string | undefined): Preprocess {
  if (raw === undefined) return 'none';
  if ((PREPROCESS_MODES as readonly string[]).includes(raw)) return raw as Preprocess;
  throw new UsageError(`--preprocess takes ${PREPROCESS_MODES.join(', ')} (got '${raw}')`);
}

/**
 * A plain decimal whole number (an optional '-', digits: no '0x10', ' 5 ', '1e3') from `min` to
 * `max`, or a UsageError naming the flag and the bounds.
 */
function intFlag(
  flag: string,
  raw: string,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  const v = Number(raw);
  if (!DECIMAL_INTEGER.test(raw) || !Number.isSafeInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${flag} takes a whole number ${range} (got '${raw}')`);
  }
  return v;
}

function protocolFlag(raw: string | undefined): ProtocolKind {
  if (raw === undefined || raw === 'single' || raw === 'paper') return raw ?? 'single';
  throw new UsageError(`--protocol takes 'single' or 'paper' (got '${raw}')`);
}

/** k from the flag, else the number of classes; a UsageError unless 2 ≤ k ≤ n. */
function resolveK(k: number | null, ds: MultiViewDataset): number {
  const classes = ds.labels?.classes.length ?? null;
  const chosen = k ?? classes;
  if (chosen === null)
    throw new UsageError('the dataset has no labels: give the clusters with --k');
  if (ds.n < 2) throw new UsageError(`the dataset has ${ds.n} sample(s): clustering needs 2`);
  if (chosen < 2 || chosen > ds.n) {
    throw new UsageError(
      k === null
        ? `the labels have ${chosen} class(es): give the clusters with --k (from 2 to ${ds.n})`
        : `--k must be from 2 to ${ds.n} (the samples), got ${chosen}`,
    );
  }
  return chosen;
}

/** A progress line on stderr, only when it is a terminal; at most ten per second. */
function progressReporter(method: string): { step(s: ProtocolStep): void; done(): void } {
  if (!process.stderr.isTTY) return { step: () => {}, done: () => {} };
  let last = 0;
  return {
    step(s) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const obj = s.step.objective === null ? '' : ` objective ${s.step.objective.toPrecision(6)}`;
      process.stderr.write(
        `\r\x1b[K${method}: seed ${s.seedIndex}/${s.seedCount} ${s.step.stage} ${s.step.iteration}${obj}`,
      );
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

/**
 * Refuses a run whose memory estimate is above the solver memory limit, with the message the
 * web host's `runs:start` gives (backend/estimate.ts), so that both hosts refuse the same runs.
 */
function refuseTooLarge(ds: MultiViewDataset, solver: Solver, params: Params, k: number): void {
  const { refusal } = estimateMemory(shapeOf(ds), solver, params, k, solverMemoryLimit());
  if (refusal !== null) throw new UsageError(refusal);
}

/** A run computed but not yet saved: its summary (bundle null) and what its bundle holds. */
interface Solved {
  readonly summary: RunSummary;
  readonly k: number;
  readonly bundle: RunBundle;
}

/** One method on a loaded dataset: protocol and timings; the bundle is written by `save`. */
async function runOne(
  dataset: DatasetArgs,
  ds: MultiViewDataset,
  load_s: number,
  settings: RunSettings,
): Promise<Solved> {
  const t0 = performance.now();
  const { solver, seed, protocol } = settings;
  const params = validateParams(solver.schema, settings.rawParams);
  const k = resolveK(settings.k, ds);
  refuseTooLarge(ds, solver, params, k);
  const progress = progressReporter(solver.name);
  const options = {
    protocol,
    seed,
    ...(settings.seeds !== undefined ? { seeds: settings.seeds } : {}),
    preprocess: settings.preprocess,
  };
  let driven;
  try {
    driven = await drive(ds, solver, params, k, options, { onStep: progress.step });
  } finally {
    progress.done();
  }
  const { result, solve_s, kmeans_s } = driven;
  const timings = { total_s: load_s + since(t0), load_s, solve_s, kmeans_s };
  // What the app draws, kept in the bundle (view.json) so that the app can reopen this run.
  const stages = { load: load_s, ...driven.stageSeconds };
  const view = runView(ds, driven.firstOutput, result, k, stages, driven.traces);
  const bundle: RunBundle = {
    datasetPath: dataset.files[0]!,
    datasetFiles: dataset.files,
    loadOptions: dataset.options,
    dataset: ds,
    method: solver.name,
    params,
    k,
    seed,
    protocol,
    result,
    timings,
    view,
  };
  return { summary: summaryOf(bundle), k, bundle };
}

/**
 * Refuses an --out that exists and is not a folder before any work (the write would fail after
 * the whole run), then clears the `.tmp-*` leftovers of killed bundle writes in it.
 */
async function prepareOut(outDir: string): Promise<void> {
  const s = await stat(outDir).catch(() => null);
  if (s && !s.isDirectory()) {
    throw new UsageError(`--out '${outDir}' is a file, not a folder: bundles go into a folder`);
  }
  if (s) await removeStaleTemporaries(outDir);
}

/** The summary of a solved run, before its bundle is written. */
function summaryOf(b: RunBundle): RunSummary {
  const { result, dataset: ds } = b;
  return {
    method: b.method,
    file: b.datasetPath,
    files: b.datasetFiles ?? [b.datasetPath],
    n: ds.n,
    V: ds.views.length,
    params: b.params,
    k: b.k,
    protocol: b.protocol,
    seeds: result.seeds,
    ...scoresOf(result.metrics, ds.labels !== null),
    timings: b.timings,
    iterations: result.iterations,
    converged: result.converged,
    notes: result.notes,
    bundle: null,
  };
}

/** Loads the dataset, timing it. */
async function timedLoad(dataset: DatasetArgs): Promise<{ ds: MultiViewDataset; load_s: number }> {
  const t0 = performance.now();
  const ds = await loadDataset(dataset.files, dataset.options);
  return { ds, load_s: since(t0) };
}

/** Writes the bundle of a solved run; a failure is a BundleWriteError (exit 2, see runCommand). */
async function save(outDir: string, solved: Solved): Promise<RunSummary> {
  const bundle = await writeRunBundle(outDir, solved.bundle);
  return { ...solved.summary, bundle };
}

/** `mvstudio methods [--json]`. */
async function methods(argv: string[]): Promise<number> {
  const { values } = parseStrict(() =>
    parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true }),
  );
  const list = listSolvers().map((s) => ({
    name: s.name,
    title: s.title,
    description: s.description,
    deterministic: s.deterministic,
    parameters: s.schema,
  }));
  if (values.json) {
    process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  const out: string[] = [];
  for (const s of listSolvers()) {
    out.push(`${s.name}  ${s.title}${s.deterministic ? ' (deterministic)' : ''}`);
    for (const [name, spec] of Object.entries(s.schema)) {
      out.push(`  --${name}  ${describeSpec(spec)}; default ${String(spec.default)}`);
      out.push(`      ${spec.doc}`);
    }
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

/** `mvstudio run <method> <file> [--<param> value ...] [options]`. */
async function run(argv: string[]): Promise<number> {
  const { positionals, flags, params, json } = splitArgs(argv, RUN_FLAGS);
  const [method, ...files] = positionals;
  const missing = 'run needs a method and a file: mvstudio run <method> <file> [<file> ...]';
  if (method === undefined) throw new UsageError(missing);
  const get = (f: string): string | undefined => flags.get(f);
  const dataset = datasetArgs(files, Object.fromEntries(flags), missing);
  const solver = solverNamed(method);
  validateParams(solver.schema, params); // refuse bad parameters before loading the data
  const protocol = protocolFlag(get('protocol'));
  const seedsRaw = get('seeds');
  if (seedsRaw !== undefined && protocol !== 'paper') {
    throw new UsageError('--seeds applies to --protocol paper only');
  }
  const kRaw = get('k');
  const settings: RunSettings = {
    solver,
    rawParams: params,
    k: kRaw === undefined ? null : intFlag('k', kRaw, 2),
    seed: intFlag('seed', get('seed') ?? String(DEFAULT_SEED), 0),
    protocol,
    ...(seedsRaw !== undefined ? { seeds: intFlag('seeds', seedsRaw, 1, MAX_SEEDS) } : {}),
    preprocess: preprocessFlag(get('preprocess')),
  };
  const outDir = get('out') ?? OUT;
  await prepareOut(outDir);
  const { ds, load_s } = await timedLoad(dataset);
  const solved = await runOne(dataset, ds, load_s, settings);
  // The metrics first: a bundle that cannot be written must not lose them.
  if (!json) process.stdout.write(formatRun(solved.summary));
  let saved: RunSummary;
  try {
    saved = await save(outDir, solved);
  } catch (e) {
    if (json) process.stdout.write(JSON.stringify(solved.summary) + '\n');
    throw e;
  }
  process.stdout.write(json ? JSON.stringify(saved) + '\n' : bundleLine(saved.bundle!) + '\n');
  return 0;
}

const COMPARE_OPTIONS = {
  methods: { type: 'string' },
  seeds: { type: 'string' },
  seed: { type: 'string' },
  preprocess: { type: 'string' },
  k: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  ...LOAD_OPTIONS,
} as const;

/** `mvstudio compare <file> --methods a,b [--seeds 20] [options]`: the paper protocol per method. */
async function compare(argv: string[]): Promise<number> {
  const { values, positionals } = parseStrict(() =>
    parseArgs({ args: argv, options: COMPARE_OPTIONS, allowPositionals: true, strict: true }),
  );
  const dataset = datasetArgs(
    positionals,
    values,
    'compare needs a file: mvstudio compare <file> [<file> ...] --methods a,b,...',
  );
  if (!values.methods) throw new UsageError('compare needs --methods a,b,...');
  const solvers = values.methods.split(',').map((m) => solverNamed(m.trim()));
  const common = {
    rawParams: {},
    k: values.k === undefined ? null : intFlag('k', values.k, 2),
    seed: intFlag('seed', values.seed ?? String(DEFAULT_SEED), 0),
    protocol: 'paper' as const,
    seeds: intFlag('seeds', values.seeds ?? '20', 1, MAX_SEEDS),
    preprocess: preprocessFlag(values.preprocess),
  };
  const outDir = values.out ?? OUT;
  await prepareOut(outDir);
  const { ds, load_s } = await timedLoad(dataset);
  // Every method's refusal before the first solve, so that none is computed in vain.
  for (const solver of solvers) {
    refuseTooLarge(ds, solver, validateParams(solver.schema, {}), resolveK(common.k, ds));
  }
  const solved: Solved[] = [];
  for (const solver of solvers) {
    solved.push(await runOne(dataset, ds, load_s, { ...common, solver }));
  }
  const runs = solved.map((s) => s.summary);
  // The table first, then the bundles, as `run` does.
  if (!values.json) process.stdout.write(formatCompare(runs));
  for (const [i, s] of solved.entries()) {
    try {
      runs[i] = await save(outDir, s);
    } catch (e) {
      if (values.json) process.stdout.write(JSON.stringify(runs) + '\n');
      throw e;
    }
    if (!values.json)
      process.stdout.write(`${i === 0 ? '\n' : ''}${s.summary.method}: ${runs[i]!.bundle}\n`);
  }
  if (values.json) process.stdout.write(JSON.stringify(runs) + '\n');
  return 0;
}

/** Entry of the three subcommands; `command` is 'methods', 'run' or 'compare'. */
export async function runCommand(command: string, argv: string[]): Promise<number> {
  try {
    if (command === 'methods') return await methods(argv);
    if (command === 'compare') return await compare(argv);
    return await run(argv);
  } catch (e) {
    if (isInputError(e) || e instanceof ParamError || e instanceof BundleWriteError) {
      process.stderr.write(`mvstudio ${command}: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}
