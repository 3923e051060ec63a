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
import type { MetricSummary, ProtocolKind, ProtocolResult, ProtocolStep } from '../core/protocol';
import { DECIMAL_INTEGER, ParamError, describeSpec, validateParams } from '../core/solvers/params';
import { listSolvers } from '../core/solvers/registry';
import type { ParamValue, Params, Solver } from '../core/solvers/types';
import { drive, since } from '../backend/drive';
import { estimateMemory, shapeOf } from '../backend/estimate';
import { solverMemoryLimit } from '../backend/worker-host';
import { removeStaleTemporaries } from '../io/atomic';
import { BundleWriteError, writeRunBundle, type RunBundle, type RunTimings } from '../io/bundle';
import { loadDataset } from '../io/load';
import type { LoadOptions } from '../shared/contract';
import { UsageError, isInputError } from './errors';
import { loadOptionsFrom } from './info';
import { table } from './format';

/** The metrics a run reports (specs/metrics.md, Improved IMVC-CBG order without Entropy). */
const REPORTED = ['ACC', 'NMI', 'Purity', 'Fscore', 'Precision', 'Recall', 'ARI'] as const;

/** Flags shared by `run` and `compare` that take a value (besides the dataset's load options). */
const LOAD_FLAGS = ['mask', 'fold', 'views', 'labels', 'orientation', 'labels-file'] as const;
/** Where bundles go without --out (relative to the working folder). */
const OUT = 'mvstudio-runs';
const RUN_FLAGS = new Set<string>(['k', 'seed', 'protocol', 'seeds', 'out', ...LOAD_FLAGS]);

/** What `run --json` prints, and one element of `compare --json`. */
export interface RunSummary {
  readonly method: string;
  readonly file: string;
  readonly params: Params;
  readonly seeds: readonly number[];
  readonly metrics?: Readonly<Record<string, MetricSummary>>;
  /** Without ground truth: the silhouette of the labels on the embedding. */
  readonly silhouette?: MetricSummary;
  readonly timings: RunTimings;
  readonly iterations: number;
  readonly converged: boolean;
  /** The protocol's and the method's notes (empty clusters, rules applied, ...). */
  readonly notes: readonly string[];
  /** The bundle's folder; null when it could not be written (the error is on stderr). */
  readonly bundle: string | null;
}

/** One run's settings, after parsing. */
interface RunSettings {
  readonly solver: Solver;
  readonly rawParams: Readonly<Record<string, ParamValue>>;
  readonly k: number | null;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  readonly seeds?: number;
}

/** The solver called `name`, or a UsageError naming the known ones. */
function solverNamed(name: string): Solver {
  const solver = listSolvers().find((s) => s.name === name);
  if (solver) return solver;
  const known = listSolvers().map((s) => s.name);
  throw new UsageError(`unknown method '${name}'; methods: ${known.join(', ') || '(none)'}`);
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

/**
 * Splits `run`'s arguments into positionals, known flags and solver parameters: `--name value`
 * or `--name=value`; `--json` alone. Anything not a known flag is a parameter, checked later
 * against the method's schema.
 */
function splitRunArgs(argv: readonly string[]): {
  positionals: string[];
  flags: Map<string, string>;
  params: Record<string, string>;
  json: boolean;
} {
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  const params: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--json') {
      json = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (name === '' || value === undefined) throw new UsageError(`${arg} needs a value`);
    if (RUN_FLAGS.has(name)) flags.set(name, value);
    else params[name] = value;
  }
  return { positionals, flags, params, json };
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
  file: string,
  loadOptions: LoadOptions,
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
  };
  let driven;
  try {
    driven = await drive(ds, solver, params, k, options, { onStep: progress.step });
  } finally {
    progress.done();
  }
  const { result, solve_s, kmeans_s } = driven;
  const timings = { total_s: load_s + since(t0), load_s, solve_s, kmeans_s };
  const bundle: RunBundle = {
    datasetPath: file,
    loadOptions,
    dataset: ds,
    method: solver.name,
    params,
    k,
    seed,
    protocol,
    result,
    timings,
  };
  const labelled = ds.labels !== null;
  return { summary: summaryOf(solver.name, file, params, result, timings, labelled), k, bundle };
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

function summaryOf(
  method: string,
  file: string,
  params: Params,
  result: ProtocolResult,
  timings: RunTimings,
  labelled: boolean,
): RunSummary {
  const scores: { metrics?: Record<string, MetricSummary>; silhouette?: MetricSummary } = {};
  if (labelled) {
    const m: Record<string, MetricSummary> = {};
    for (const name of REPORTED) if (result.metrics[name]) m[name] = result.metrics[name];
    scores.metrics = m;
  } else if (result.metrics['Silhouette']) {
    scores.silhouette = result.metrics['Silhouette'];
  }
  return {
    method,
    file,
    params,
    seeds: result.seeds,
    ...scores,
    timings,
    iterations: result.iterations,
    converged: result.converged,
    notes: result.notes,
    bundle: null,
  };
}

/** Loads the dataset, timing it. */
async function timedLoad(
  file: string,
  options: LoadOptions,
): Promise<{ ds: MultiViewDataset; load_s: number }> {
  const t0 = performance.now();
  const ds = await loadDataset(file, options);
  return { ds, load_s: since(t0) };
}

/** Load options from a flag map (`run`) or parsed values (`compare`). */
function loadOptionsOf(get: (flag: string) => string | undefined): LoadOptions {
  const values: Record<string, string> = {};
  for (const f of LOAD_FLAGS) {
    const v = get(f);
    if (v !== undefined) values[f] = v;
  }
  return loadOptionsFrom(values);
}

const fmt = (m: MetricSummary | undefined): string =>
  m ? `${m.mean.toFixed(4)} ± ${m.std.toFixed(4)}` : '-';

/**
 * The human-readable form of one run (k and protocol are not part of the summary); the
 * `bundle` line only once the bundle is written.
 */
export function formatRun(s: RunSummary, k: number, protocol: ProtocolKind): string {
  const params = Object.entries(s.params).map(([k, v]) => `${k}=${String(v)}`);
  const t = s.timings;
  const scores = s.metrics ?? (s.silhouette ? { Silhouette: s.silhouette } : {});
  const out = [
    `method      ${s.method}`,
    `file        ${s.file}`,
    `params      ${params.join(' ') || '(none)'}`,
    `k           ${k}`,
    `protocol    ${protocol}`,
    `seeds       ${s.seeds.length === 1 ? s.seeds[0] : `${s.seeds[0]}..${s.seeds.at(-1)} (${s.seeds.length})`}`,
    '',
    table([['metric', 'mean ± std'], ...Object.entries(scores).map(([name, m]) => [name, fmt(m)])]),
    '',
    `iterations  ${s.iterations}${s.converged ? '' : ' (NOT converged)'}`,
    `time        ${t.total_s.toFixed(2)} s (load ${t.load_s.toFixed(2)}, solve ${t.solve_s.toFixed(2)}, k-means ${t.kmeans_s.toFixed(2)})`,
    ...s.notes.map((n, i) => `${i === 0 ? 'notes       ' : '            '}${n}`),
  ];
  if (s.bundle !== null) out.push(bundleLine(s.bundle));
  return out.join('\n') + '\n';
}

const bundleLine = (dir: string): string => `bundle      ${dir}`;

/**
 * The table of `compare`: mean ± std per metric and total time, one row per method, then the
 * bundles written so far.
 */
export function formatCompare(runs: readonly RunSummary[]): string {
  const names = runs[0]?.metrics ? [...REPORTED] : ['Silhouette'];
  const cell = (s: RunSummary, name: string): string =>
    fmt(s.metrics ? s.metrics[name] : s.silhouette);
  const written = runs.filter((s) => s.bundle !== null);
  return (
    table([
      ['method', ...names, 'time (s)'],
      ...runs.map((s) => [s.method, ...names.map((n) => cell(s, n)), s.timings.total_s.toFixed(2)]),
    ]) +
    '\n' +
    (written.length ? '\n' + written.map((s) => `${s.method}: ${s.bundle}`).join('\n') + '\n' : '')
  );
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
  const { positionals, flags, params, json } = splitRunArgs(argv);
  const [method, file, ...extra] = positionals;
  if (method === undefined || file === undefined) {
    throw new UsageError('run needs a method and a file: mvstudio run <method> <file>');
  }
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const solver = solverNamed(method);
  validateParams(solver.schema, params); // refuse bad parameters before loading the data
  const get = (f: string): string | undefined => flags.get(f);
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
    seed: intFlag('seed', get('seed') ?? '0', 0),
    protocol,
    ...(seedsRaw !== undefined ? { seeds: intFlag('seeds', seedsRaw, 1, MAX_SEEDS) } : {}),
  };
  const loadOptions = loadOptionsOf(get);
  const outDir = get('out') ?? OUT;
  await prepareOut(outDir);
  const { ds, load_s } = await timedLoad(file, loadOptions);
  const solved = await runOne(file, loadOptions, ds, load_s, settings);
  // The metrics first: a bundle that cannot be written must not lose them.
  if (!json) process.stdout.write(formatRun(solved.summary, solved.k, protocol));
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
  k: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  mask: { type: 'string' },
  fold: { type: 'string' },
  views: { type: 'string' },
  labels: { type: 'string' },
  orientation: { type: 'string' },
  'labels-file': { type: 'string' },
} as const;

/** `mvstudio compare <file> --methods a,b [--seeds 20] [options]`: the paper protocol per method. */
async function compare(argv: string[]): Promise<number> {
  const { values, positionals } = parseStrict(() =>
    parseArgs({ args: argv, options: COMPARE_OPTIONS, allowPositionals: true, strict: true }),
  );
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError('compare needs a file: mvstudio compare <file>');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (!values.methods) throw new UsageError('compare needs --methods a,b,...');
  const solvers = values.methods.split(',').map((m) => solverNamed(m.trim()));
  const common = {
    rawParams: {},
    k: values.k === undefined ? null : intFlag('k', values.k, 2),
    seed: intFlag('seed', values.seed ?? '0', 0),
    protocol: 'paper' as const,
    seeds: intFlag('seeds', values.seeds ?? '20', 1, MAX_SEEDS),
  };
  const loadOptions = loadOptionsFrom(values);
  const outDir = values.out ?? OUT;
  await prepareOut(outDir);
  const { ds, load_s } = await timedLoad(file, loadOptions);
  // Every method's refusal before the first solve, so that none is computed in vain.
  for (const solver of solvers) {
    refuseTooLarge(ds, solver, validateParams(solver.schema, {}), resolveK(common.k, ds));
  }
  const solved: Solved[] = [];
  for (const solver of solvers) {
    solved.push(await runOne(file, loadOptions, ds, load_s, { ...common, solver }));
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

/** Calls node:util parseArgs, turning its errors into UsageErrors. */
function parseStrict<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
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
