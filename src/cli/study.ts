/**
 * `mvstudio study run | status | cell | report` (docs/studies.md): a study spec run into a study
 * folder by the engine (backend/study/engine.ts), resumable, with its status and its results
 * table. Exit 0 on success, 2 on bad input (an invalid spec, a folder of another spec, a cell
 * that failed on bad input), 130 when cancelled with Ctrl-C (the finished cells are kept: run
 * again to resume).
 */
import { readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { selectGrid } from '../core/study/select';
import {
  STUDY_METRICS,
  StudySpecError,
  validateStudySpec,
  type StudySpec,
} from '../core/study/spec';
import type { StudyMetric, StudyRow } from '../core/study/types';
import { ParamError } from '../core/solvers/params';
import {
  DatasetCache,
  StudyCancelled,
  resolvePaths,
  runCell,
  runStudy,
  specBase,
  type StudyExecutor,
  type StudyProgress,
} from '../backend/study/engine';
import { cellTaskStates, slurmExecutor } from '../backend/study/slurm-executor';
import { SlurmError, type TaskState } from '../backend/executors/slurm';
import {
  StudyFolderError,
  readCellRecords,
  readStudyFile,
  type StudyFile,
} from '../backend/study/folder';
import { BundleWriteError } from '../io/bundle';
import { UsageError, isInputError, parseStrict } from './errors';
import { duration } from './study-format';
import { REPORT_FORMATS, studyReport, type ReportFormat } from './study-report';

/** Where a study goes without --out: mvstudio-studies/<spec name>. */
const OUT = 'mvstudio-studies';

/** Reads and validates a JSON spec file, its relative paths resolved against its folder. */
async function readSpec(path: string): Promise<StudySpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read the spec '${path}' (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path}: not JSON (${(e as Error).message})`);
  }
  return resolvePaths(validateStudySpec(raw), specBase(path));
}

/** A whole-study progress line on stderr (a terminal: rewritten in place; else one per cell). */
export function studyProgress(name: string): (p: StudyProgress) => void {
  return (p) => {
    const eta = p.etaSeconds === null ? '' : `, about ${duration(p.etaSeconds)} left`;
    const line = `${name}: ${p.done}/${p.total} cells done${eta}`;
    if (process.stderr.isTTY)
      process.stderr.write(`\r\x1b[K${line}${p.done === p.total ? '\n' : ''}`);
    else if (p.cell !== null) process.stderr.write(line + '\n');
  };
}

/**
 * Runs `spec` into `out` with a Ctrl-C cancel; returns the collected rows, or null when it was
 * cancelled (the message is printed).
 */
export async function runWithCancel(
  out: string,
  spec: StudySpec,
  name: string,
  executor?: StudyExecutor,
): Promise<{ study: StudyFile; rows: StudyRow[] } | null> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.on('SIGINT', onSigint);
  try {
    return await runStudy(out, spec, {
      signal: controller.signal,
      onProgress: studyProgress(name),
      ...(executor ? { executor } : {}),
    });
  } catch (e) {
    if (!(e instanceof StudyCancelled)) throw e;
    process.stderr.write(
      `\n${name}: cancelled; the finished cells are kept in '${out}': run again to resume\n`,
    );
    return null;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The flags choosing and shaping the executor, shared by `study run` and `sweep`. */
export const EXECUTOR_FLAGS = ['executor', 'partition', 'time', 'mem', 'cpus'] as const;

/**
 * The executor the flags ask for: undefined (the engine's local one) or Slurm, its tasks
 * running this same CLI (`node <script> study cell …`).
 */
export function executorFrom(
  get: (flag: (typeof EXECUTOR_FLAGS)[number]) => string | undefined,
): StudyExecutor | undefined {
  const kind = get('executor') ?? 'local';
  if (kind !== 'local' && kind !== 'slurm')
    throw new UsageError(`--executor takes local or slurm (got '${kind}')`);
  const count = (flag: 'mem' | 'cpus'): number | undefined => {
    const v = get(flag);
    if (v === undefined) return undefined;
    if (!/^[1-9]\d*$/.test(v))
      throw new UsageError(`--${flag} takes a positive integer (got '${v}')`);
    return Number(v);
  };
  const mem = count('mem');
  const cpus = count('cpus');
  if (kind === 'local') {
    const given = EXECUTOR_FLAGS.filter((f) => f !== 'executor' && get(f) !== undefined);
    if (given.length) throw new UsageError(`--${given[0]!} needs --executor slurm`);
    return undefined;
  }
  const partition = get('partition');
  const time = get('time');
  return slurmExecutor({
    command: [process.execPath, resolve(process.argv[1]!)],
    ...(partition ? { partition } : {}),
    ...(time ? { time } : {}),
    ...(mem ? { memMB: mem } : {}),
    ...(cpus ? { cpus } : {}),
  });
}

const EXECUTOR_OPTIONS = Object.fromEntries(
  EXECUTOR_FLAGS.map((f) => [f, { type: 'string' as const }]),
) as Record<(typeof EXECUTOR_FLAGS)[number], { type: 'string' }>;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseStrict(() =>
    parseArgs({
      args: argv,
      options: { out: { type: 'string' }, ...EXECUTOR_OPTIONS },
      allowPositionals: true,
      strict: true,
    }),
  );
  const executor = executorFrom((f) => values[f]);
  const [specPath, ...extra] = positionals;
  if (specPath === undefined || extra.length > 0)
    throw new UsageError('study run needs one spec: mvstudio study run <spec.json> [--out dir]');
  const spec = await readSpec(specPath);
  const out = values.out ?? join(OUT, basename(specPath, extname(specPath)));
  const done = await runWithCancel(out, spec, spec.name, executor);
  if (!done) return 130;
  const failed = Object.values(done.study.states).filter((s) => s === 'failed').length;
  const pending = Object.values(done.study.states).filter((s) => s === 'pending').length;
  const again = pending
    ? `, ${pending} not run (study status says why; run again to resubmit)`
    : '';
  process.stdout.write(
    `${spec.name}: ${done.study.cells.length} cells (${failed} failed${again}) in ${out}\nresults: ${join(out, 'results.csv')}\n`,
  );
  return 0;
}

async function status(argv: string[]): Promise<number> {
  const { values, positionals } = parseStrict(() =>
    parseArgs({
      args: argv,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }),
  );
  const [dir] = positionals;
  if (dir === undefined)
    throw new UsageError('study status needs a study folder: mvstudio study status <dir>');
  const f = await readStudyFile(dir);
  const records = await readCellRecords(dir, f);
  // Slurm may be out of reach here (another machine, no client): the counts still stand.
  let tasks = new Map<string, TaskState>();
  let slurmNote = '';
  try {
    tasks = await cellTaskStates(dir);
  } catch (e) {
    if (!(e instanceof SlurmError)) throw e;
    slurmNote = `Slurm tasks: unknown (${e.message})`;
  }
  const count = { done: 0, failed: 0, pending: 0 };
  const failures: { cell: string; error: string; retry: boolean }[] = [];
  const jobs: Record<string, number> = {};
  for (const c of f.cells) {
    const r = records.get(c.id);
    count[r?.status ?? 'pending']++;
    if (r?.status === 'failed') failures.push({ cell: c.id, error: r.error, retry: r.retryable });
    const t = tasks.get(c.id);
    if (t) jobs[t.state] = (jobs[t.state] ?? 0) + 1;
    // A task that ended without writing its cell (cancelled, out of time or memory, lost).
    if (!r && t && (t.phase === 'failed' || t.phase === 'lost')) {
      const error = `Slurm job ${t.jobId} task: ${t.reason ?? t.state}`;
      failures.push({ cell: c.id, error, retry: true });
    }
  }
  if (values.json) {
    process.stdout.write(
      JSON.stringify({ name: f.spec.name, total: f.cells.length, ...count, failures, jobs }) + '\n',
    );
    return 0;
  }
  const lines = [
    `${f.spec.name}: ${f.cells.length} cells: ${count.done} done, ${count.failed} failed, ${count.pending} to run`,
  ];
  const states = Object.entries(jobs).map(([state, n]) => `${n} ${state}`);
  if (states.length) lines.push(`Slurm tasks (the last of each cell): ${states.join(', ')}`);
  if (slurmNote) lines.push(slurmNote);
  for (const x of failures) {
    lines.push(`  ${x.cell} failed${x.retry ? ' (study run retries it)' : ''}: ${x.error}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

async function cell(argv: string[]): Promise<number> {
  const { positionals } = parseStrict(() =>
    parseArgs({ args: argv, allowPositionals: true, strict: true }),
  );
  const [dir, id] = positionals;
  if (dir === undefined || id === undefined)
    throw new UsageError(
      'study cell needs a folder and a cell: mvstudio study cell <dir> <cellId>',
    );
  const f = await readStudyFile(dir);
  const result = await runCell(dir, f, id, new DatasetCache(dir));
  process.stdout.write(`${id}: ${result}\n`);
  return result === 'done' ? 0 : 2;
}

async function report(argv: string[]): Promise<number> {
  const { values, positionals } = parseStrict(() =>
    parseArgs({
      args: argv,
      options: {
        format: { type: 'string' },
        metric: { type: 'string' },
        select: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  const [dir] = positionals;
  if (dir === undefined)
    throw new UsageError(
      'study report needs a study folder: mvstudio study report <dir> --format md|tex|html|csv',
    );
  const format = (values.format ?? 'md') as ReportFormat;
  if (!REPORT_FORMATS.includes(format))
    throw new UsageError(`--format takes ${REPORT_FORMATS.join(', ')} (got '${format}')`);
  const f = await readStudyFile(dir);
  const metric = (values.metric ?? f.spec.selection.oracle) as StudyMetric;
  if (!STUDY_METRICS.includes(metric))
    throw new UsageError(`--metric takes ${STUDY_METRICS.join(', ')} (got '${metric}')`);
  const rule = values.select ?? 'oracle';
  if (rule !== 'oracle' && rule !== 'label-free')
    throw new UsageError(`--select takes oracle or label-free (got '${rule}')`);
  const records = await readCellRecords(dir, f);
  const rows = f.cells.flatMap((c) => records.get(c.id)?.rows ?? []);
  const selections = selectGrid(rows, f.spec.selection.oracle, f.spec.selection.labelFree);
  process.stdout.write(
    await studyReport(dir, f, records, rows, selections, { format, metric, rule }),
  );
  return 0;
}

/** Whether `e` is bad input the CLI reports with exit 2. */
export function isStudyInputError(e: unknown): boolean {
  return (
    isInputError(e) ||
    e instanceof ParamError ||
    e instanceof BundleWriteError ||
    e instanceof StudySpecError ||
    e instanceof StudyFolderError ||
    e instanceof SlurmError
  );
}

/** Entry of `mvstudio study <run|status|cell|report> ...`. */
export async function runStudyCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'run':
        return await run(rest);
      case 'status':
        return await status(rest);
      case 'cell':
        return await cell(rest);
      case 'report':
        return await report(rest);
      default:
        throw new UsageError(
          `study takes run, status, cell or report (got ${sub === undefined ? 'nothing' : `'${sub}'`})`,
        );
    }
  } catch (e) {
    if (isStudyInputError(e)) {
      process.stderr.write(`mvstudio study${sub ? ' ' + sub : ''}: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}
