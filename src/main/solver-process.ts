/**
 * The solver worker and the dataset loader under Electron: utilityProcesses (Node children
 * without the renderer's privileges) running out/main/worker.js and out/main/loader.js, seen
 * by the backend as `WorkerProcess`es. The child side talks through `process.parentPort`
 * (src/worker/port.ts). Both start under V8's default options, as the forked workers of the
 * web host do.
 */
import { utilityProcess } from 'electron';
import { join } from 'node:path';
import type { WorkerProcess } from '../backend/worker-host';
import type { FromWorker, LoadRequest, RunRequest } from '../shared/worker-protocol';

export function spawnUtilityWorker(): WorkerProcess<RunRequest> {
  return spawnUtility<RunRequest>('worker.js', 'Multiview Studio solver');
}

export function spawnUtilityLoader(): WorkerProcess<LoadRequest> {
  return spawnUtility<LoadRequest>('loader.js', 'Multiview Studio loader');
}

function spawnUtility<Req>(entry: string, serviceName: string): WorkerProcess<Req> {
  const child = utilityProcess.fork(join(import.meta.dirname, entry), [], {
    serviceName,
    stdio: 'inherit',
  });
  return {
    // Known once the process has spawned; the memory watchdog reads it at each poll.
    get pid() {
      return child.pid;
    },
    send: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', (m: unknown) => listener(m as FromWorker)),
    onExit: (listener) => child.once('exit', (code) => listener(`exit code ${code}`)),
    kill: () => void child.kill(),
  };
}
