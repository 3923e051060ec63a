/**
 * The Slurm job-array executor. Without Slurm: the batch script run by bash itself (hostile argv
 * arrive intact, markers written atomically, exit codes passed on), the range syntax, the state
 * rules, and the errors when sbatch is missing or rejects (shim commands on a private PATH).
 * With a real one-node cluster (test/helpers/slurm-cluster.ts): an array runs to completion, and
 * a task cancelled while it runs is reported with its reason, resubmitted and completes. With
 * CI=true the cluster tests must run; elsewhere they are skipped, saying why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArraySubmission,
  arrayChunks,
  cancel,
  failedTasks,
  jobStates,
  parseSacct,
  parseScontrol,
  resubmit,
  SlurmError,
  submitArray,
  taskState,
  waitSettled,
} from '../../../src/backend/executors/slurm';
import {
  arrayRanges,
  batchScript,
  parseRanges,
  shellQuote,
} from '../../../src/backend/executors/slurm-script';
import {
  inCI,
  type SlurmCluster,
  slurmUnavailable,
  startSlurmCluster,
} from '../../helpers/slurm-cluster';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-slurm-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const NODE = process.execPath;

const HOSTILE = [
  'two words',
  "it's",
  '"double" and \'single\'',
  '$(touch /tmp/pwned-by-slurm-test) `id` $HOME ${PATH}',
  'line one\nline two\n',
  '\\backslash\\',
  '*',
  '-e',
  '',
  '; exit 9 #',
  'ünïcødé ✓',
];

/** Runs array task `index` of `script` with bash, as Slurm would, in `cwd`. */
function runTask(script: string, index: number, jobId = '77', offset?: number) {
  return spawnSync('bash', [script, ...(offset === undefined ? [] : [String(offset)])], {
    env: { ...process.env, SLURM_ARRAY_TASK_ID: String(index), SLURM_ARRAY_JOB_ID: jobId },
    encoding: 'utf8',
  });
}

describe('the batch script, run by bash', () => {
  it('hands each task its argv exactly, hostile characters included', () => {
    const dir = join(TMP, 'quote');
    mkdirSync(dir);
    const echo = [NODE, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))'];
    const tasks = [
      [...echo, ...HOSTILE],
      [...echo, 'second', ...HOSTILE.slice().reverse()],
    ];
    const script = join(dir, 'array.sh');
    writeFileSync(script, batchScript(tasks, dir));
    for (const i of [0, 1]) {
      const run = runTask(script, i);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(readFileSync(join(dir, `${i}.err`), 'utf8')).toBe('');
      expect(JSON.parse(readFileSync(join(dir, `${i}.out`), 'utf8'))).toEqual(tasks[i]!.slice(3));
      expect(readFileSync(join(dir, `${i}.exit`), 'utf8')).toBe('0 77\n');
    }
    expect(existsSync('/tmp/pwned-by-slurm-test')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual([
      '0.err',
      '0.exit',
      '0.out',
      '1.err',
      '1.exit',
      '1.out',
      'array.sh',
    ]);
  });

  it('passes the exit status on and records it; an index outside the array exits 2, no marker', () => {
    const dir = join(TMP, 'status');
    mkdirSync(dir);
    const script = join(dir, 'array.sh');
    writeFileSync(script, batchScript([[NODE, '-e', 'process.exit(3)']], dir));
    expect(runTask(script, 0, '12').status).toBe(3);
    expect(readFileSync(join(dir, '0.exit'), 'utf8')).toBe('3 12\n');
    // Array id 0 with offset 2 is task 2.
    writeFileSync(
      script,
      batchScript([[NODE, '-e', 'process.exit(3)'], ['true'], [NODE, '-e', 'console.log(2)']], dir),
    );
    expect(runTask(script, 0, '13', 2).status).toBe(0);
    expect(readFileSync(join(dir, '2.out'), 'utf8')).toBe('2\n');
    expect(readFileSync(join(dir, '2.exit'), 'utf8')).toBe('0 13\n');
    const outside = runTask(script, 1, '13', 2);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('no task 3 in this array (0-2)');
    expect(existsSync(join(dir, '3.exit'))).toBe(false);
  });

  it('a task whose command dies by a signal before the shell gets its own writes no marker', () => {
    const dir = join(TMP, 'signal');
    mkdirSync(dir);
    const script = join(dir, 'array.sh');
    // Task 0: as scancel in the other order, the command is killed by TERM and the batch shell
    // ($PPID of the inner bash) gets its TERM 0.2 s later. Task 1: a command that exits 130 by
    // itself, no signal for the shell: its marker is written.
    const killedFirst = ['bash', '-c', '(sleep 0.2; kill -TERM $PPID) & kill -TERM $$'];
    writeFileSync(script, batchScript([killedFirst, ['bash', '-c', 'exit 130']], dir));
    expect(runTask(script, 0, '21').status).toBe(143);
    expect(existsSync(join(dir, '0.exit'))).toBe(false);
    expect(runTask(script, 1, '21').status).toBe(130);
    expect(readFileSync(join(dir, '1.exit'), 'utf8')).toBe('130 21\n');
  });

  it('refuses what no argv can hold', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
    expect(() => batchScript([], TMP)).toThrow(/at least one task/);
    expect(() => batchScript([[NODE], []], TMP)).toThrow(/task 1 has an empty argv/);
  });
});

describe('array index ranges', () => {
  it('compresses and expands', () => {
    expect(arrayRanges([7, 0, 1, 2, 5, 8, 1])).toBe('0-2,5,7-8');
    expect(arrayRanges([4])).toBe('4');
    expect(parseRanges('0-2,5,7-8')).toEqual([0, 1, 2, 5, 7, 8]);
    expect(parseRanges('[2-3]')).toEqual([2, 3]);
    expect(parseRanges('0-6:3%2')).toEqual([0, 3, 6]);
    const many = [0, 3, 4, 5, 9, 10, 11, 12, 20];
    expect(parseRanges(arrayRanges(many))).toEqual(many);
    expect(() => parseRanges('a-b')).toThrow(/not an array index list/);
  });

  it('splits indices so that every array id stays below MaxArraySize', () => {
    expect(arrayChunks([0, 1, 2, 3], 1001)).toEqual([{ offset: 0, indices: [0, 1, 2, 3] }]);
    expect(arrayChunks([5, 0, 1, 2, 3, 9], 2)).toEqual([
      { offset: 0, indices: [0, 1] },
      { offset: 2, indices: [2, 3] },
      { offset: 5, indices: [5] },
      { offset: 9, indices: [9] },
    ]);
    const big = Array.from({ length: 2500 }, (_, i) => i);
    const chunks = arrayChunks(big, 1001);
    expect(chunks.map((c) => [c.offset, c.indices.length])).toEqual([
      [0, 1001],
      [1001, 1001],
      [2002, 498],
    ]);
  });
});

describe('task states', () => {
  const scontrol = [
    'JobId=5 ArrayJobId=5 ArrayTaskId=3-4 JobName=x JobState=PENDING Reason=Resources ExitCode=0:0 WorkDir=/a b',
    'JobId=6 ArrayJobId=5 ArrayTaskId=2 JobName=x JobState=RUNNING Reason=None ExitCode=0:0',
    'JobId=7 ArrayJobId=5 ArrayTaskId=1 JobName=x JobState=CANCELLED Reason=None ExitCode=0:15',
    'JobId=5 ArrayJobId=5 ArrayTaskId=0 JobName=x JobState=COMPLETED Reason=None ExitCode=0:0',
    '',
  ].join('\n');

  it('reads scontrol -o and sacct -P lines per index', () => {
    const s = parseScontrol(scontrol);
    expect([...s.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(s.get(4)).toEqual({ state: 'PENDING', exitCode: 0, signal: 0, source: 'scontrol' });
    expect(s.get(1)).toEqual({ state: 'CANCELLED', exitCode: 0, signal: 15, source: 'scontrol' });
    const a = parseSacct(
      '5_0|COMPLETED|0:0\n5_1|CANCELLED by 0|0:15\n5_2|TIMEOUT|0:1\n5_[3-4]|PENDING|0:0\n',
    );
    expect(a.get(1)).toEqual({ state: 'CANCELLED', exitCode: 0, signal: 15, source: 'sacct' });
    expect(a.get(2)?.state).toBe('TIMEOUT');
    expect(a.get(4)?.state).toBe('PENDING');
  });

  it('names the reason of each kind of failure', () => {
    const rec = (state: string, exitCode = 0, signal = 0) => ({
      state,
      exitCode,
      signal,
      source: 'scontrol' as const,
    });
    const reason = (state: string, exitCode = 0, signal = 0) =>
      taskState(0, '9', rec(state, exitCode, signal), undefined);
    expect(reason('COMPLETED')).toMatchObject({ phase: 'completed', exitCode: 0 });
    expect(reason('FAILED', 3)).toMatchObject({ phase: 'failed', reason: 'exit 3', exitCode: 3 });
    expect(reason('FAILED', 0, 9)).toMatchObject({
      phase: 'failed',
      reason: 'signal 9',
      signal: 9,
    });
    for (const s of ['CANCELLED', 'TIMEOUT', 'OUT_OF_MEMORY', 'NODE_FAIL', 'PREEMPTED']) {
      expect(reason(s, 0, 15)).toMatchObject({ phase: 'failed', reason: s, state: s });
    }
    expect(reason('PENDING').phase).toBe('pending');
    expect(reason('COMPLETING').phase).toBe('running');
    // A record wins over a marker; without a record the marker decides; without both, lost.
    expect(taskState(0, '9', rec('RUNNING'), 0).phase).toBe('running');
    expect(taskState(0, '9', undefined, 0)).toMatchObject({ phase: 'completed', source: 'marker' });
    expect(taskState(0, '9', undefined, 4)).toMatchObject({ phase: 'failed', reason: 'exit 4' });
    expect(taskState(0, '9', undefined, undefined)).toMatchObject({
      phase: 'lost',
      source: 'none',
    });
  });
});

/** A folder of shim commands, each printing `stderr` and exiting with `code`. */
function shims(
  name: string,
  commands: Record<string, { stdout?: string; stderr?: string; code: number }>,
) {
  const bin = join(TMP, name);
  mkdirSync(bin);
  for (const [cmd, { stdout = '', stderr = '', code }] of Object.entries(commands)) {
    const path = join(bin, cmd);
    writeFileSync(
      path,
      `#!/bin/sh\nprintf %s ${shellQuote(stdout)}\nprintf %s ${shellQuote(stderr)} >&2\nexit ${code}\n`,
    );
    chmodSync(path, 0o755);
  }
  return { ...process.env, PATH: bin };
}

describe('talking to Slurm through the PATH', () => {
  const spec = (logDir: string) => ({
    tasks: [[NODE, '-e', '0']],
    workdir: TMP,
    jobName: 't',
    memMB: 100,
    logDir,
  });

  it('says so when sbatch is not on the PATH', async () => {
    const env = { ...process.env, PATH: join(TMP, 'nothing-here') };
    await expect(submitArray(spec(join(TMP, 'nosb')), { env })).rejects.toThrow(
      /`sbatch` was not found on the PATH/,
    );
  });

  it("includes sbatch's own message when it rejects the job", async () => {
    const msg = 'sbatch: error: Batch job submission failed: Invalid partition name specified';
    const env = shims('reject', { sbatch: { stderr: msg, code: 1 } });
    const err = await submitArray(spec(join(TMP, 'rej')), { env }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlurmError);
    expect((err as Error).message).toContain(msg);
    expect((err as Error).message).toContain('exit 1');
  });

  it('checks the spec, naming the field', async () => {
    await expect(submitArray({ ...spec(TMP), memMB: [1, 2] })).rejects.toThrow(
      /memMB lists 2 values for 1 tasks/,
    );
    await expect(submitArray({ ...spec(TMP), memMB: 0 })).rejects.toThrow(
      /memMB\[0\] must be a positive/,
    );
    await expect(submitArray({ ...spec(TMP), time: '1h' })).rejects.toThrow(/ArraySpec.time/);
  });

  it('reads the exit markers once Slurm has forgotten the job (no accounting)', async () => {
    const logDir = join(TMP, 'forgotten');
    const env = shims('forgot', {
      sbatch: { stdout: '41\n', code: 0 },
      scontrol: { stderr: 'slurm_load_jobs error: Invalid job id specified', code: 1 },
      sacct: { stderr: 'Slurm accounting storage is disabled', code: 1 },
    });
    const tasks = [
      [NODE, '-e', '0'],
      [NODE, '-e', 'process.exit(5)'],
      [NODE, '-e', '0'],
      [NODE, '-e', '0'],
    ];
    const sub = await submitArray({ ...spec(logDir), tasks }, { env });
    expect(sub.jobs).toEqual([{ jobId: '41', indices: [0, 1, 2, 3], offset: 0 }]);
    // Tasks 0 and 1 ran in job 41, task 2 left a marker of another job, task 3 never ran.
    runTask(sub.script, 0, '41');
    runTask(sub.script, 1, '41');
    runTask(sub.script, 2, '40');
    const states = await jobStates(sub, { env });
    expect(states.map((t) => [t.phase, t.reason ?? ''])).toEqual([
      ['completed', ''],
      ['failed', 'exit 5'],
      ['lost', expect.stringMatching(/^LOST/)],
      ['lost', expect.stringMatching(/^LOST/)],
    ]);
  });
});

const why = slurmUnavailable();
if (why && !inCI()) console.warn(`[skip] Slurm cluster tests: ${why}`);

describe.skipIf(why !== null && !inCI())('on a one-node Slurm cluster', () => {
  let cluster: SlurmCluster | undefined;
  beforeAll(async () => {
    // Array ids 0–1 only, so that arrays here are split and offset as large ones are.
    if (!why) cluster = await startSlurmCluster({ maxArraySize: 2 });
  });
  afterAll(() => cluster?.stop());
  /** The cluster's environment; under CI without Slurm, each test fails saying why. */
  const slurmEnv = (): NodeJS.ProcessEnv => {
    if (!cluster) throw new Error(`CI=true and ${why}`);
    return cluster.env;
  };

  /** `node -e` tasks each writing `<out>/<name>`; a shared task body, argv after it. */
  const writer = [
    NODE,
    '-e',
    `const fs = require('fs'); const [out, name, flag] = process.argv.slice(1);
     if (flag && !fs.existsSync(flag)) { fs.writeFileSync(flag, ''); setTimeout(() => {}, 120000); }
     else { fs.writeFileSync(out + '/' + name, name + ' ' + 6 * 7); console.log('wrote', name); }`,
  ];

  it('runs a 4-task array to completion, split by memory size and by MaxArraySize', async () => {
    const env = slurmEnv();
    const out = join(TMP, 'four-out');
    mkdirSync(out);
    const names = ['a b', "it's", '$(x)', 'd'];
    const sub = await submitArray(
      {
        tasks: names.map((n) => [...writer, out, n]),
        workdir: TMP,
        jobName: 'mvs-four',
        memMB: [100, 100, 100, 200],
        time: '5',
        logDir: join(TMP, 'four-logs'),
      },
      { env },
    );
    expect(sub.jobs.map((j) => [j.indices, j.offset])).toEqual([
      [[0, 1], 0],
      [[2], 2],
      [[3], 3],
    ]);
    const states = await waitSettled(sub, { env, timeoutMs: 90_000 });
    expect(states.map((t) => [t.phase, t.source])).toEqual(
      names.map(() => ['completed', 'scontrol']),
    );
    for (const [i, n] of names.entries()) {
      expect(readFileSync(join(out, n), 'utf8')).toBe(`${n} 42`);
      expect(readFileSync(join(sub.logDir, `${i}.out`), 'utf8')).toBe(`wrote ${n}\n`);
      const job = sub.jobs.find((j) => j.indices.includes(i))!;
      expect(readFileSync(join(sub.logDir, `${i}.exit`), 'utf8')).toBe(`0 ${job.jobId}\n`);
    }
    expect(await failedTasks(sub, { env })).toEqual([]);
  });

  it('reports a cancelled task with its reason, resubmits it, and it completes', async () => {
    const env = slurmEnv();
    const out = join(TMP, 'cancel-out');
    mkdirSync(out);
    const flag = join(TMP, 'cancel-flag');
    const tasks = ['t0', 't1', 't2'].map((n, i) => [...writer, out, n, ...(i === 1 ? [flag] : [])]);
    let sub: ArraySubmission = await submitArray(
      { tasks, workdir: TMP, jobName: 'mvs-cancel', memMB: 100, logDir: join(TMP, 'cancel-logs') },
      { env },
    );
    const deadline = Date.now() + 60_000;
    while (!existsSync(flag)) {
      if (Date.now() > deadline) throw new Error('task 1 never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    await cancel(sub, [1], { env });
    const states = await waitSettled(sub, { env, timeoutMs: 60_000 });
    expect(states.map((t) => t.phase)).toEqual(['completed', 'failed', 'completed']);
    const failed = await failedTasks(sub, { env });
    expect(failed).toMatchObject([
      { index: 1, phase: 'failed', state: 'CANCELLED', reason: 'CANCELLED' },
    ]);
    expect(existsSync(join(out, 't1'))).toBe(false);
    expect(existsSync(join(sub.logDir, '1.exit'))).toBe(false);

    sub = await resubmit(sub, [1], { env });
    expect(sub.jobs).toHaveLength(3);
    expect(sub.jobs[2]).toMatchObject({ indices: [1], offset: 1 });
    const again = await waitSettled(sub, { env, timeoutMs: 60_000 });
    expect(again.map((t) => t.phase)).toEqual(['completed', 'completed', 'completed']);
    expect(again[1]!.jobId).toBe(sub.jobs[2]!.jobId);
    for (const n of ['t0', 't1', 't2']) expect(readFileSync(join(out, n), 'utf8')).toBe(`${n} 42`);
    await expect(resubmit(sub, [3], { env })).rejects.toThrow(/no task 3/);
  });

  it('reports a task that exits non-zero with its exit code, from Slurm and from its marker', async () => {
    const env = slurmEnv();
    const sub = await submitArray(
      {
        tasks: [[NODE, '-e', 'process.exit(3)']],
        workdir: TMP,
        jobName: 'mvs-exit',
        memMB: 100,
        logDir: join(TMP, 'exit-logs'),
      },
      { env },
    );
    await waitSettled(sub, { env, timeoutMs: 60_000 });
    const jobId = sub.jobs[0]!.jobId;
    expect(await failedTasks(sub, { env })).toEqual([
      {
        index: 0,
        jobId,
        phase: 'failed',
        state: 'FAILED',
        exitCode: 3,
        signal: 0,
        reason: 'exit 3',
        source: 'scontrol',
      },
    ]);
    expect(readFileSync(join(sub.logDir, '0.exit'), 'utf8')).toBe(`3 ${jobId}\n`);
  });

  it("fails with sbatch's message when the cluster cannot run the job", async () => {
    const env = slurmEnv();
    const err = await submitArray(
      {
        tasks: [[NODE, '-e', '0']],
        workdir: TMP,
        jobName: 'big',
        memMB: 10_000_000,
        logDir: join(TMP, 'big'),
      },
      { env },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlurmError);
    expect((err as Error).message).toMatch(
      /^sbatch rejected the array of 1 task\(s\) at 10000000 MB \(exit 1\): sbatch: error: /,
    );
    expect(execFileSync('squeue', ['-h'], { env, encoding: 'utf8' })).toBe('');
  });
});
