/**
 * The incomplete-view baselines' recorded runs (../shared/reference/baselines-incomplete.json)
 * and how their reference tests score a result of ours against one: the CBG protocol (the
 * paper protocol with 20 seeds, each k-means the best of 20 starts, at most 1000 iterations)
 * and the band max(0.02, 2σ√(2/20)) around the recorded mean (σ the recorded std over 20
 * k-means).
 */
import { expect } from 'vitest';
import type { ProtocolResult } from '../../src/core/protocol';
import {
  readReference,
  type MetricSummary,
  type ReferenceFile,
  type ReferenceRun,
} from './reference';

/** Every recorded run of baselines-incomplete.json (the failed ones left out). */
export const incompleteReference: ReferenceFile = readReference('baselines-incomplete');

/** The metrics the recorded runs report. */
export const METRIC_NAMES = ['ACC', 'NMI', 'Purity'] as const;

/** The reference's protocol, as our evaluate() options. */
export const CBG_PROTOCOL = {
  protocol: 'paper',
  seed: 0,
  seeds: 20,
  replicates: 20,
  kmeansMaxIterations: 1000,
} as const;

/**
 * The reference's protocol with its own k-means, GNU Octave statistics 1.5.3's (its replicates
 * after one whose last decrease was at most 0.001 are not iterated; cluster/kmeans-octave.ts),
 * over `seeds` seeds: more than the record's 20 so our mean is close to its expectation and the
 * band measures the record's own spread.
 */
export const octaveProtocol = (seeds: number) =>
  ({ ...CBG_PROTOCOL, seeds, kmeansRule: 'octave-1.5.3' }) as const;

/** How far our mean may stand from the recorded one: max(0.02, 2σ√(2/20)). */
export function band(ref: MetricSummary): number {
  return Math.max(0.02, 2 * ref.std * Math.sqrt(2 / 20));
}

/** The recorded runs whose method is `method` exactly, or that `select` picks. */
export function recordedRuns(select: string | ((run: ReferenceRun) => boolean)): ReferenceRun[] {
  const pick = typeof select === 'string' ? (r: ReferenceRun) => r.method === select : select;
  return incompleteReference.runs.filter(pick);
}

/** The one recorded run of `method` (on `file`, when given); a clear error when there is none. */
export function recordedRun(method: string, file?: string): ReferenceRun {
  const run = incompleteReference.runs.find(
    (r) => r.method === method && (file === undefined || r.file === file),
  );
  if (!run) {
    const where = file === undefined ? '' : ` on ${file}`;
    throw new Error(`baselines-incomplete.json: no recorded run '${method}'${where}`);
  }
  return run;
}

/**
 * Logs and asserts each metric of `metrics` against `run`'s: two-sided, |ours − recorded| ≤
 * band; or, with `oneSided`, ours ≥ recorded − band. `what` names the case in the messages.
 */
export function expectMetricsInBand(
  metrics: ProtocolResult['metrics'],
  run: ReferenceRun,
  what: string,
  oneSided = false,
): void {
  for (const m of METRIC_NAMES) {
    const ref = run.metrics[m]!;
    const ours = metrics[m]!;
    console.log(
      `${what} ${m} ${ours.mean.toFixed(4)}±${ours.std.toFixed(4)} ` +
        `(ref ${ref.mean.toFixed(4)}±${ref.std.toFixed(4)}, band ${band(ref).toFixed(4)})`,
    );
    if (oneSided) expect(ours.mean, `${what} ${m}`).toBeGreaterThanOrEqual(ref.mean - band(ref));
    else expect(Math.abs(ours.mean - ref.mean), `${what} ${m}`).toBeLessThanOrEqual(band(ref));
  }
}
