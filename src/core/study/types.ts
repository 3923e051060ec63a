/**
 * The contract of a study's results (issue 22): the long-format rows the engine writes to
 * `results.csv` and keeps in memory, and that every table, selection and report reads. One row
 * per cell and seed; a cell is one method × parameter point × dataset.
 */
import type { ParamValue } from '../solvers/types';

/** The metrics a study may score; `acc`, `nmi`, `purity` need labels, `silhouette` does not. */
export type StudyMetric = 'acc' | 'nmi' | 'purity' | 'ari' | 'f' | 'silhouette';

/** Every metric a study may score, in table order. */
export const STUDY_METRICS: readonly StudyMetric[] = [
  'acc',
  'nmi',
  'purity',
  'ari',
  'f',
  'silhouette',
];

/** One run of one cell with one seed. */
export interface StudyRow {
  /** Stable cell id within the study ('c0001', ...), the same across restarts. */
  readonly cell: string;
  /** Registered solver name. */
  readonly method: string;
  /** Display name of the spec's method entry (defaults to `method`; two entries may share one). */
  readonly label: string;
  /** The grid point alone: the parameters the study varies for this entry ({} without a grid). */
  readonly grid: Readonly<Record<string, ParamValue>>;
  /** Every parameter the run used (fixed ∪ grid, `k`-relative values resolved). */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Dataset label: a table column (a file's name, or e.g. 'NGs@0.5' for a missing-rate series). */
  readonly dataset: string;
  /** Missing-rate of the dataset entry when it comes from a generated series, else null. */
  readonly missingRate: number | null;
  readonly seed: number;
  readonly status: 'done' | 'failed';
  /** Failure reason (status 'failed'), else ''. */
  readonly error: string;
  /** Metric values of this run (absent metrics are not scored; NaN never appears). */
  readonly metrics: Readonly<Partial<Record<StudyMetric, number>>>;
  /** The solver's final objective, when it reports one (label-free selection), else null. */
  readonly objective: number | null;
  /** Wall time of the run in seconds. */
  readonly seconds: number;
  /**
   * Cross-seed stability (label-free): the mean ARI between this seed's labels and each other
   * seed's labels of the same cell; null with one seed, absent when the engine did not score it.
   */
  readonly stability?: number | null;
}

/** How a parameter point was chosen for a table: never mixed, always said. */
export type SelectionRule = 'oracle' | 'label-free';
