/**
 * One benchmark case of `npm run bench -- baselines-incomplete`: a recorded Octave run of
 * `shared/reference/baselines-incomplete.json` and the run of ours it is compared with. Each
 * method's cases live in `test/bench/baselines-incomplete/<method>.ts`, which exports
 * `cases: IncompleteBenchCase[]` (built from the JSON, never retyped) and, for the methods the
 * issue holds to linear scale, `scale: true` (and `scaleMethod` when it has no case to take the
 * method's name from). `casesFrom` is the usual way from the JSON's runs to those cases.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParamValue } from '../../../src/core/solvers/types';
import { SHARED } from '../../helpers/paths';

export interface IncompleteBenchCase {
  /** Row label, e.g. 'NGs Per0.5'. */
  name: string;
  /** Our registered method. */
  method: string;
  /** Our parameters that reproduce the recorded run (defaults are the recorded settings). */
  params: Readonly<Record<string, ParamValue>>;
  /** The data file, relative to `shared/datasets` (the run's `file`). */
  file: string;
  /** The recorded reference time in seconds this case is compared with. */
  referenceSeconds: number;
  /** What that time covers (e.g. 'solve', 'kernels + solve'); printed beside it. */
  definition: string;
  /** The speed-up target; 1 means "faster than its reference". */
  target: number;
}

/** A recorded run of baselines-incomplete.json, as far as a case builder reads it. */
export interface RecordedRun {
  readonly file: string;
  readonly method: string;
  readonly status?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly timings_s: Readonly<Record<string, number>>;
}

/** How a method's recorded runs become its cases. */
export interface CaseSpec {
  /** The recorded runs to time (failed runs are never picked). */
  readonly select: (run: RecordedRun) => boolean;
  /** Throws when the run was recorded with settings the case would not reproduce. */
  readonly check?: (run: RecordedRun) => void;
  /** Our registered method. */
  readonly method: string;
  /** Row label; default the file's label, e.g. 'BDGP Per0.5'. */
  readonly name?: (run: RecordedRun, label: string) => string;
  /** Our parameters for the run. */
  readonly params: (run: RecordedRun) => Readonly<Record<string, ParamValue>>;
  /** The keys of `timings_s` whose sum is the reference time, and what that sum covers. */
  readonly timings: readonly string[];
  readonly definition: string;
  /** Speed-up target per file; 1 for a file not named. */
  readonly targets: Readonly<Record<string, number>>;
}

/** 'BDGP/BDGP_fea_Per0.5.mat' → 'BDGP Per0.5'. */
export const fileLabel = (file: string): string =>
  file
    .replace(/^.*\//, '')
    .replace(/\.mat$/, '')
    .replace('_fea', '')
    .replace('_', ' ');

/** The cases `spec` picks from shared/reference/baselines-incomplete.json, in the file's order. */
export function casesFrom(spec: CaseSpec): IncompleteBenchCase[] {
  const json = JSON.parse(
    readFileSync(join(SHARED, 'reference', 'baselines-incomplete.json'), 'utf8'),
  ) as { runs: RecordedRun[] };
  return json.runs
    .filter((r) => r.status !== 'failed' && spec.select(r))
    .map((r) => {
      spec.check?.(r);
      const seconds = spec.timings.map((key) => {
        const t = r.timings_s[key];
        if (t === undefined)
          throw new Error(`${spec.method} bench: ${r.file} has no timings_s.${key}`);
        return t;
      });
      return {
        name: spec.name ? spec.name(r, fileLabel(r.file)) : fileLabel(r.file),
        method: spec.method,
        params: spec.params(r),
        file: r.file,
        referenceSeconds: seconds.reduce((a, b) => a + b),
        definition: spec.definition,
        target: spec.targets[r.file] ?? 1,
      };
    });
}
