/**
 * A generic Slurm job-array executor: argv lists in, one array task per argv, states and failure
 * reasons per task back. It knows nothing of what the tasks do.
 *
 * It talks to Slurm only through `sbatch`, `scontrol`, `sacct` and `scancel` found on the PATH of
 * the caller's environment (which carries `SLURM_CONF` when the cluster needs it), so an existing
 * cluster is reached the way its users reach it. Task states come from, in order: `scontrol show
 * job` (pending, running, and finished tasks while slurmctld keeps them, `MinJobAge`), then
 * `sacct` when the cluster has accounting, then the exit marker each task writes atomically into
 * the log folder (`<index>.exit`: the command's status and the array job id), which outlives both.
 * `squeue` is not needed: it shows no exit codes and forgets finished tasks first.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../io/atomic';
import {
  arrayRanges,
  batchScript,
  exitMarkerName,
  parseRanges,
  slurmPathPattern,
} from './slurm-script';

export class SlurmError extends Error {
  override name = 'SlurmError';
}

export interface ArraySpec {
  /** tasks[i]: the argv array task i runs (argv[0] looked up on the job's PATH). */
  tasks: string[][];
  /** The tasks' working folder (`--chdir`). */
  workdir: string;
  jobName: string;
  partition?: string;
  /** A Slurm time limit (`--time`): "30" minutes, "2:00:00", "1-00:00:00". */
  time?: string;
  /** Memory per task in MB: one value for all, or one per task (tasks are grouped by it). */
  memMB: number | number[];
  /** CPUs per task (`--cpus-per-task`); default 1. */
  cpus?: number;
  /** More sbatch options, passed as given (e.g. ["--account=lab", "--qos=short"]). */
  extraSbatchArgs?: string[];
  /** Where the script, `<i>.out`, `<i>.err` and `<i>.exit` of each task go. Created if missing. */
  logDir: string;
}

/** A submitted array as plain JSON-safe data: what jobStates, resubmit and cancel read. */
export interface ArraySubmission {
  jobName: string;
  script: string;
  logDir: string;
  /** Memory of each task in MB. */
  memMB: number[];
  /** The sbatch options every submission of this array shares. */
  sbatchArgs: string[];
  /** Submissions in order; an index belongs to the last one listing it. */
  jobs: SubmittedJob[];
}

/** One sbatch call: task `indices[k]` is Slurm array id `indices[k] - offset` of job `jobId`. */
export interface SubmittedJob {
  jobId: string;
  indices: number[];
  offset: number;
}

export type TaskPhase = 'pending' | 'running' | 'completed' | 'failed' | 'lost';

export interface TaskState {
  index: number;
  /** The array job id the index belongs to now. */
  jobId: string;
  phase: TaskPhase;
  /** Slurm's state name (COMPLETED, CANCELLED, TIMEOUT, …), or MARKER / LOST. */
  state: string;
  exitCode?: number;
  signal?: number;
  /** For a failed or lost task: "exit 3", "signal 9", "TIMEOUT", "OUT_OF_MEMORY", … */
  reason?: string;
  /** Where the state was read. */
  source: 'scontrol' | 'sacct' | 'marker' | 'none';
}

export interface SlurmOptions {
  /** The environment of every Slurm command (PATH, SLURM_CONF); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Slurm's default MaxArraySize: array ids 0–1000. */
const DEFAULT_MAX_ARRAY_SIZE = 1001;

/** The cluster's MaxArraySize (`scontrol show config`), or Slurm's default when unreadable. */
async function maxArraySize(env: NodeJS.ProcessEnv): Promise<number> {
  const run = await slurm('scontrol', ['show', 'config'], env).catch(() => undefined);
  const value = Number(/^MaxArraySize\s*=\s*(\d+)/m.exec(run?.stdout ?? '')?.[1]);
  return value > 0 ? value : DEFAULT_MAX_ARRAY_SIZE;
}

/**
 * Sorted `indices` cut into runs that fit one array: a run starts at its first index (the
 * offset) and holds the indices below offset + `max`, so every Slurm array id is below `max`.
 */
export function arrayChunks(
  indices: readonly number[],
  max: number,
): { offset: number; indices: number[] }[] {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const chunks: { offset: number; indices: number[] }[] = [];
  for (const i of sorted) {
    const last = chunks.at(-1);
    if (last && i - last.offset < max) last.indices.push(i);
    else chunks.push({ offset: i, indices: [i] });
  }
  return chunks;
}

const PENDING = new Set([
  'PENDING',
  'REQUEUED',
  'REQUEUE_HOLD',
  'REQUEUE_FED',
  'CONFIGURING',
  'RESV_DEL_HOLD',
]);
const RUNNING = new Set([
  'RUNNING',
  'COMPLETING',
  'SUSPENDED',
  'STOPPED',
  'SIGNALING',
  'STAGE_OUT',
  'RESIZING',
]);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a Slurm command; a missing command is a SlurmError saying so, a non-zero exit is returned. */
function slurm(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done, fail) => {
    execFile(cmd, args, { env, timeout: 120_000, maxBuffer: 1 << 28 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        fail(
          new SlurmError(
            `\`${cmd}\` was not found on the PATH (${env.PATH ?? ''}); ` +
              'install the Slurm client commands or put them on the PATH',
          ),
        );
        return;
      }
      if (err && typeof err.code !== 'number') {
        fail(new SlurmError(`\`${cmd} ${args.join(' ')}\` did not finish: ${err.message}`));
        return;
      }
      done({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
}

const commandFailed = (cmd: string, run: Run, what: string): SlurmError =>
  new SlurmError(
    `${cmd} ${what} (exit ${run.code}): ${run.stderr.trim() || run.stdout.trim() || 'no message'}`,
  );

function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new SlurmError(`${what} must be a positive whole number, got ${String(value)}`);
  }
  return value;
}

/** Checks the spec and returns the memory of each task. */
function checkSpec(spec: ArraySpec): number[] {
  if (!Array.isArray(spec.tasks) || spec.tasks.length === 0) {
    throw new SlurmError('ArraySpec.tasks must list at least one task');
  }
  if (!spec.jobName || /[\n\r]/.test(spec.jobName)) {
    throw new SlurmError(
      `ArraySpec.jobName must be one non-empty line, got ${JSON.stringify(spec.jobName)}`,
    );
  }
  const n = spec.tasks.length;
  if (Array.isArray(spec.memMB) && spec.memMB.length !== n) {
    throw new SlurmError(`ArraySpec.memMB lists ${spec.memMB.length} values for ${n} tasks`);
  }
  const mem = Array.isArray(spec.memMB) ? spec.memMB : new Array<number>(n).fill(spec.memMB);
  mem.forEach((m, i) => positiveInt(m, `ArraySpec.memMB[${i}]`));
  if (spec.cpus !== undefined) positiveInt(spec.cpus, 'ArraySpec.cpus');
  if (spec.time !== undefined && !/^[\d:-]+$/.test(spec.time)) {
    throw new SlurmError(
      `ArraySpec.time must be a Slurm time such as 30, 2:00:00 or 1-00:00:00, got ${JSON.stringify(spec.time)}`,
    );
  }
  return mem;
}

/**
 * sbatch for `indices` grouped by memory, one array per memory value (more when the indices
 * span more than the cluster's MaxArraySize); returns the new jobs.
 */
async function submitGroups(
  sub: Omit<ArraySubmission, 'jobs'>,
  indices: number[],
  env: NodeJS.ProcessEnv,
): Promise<ArraySubmission['jobs']> {
  const groups = new Map<number, number[]>();
  for (const i of indices) {
    const mem = sub.memMB[i]!;
    const group = groups.get(mem);
    if (group) group.push(i);
    else groups.set(mem, [i]);
  }
  const jobs: ArraySubmission['jobs'] = [];
  // A failed submission cancels the groups already submitted: no half arrays left behind.
  const undo = () =>
    cancelJobs(
      jobs.map((j) => j.jobId),
      env,
    ).catch(() => undefined);
  const max = await maxArraySize(env);
  const chunks = [...groups]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([mem, group]) => arrayChunks(group, max).map((chunk) => ({ mem, ...chunk })));
  for (const { mem, offset, indices: group } of chunks) {
    const ids = group.map((i) => i - offset);
    const args = [
      '--parsable',
      ...sub.sbatchArgs,
      `--mem=${mem}M`,
      `--array=${arrayRanges(ids)}`,
      sub.script,
      String(offset),
    ];
    const run = await slurm('sbatch', args, env).catch(async (err: unknown) => {
      await undo();
      throw err;
    });
    const jobId = /^(\d+)/.exec(run.stdout.trim())?.[1];
    if (run.code !== 0 || jobId === undefined) {
      await undo();
      throw commandFailed(
        'sbatch',
        run,
        `rejected the array of ${group.length} task(s) at ${mem} MB`,
      );
    }
    jobs.push({ jobId, indices: group, offset });
  }
  return jobs;
}

/**
 * Writes the batch script into `logDir` and submits the tasks as job arrays (`sbatch --parsable
 * --array=…`), one per distinct memory value. Throws a SlurmError with sbatch's message when
 * sbatch is missing or rejects the job.
 */
export async function submitArray(
  spec: ArraySpec,
  options: SlurmOptions = {},
): Promise<ArraySubmission> {
  const memMB = checkSpec(spec);
  const env = options.env ?? process.env;
  const logDir = resolve(spec.logDir);
  const logPattern = slurmPathPattern(logDir);
  const script = join(logDir, 'array.sh');
  await writeFileAtomic(script, batchScript(spec.tasks, logDir));
  for (let i = 0; i < spec.tasks.length; i++)
    rmSync(join(logDir, exitMarkerName(i)), { force: true });
  const sbatchArgs = [
    `--job-name=${spec.jobName}`,
    `--chdir=${resolve(spec.workdir)}`,
    // The script sends each task's own output to <i>.out and <i>.err; this file keeps
    // what Slurm itself says of the job (e.g. why it was cancelled).
    `--output=${logPattern}/slurm-%A_%a.out`,
    `--cpus-per-task=${spec.cpus ?? 1}`,
    ...(spec.partition ? [`--partition=${spec.partition}`] : []),
    ...(spec.time ? [`--time=${spec.time}`] : []),
    ...(spec.extraSbatchArgs ?? []),
  ];
  const base = { jobName: spec.jobName, script, logDir, memMB, sbatchArgs };
  const all = spec.tasks.map((_, i) => i);
  return { ...base, jobs: await submitGroups(base, all, env) };
}

/** The job each task index belongs to now. */
function currentJobs(sub: ArraySubmission): SubmittedJob[] {
  const owner = new Array<SubmittedJob>(sub.memMB.length);
  for (const job of sub.jobs) for (const i of job.indices) owner[i] = job;
  return owner;
}

interface SlurmRecord {
  state: string;
  exitCode: number;
  signal: number;
  source: 'scontrol' | 'sacct';
}

/** Per task index, what `scontrol -o show job` says of one array job; null when it forgot it. */
export function parseScontrol(text: string): Map<number, SlurmRecord> {
  const out = new Map<number, SlurmRecord>();
  for (const line of text.split('\n')) {
    const field = (key: string): string | undefined =>
      new RegExp(`(?:^| )${key}=(\\S+)`).exec(line)?.[1];
    const ids = field('ArrayTaskId');
    const state = field('JobState');
    if (ids === undefined || state === undefined) continue;
    const [code, signal] = (field('ExitCode') ?? '0:0').split(':').map(Number);
    for (const i of parseRanges(ids))
      out.set(i, { state, exitCode: code ?? 0, signal: signal ?? 0, source: 'scontrol' });
  }
  return out;
}

/** Per task index, what `sacct -n -P -X -o JobID,State,ExitCode` says ("12_3|CANCELLED by 0|0:15"). */
export function parseSacct(text: string): Map<number, SlurmRecord> {
  const out = new Map<number, SlurmRecord>();
  for (const line of text.split('\n')) {
    const [id, stateText, exit] = line.trim().split('|');
    const ids = /^\d+_(.+)$/.exec(id ?? '')?.[1];
    if (ids === undefined || !stateText) continue;
    const [code, signal] = (exit ?? '0:0').split(':').map(Number);
    const state = stateText.split(' ')[0]!;
    for (const i of parseRanges(ids))
      out.set(i, { state, exitCode: code ?? 0, signal: signal ?? 0, source: 'sacct' });
  }
  return out;
}

/** What Slurm remembers of one array job: scontrol, else sacct, else nothing. */
async function slurmRecords(
  jobId: string,
  env: NodeJS.ProcessEnv,
): Promise<Map<number, SlurmRecord>> {
  const shown = await slurm('scontrol', ['-o', 'show', 'job', jobId], env);
  if (shown.code === 0) return parseScontrol(shown.stdout);
  if (!/invalid job id/i.test(shown.stderr))
    throw commandFailed('scontrol', shown, `could not show job ${jobId}`);
  const acct = await slurm(
    'sacct',
    ['-n', '-P', '-X', '-j', jobId, '-o', 'JobID,State,ExitCode'],
    env,
  ).catch(() => ({ code: 1, stdout: '', stderr: '' }));
  // Without accounting (no slurmdbd) sacct says so and exits 1: the markers are all there is.
  return acct.code === 0 ? parseSacct(acct.stdout) : new Map();
}

/** The exit marker of task `index` if it was written by job `jobId`. */
function readMarker(logDir: string, index: number, jobId: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(logDir, exitMarkerName(index)), 'utf8');
  } catch {
    return undefined;
  }
  const m = /^(\d+) (\d+)\s*$/.exec(text);
  return m && m[2] === jobId ? Number(m[1]) : undefined;
}

/** A task's state from Slurm's record, else its marker (exit code `marker`), else lost. */
export function taskState(
  index: number,
  jobId: string,
  record: SlurmRecord | undefined,
  marker: number | undefined,
): TaskState {
  const base = { index, jobId };
  if (record) {
    const { state, exitCode, signal, source } = record;
    const codes = { exitCode, signal };
    if (PENDING.has(state)) return { ...base, phase: 'pending', state, source };
    if (RUNNING.has(state)) return { ...base, phase: 'running', state, source };
    if (state === 'COMPLETED' && exitCode === 0 && signal === 0)
      return { ...base, phase: 'completed', state, source, ...codes };
    const reason =
      state !== 'FAILED' && state !== 'COMPLETED'
        ? state
        : signal > 0
          ? `signal ${signal}`
          : `exit ${exitCode}`;
    return { ...base, phase: 'failed', state, source, ...codes, reason };
  }
  if (marker !== undefined) {
    if (marker === 0)
      return { ...base, phase: 'completed', state: 'MARKER', source: 'marker', exitCode: 0 };
    return {
      ...base,
      phase: 'failed',
      state: 'MARKER',
      source: 'marker',
      exitCode: marker,
      reason: `exit ${marker}`,
    };
  }
  const reason = 'LOST: Slurm no longer knows the task and it wrote no exit marker';
  return { ...base, phase: 'lost', state: 'LOST', source: 'none', reason };
}

/** The state of every task of the array, by index. */
export async function jobStates(
  sub: ArraySubmission,
  options: SlurmOptions = {},
): Promise<TaskState[]> {
  const env = options.env ?? process.env;
  const owner = currentJobs(sub);
  // Slurm's records are by array id; task i is id i − offset of its job.
  const records = new Map<string, Map<number, SlurmRecord>>();
  for (const { jobId } of new Set(owner)) records.set(jobId, await slurmRecords(jobId, env));
  return owner.map(({ jobId, offset }, i) =>
    taskState(i, jobId, records.get(jobId)!.get(i - offset), readMarker(sub.logDir, i, jobId)),
  );
}

/** The failed and lost tasks, each with its reason. */
export async function failedTasks(
  sub: ArraySubmission,
  options: SlurmOptions = {},
): Promise<TaskState[]> {
  return (await jobStates(sub, options)).filter((t) => t.phase === 'failed' || t.phase === 'lost');
}

function checkIndices(sub: ArraySubmission, indices: number[]): void {
  const bad = indices.filter((i) => !Number.isInteger(i) || i < 0 || i >= sub.memMB.length);
  if (bad.length > 0) {
    throw new SlurmError(`no task ${bad.join(', ')} in this array of ${sub.memMB.length}`);
  }
}

/**
 * Submits `indices` again (same script, same options, their own memory) and returns the
 * submission with them moved to the new job(s). Refuses tasks still pending or running.
 */
export async function resubmit(
  sub: ArraySubmission,
  indices: number[],
  options: SlurmOptions = {},
): Promise<ArraySubmission> {
  const env = options.env ?? process.env;
  checkIndices(sub, indices);
  if (indices.length === 0) return sub;
  const states = await jobStates(sub, options);
  const active = indices.filter(
    (i) => states[i]!.phase === 'pending' || states[i]!.phase === 'running',
  );
  if (active.length > 0) {
    throw new SlurmError(
      `task(s) ${active.join(', ')} are still pending or running; cancel them first`,
    );
  }
  for (const i of indices) rmSync(join(sub.logDir, exitMarkerName(i)), { force: true });
  const jobs = await submitGroups(sub, [...new Set(indices)], env);
  return { ...sub, jobs: [...sub.jobs, ...jobs] };
}

async function cancelJobs(ids: string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (ids.length === 0) return;
  const run = await slurm('scancel', ids, env);
  // A task that already ended is not an error.
  if (run.code !== 0 && !/already completing or completed|invalid job id/i.test(run.stderr)) {
    throw commandFailed('scancel', run, `could not cancel ${ids.join(' ')}`);
  }
}

/** Cancels the whole array, or only the tasks `indices` (`scancel <job>_<array id>`). */
export async function cancel(
  sub: ArraySubmission,
  indices?: number[],
  options: SlurmOptions = {},
): Promise<void> {
  if (indices) checkIndices(sub, indices);
  const owner = currentJobs(sub);
  const ids =
    indices === undefined
      ? [...new Set(owner.map((job) => job.jobId))]
      : indices.map((i) => `${owner[i]!.jobId}_${i - owner[i]!.offset}`);
  await cancelJobs(ids, options.env ?? process.env);
}

/**
 * Polls jobStates every `intervalMs` until no task is pending or running and returns the
 * states; throws a SlurmError listing the unfinished tasks after `timeoutMs`.
 */
export async function waitSettled(
  sub: ArraySubmission,
  options: SlurmOptions & { timeoutMs: number; intervalMs?: number },
): Promise<TaskState[]> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const states = await jobStates(sub, options);
    const open = states.filter((t) => t.phase === 'pending' || t.phase === 'running');
    if (open.length === 0) return states;
    if (Date.now() > deadline) {
      throw new SlurmError(
        `tasks still unfinished after ${options.timeoutMs} ms: ${open.map((t) => `${t.index} ${t.state}`).join(', ')}`,
      );
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
  }
}
