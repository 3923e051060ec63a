/**
 * What the session's job managers (choose-k sweeps, studies) share: their finished jobs are
 * forgotten oldest first past a bound, so a long session does not grow the map without end.
 */
import type { RunStatus } from '../shared/contract';

/** Drops the oldest jobs past `keep` (in insertion order) that are neither queued nor running. */
export function forgetFinished<J extends { info: { status: RunStatus } }>(
  jobs: Map<string, J>,
  keep: number,
): void {
  for (const [id, job] of jobs) {
    if (jobs.size <= keep) return;
    if (job.info.status !== 'queued' && job.info.status !== 'running') jobs.delete(id);
  }
}
