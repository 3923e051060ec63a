/**
 * The solver worker under Electron: a utilityProcess (a Node child without the renderer's
 * privileges) running out/main/worker.js, seen by the backend as a `WorkerProcess`. The worker
 * side talks through `process.parentPort` (src/worker/port.ts). It starts under the same V8
 * options as the forked worker of the web host (SOLVER_V8_FLAGS).
 */
import { utilityProcess } from 'electron';
import { join } from 'node:path';
import { SOLVER_V8_FLAGS, type WorkerProcess } from '../backend/worker-host';
import type { FromWorker } from '../shared/worker-protocol';

export function spawnUtilityWorker(): WorkerProcess {
  const child = utilityProcess.fork(join(import.meta.dirname, 'worker.js'), [], {
    serviceName: 'Multiview Studio solver',
    execArgv: [...SOLVER_V8_FLAGS],
    stdio: 'inherit',
  });
  return {
    send: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', (m: unknown) => listener(m as FromWorker)),
    onExit: (listener) => child.once('exit', (code) => listener(`exit code ${code}`)),
    kill: () => void child.kill(),
  };
}
