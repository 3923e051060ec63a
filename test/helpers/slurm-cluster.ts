/**
 * A one-node Slurm cluster on 127.0.0.1 for tests (the recipe of ../shared/specs/distributed.md):
 * a private state folder, random ports, munge on a private socket (or `auth/none`), slurmctld and
 * slurmd in the foreground as children of this process. `stop()` shuts them down and kills only
 * the daemons it started, by PID.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface SlurmCluster {
  /** process.env plus SLURM_CONF: what every client command (sbatch, scontrol, …) needs. */
  env: NodeJS.ProcessEnv;
  /** The cluster's private folder (slurm.conf, state, logs). */
  dir: string;
  /** Shuts the cluster down, reaps its daemons by PID, removes `dir`. Safe to call twice. */
  stop(): Promise<void>;
}

const DAEMONS = ['slurmctld', 'slurmd', 'munged', 'mungekey', 'munge'];
const CLIENTS = ['sbatch', 'squeue', 'scontrol', 'scancel', 'sinfo'];

/** The daemons live in sbin, which a non-login PATH may lack: search there too. */
const SEARCH = [
  ...(process.env.PATH ?? '').split(delimiter),
  '/usr/local/sbin',
  '/usr/sbin',
  '/sbin',
];

/** The absolute path of command `name`, or undefined. */
function which(name: string): string | undefined {
  for (const dir of SEARCH) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Why a cluster cannot start here (missing commands, not root), or null when it can. */
export function slurmUnavailable(): string | null {
  const missing = [...DAEMONS, ...CLIENTS].filter((c) => which(c) === undefined);
  if (missing.length > 0) {
    return (
      `Slurm is not installed (${missing.join(', ')} not on the PATH); ` +
      'apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge'
    );
  }
  if (process.getuid?.() !== 0) return 'the Slurm daemons of the test cluster must run as root';
  return null;
}

/** True when the CI environment variable says this is CI, where Slurm tests must run. */
export const inCI = (): boolean => ['true', '1'].includes((process.env.CI ?? '').toLowerCase());

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Two consecutive free TCP ports on 127.0.0.1 in 20000–39999 (slurmctld, slurmd). */
async function freePorts(): Promise<number> {
  const free = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 19998);
    if ((await free(port)) && (await free(port + 1))) return port;
  }
  throw new Error('no two free consecutive ports found in 20000–39999 for the test Slurm cluster');
}

/** Polls `check` every `everyMs` until it returns true; throws `what` after `ms`. */
async function until(check: () => boolean, ms: number, everyMs: number, what: () => string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await sleep(everyMs);
  }
}

function quiet(cmd: string, args: string[], env: NodeJS.ProcessEnv): string {
  try {
    return execFileSync(cmd, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

function slurmConf(
  dir: string,
  port: number,
  auth: string,
  nodeLine: string,
  extra: string[],
): string {
  return [
    'ClusterName=ci',
    'SlurmctldHost=localhost(127.0.0.1)',
    'SlurmUser=root',
    'SlurmdUser=root',
    `SlurmctldPort=${port}`,
    `SlurmdPort=${port + 1}`,
    auth,
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool`,
    `SlurmctldPidFile=${dir}/slurmctld.pid`,
    `SlurmdPidFile=${dir}/slurmd.pid`,
    `SlurmctldLogFile=${dir}/slurmctld.log`,
    `SlurmdLogFile=${dir}/slurmd.log`,
    // cgroup plugins register the node and then kill every job at launch (trap 2).
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'SchedulerType=sched/backfill',
    'SchedulerParameters=batch_sched_delay=0,sched_min_interval=0',
    'MpiDefault=none',
    'MailProg=/bin/true',
    'ReturnToService=2',
    'SlurmdTimeout=30',
    'InactiveLimit=0',
    'KillWait=5',
    'MinJobAge=300',
    ...extra,
    `${nodeLine} State=UNKNOWN`,
    'PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

/**
 * Starts the cluster and waits until its node is idle. `auth: 'none'` skips munge (works on
 * Debian 12's Slurm 22.05, not promised elsewhere); `maxArraySize` lowers Slurm's limit on array
 * ids (default 1001) to test arrays that must be split. Throws with the daemons' logs' location when
 * a step does not come up in time; whatever started is stopped first.
 */
export async function startSlurmCluster(
  options: { auth?: 'munge' | 'none'; realMemoryMB?: number; maxArraySize?: number } = {},
): Promise<SlurmCluster> {
  const auth = options.auth ?? 'munge';
  const dir = mkdtempSync(join(tmpdir(), 'slurmci.'));
  for (const sub of ['state', 'spool', 'munge']) mkdirSync(join(dir, sub));
  chmodSync(join(dir, 'munge'), 0o700);
  const children: ChildProcess[] = [];
  const daemon = (cmd: string, args: string[], log: string, env: NodeJS.ProcessEnv) => {
    const out = openSync(join(dir, log), 'a');
    const child = spawn(which(cmd) ?? cmd, args, { env, stdio: ['ignore', out, out] });
    closeSync(out); // the child holds its own copy
    child.on('error', () => undefined);
    children.push(child);
    return child;
  };

  let stopped = false;
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: join(dir, 'slurm.conf') };
  const exited = (child: ChildProcess) => () =>
    child.exitCode !== null || child.signalCode !== null;
  const stop = async (keepDir = false): Promise<void> => {
    if (stopped) return;
    stopped = true;
    // slurmctld and slurmd stop on `scontrol shutdown`; munged (started first) on SIGTERM.
    quiet('scontrol', ['shutdown'], env);
    for (const child of [...children].reverse()) {
      if (child.spawnargs[0]?.endsWith('munged')) child.kill('SIGTERM');
      await until(exited(child), 3000, 50, () => '').catch(() => child.kill('SIGTERM'));
      await until(exited(child), 2000, 50, () => '').catch(() => child.kill('SIGKILL'));
    }
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    let authConf = 'AuthType=auth/none\nCredType=cred/none';
    if (auth === 'munge') {
      const m = join(dir, 'munge');
      execFileSync(which('mungekey') ?? 'mungekey', ['--create', `--keyfile=${m}/munge.key`]);
      chmodSync(join(m, 'munge.key'), 0o400);
      const socket = join(m, 'munge.socket');
      daemon(
        'munged',
        [
          '-F',
          '--force',
          `--socket=${socket}`,
          `--key-file=${m}/munge.key`,
          `--pid-file=${m}/munged.pid`,
          `--log-file=${m}/munged.log`,
          `--seed-file=${m}/munged.seed`,
        ],
        'munged.out',
        process.env,
      );
      await until(
        () => quiet('munge', ['-S', socket, '-n'], env) !== '',
        5000,
        100,
        () => `munged did not answer on ${socket} (see ${dir}/munged.out)`,
      );
      authConf = `AuthType=auth/munge\nAuthInfo=socket=${socket}\nCredType=cred/munge`;
    }
    const detected =
      execFileSync(which('slurmd') ?? 'slurmd', ['-C'], { encoding: 'utf8' }).split('\n')[0] ?? '';
    const realMB = Number(/RealMemory=(\d+)/.exec(detected)?.[1] ?? 0);
    const memMB = Math.min(options.realMemoryMB ?? 1000, realMB || 1000);
    const nodeLine = detected
      .replace(/^NodeName=\S*/, 'NodeName=localhost NodeAddr=127.0.0.1')
      .replace(/RealMemory=\d+/, `RealMemory=${memMB}`);
    const port = await freePorts();
    writeFileSync(
      env.SLURM_CONF!,
      slurmConf(
        dir,
        port,
        authConf,
        nodeLine,
        options.maxArraySize ? [`MaxArraySize=${options.maxArraySize}`] : [],
      ),
    );

    daemon('slurmctld', ['-D', '-c', '-i', '-f', env.SLURM_CONF!], 'slurmctld.out', env);
    await until(
      () => quiet('scontrol', ['ping'], env).includes('UP'),
      15_000,
      100,
      () => `slurmctld did not come up (see ${dir}/slurmctld.log)`,
    );
    daemon('slurmd', ['-D', '-N', 'localhost', '-f', env.SLURM_CONF!], 'slurmd.out', env);
    // The node must be idle before a submit: an invalid node takes jobs that pend forever (trap 3).
    await until(
      () => quiet('sinfo', ['-h', '-N', '-o', '%t'], env).trim() === 'idle',
      30_000,
      200,
      () =>
        `the node did not become idle: ${quiet('sinfo', ['-h', '-N', '-o', '%N %t %E'], env)}` +
        ` (see ${dir}/slurmd.log)`,
    );
  } catch (err) {
    await stop(true); // the message names the logs in `dir`
    throw err;
  }
  return { env, dir, stop: () => stop() };
}
