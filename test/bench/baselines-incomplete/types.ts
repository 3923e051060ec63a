/**
 * One benchmark case of `npm run bench -- baselines-incomplete`: a recorded Octave run of
 * `shared/reference/baselines-incomplete.json` and the run of ours it is compared with. Each
 * method's cases live in `test/bench/baselines-incomplete/<method>.ts`, which exports
 * `cases: IncompleteBenchCase[]` (built from the JSON, never retyped) and, for the methods the
 * issue holds to linear scale, `scale: true`.
 */
import type { ParamValue } from '../../../src/core/solvers/types';

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
