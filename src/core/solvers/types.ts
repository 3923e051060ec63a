/**
 * The solver contract (STYLE.md rule 1): a solver is pure. Given a dataset, validated
 * parameters, the number of clusters and a seeded RNG, it returns a generator that yields one
 * step per iteration and returns its output. Hosts drive the generator: they time the stages,
 * report progress, and cancel between steps without the math knowing.
 */
import type { MultiViewDataset } from '../dataset';
import type { Mat } from '../linalg/types';
import type { Rng } from '../random';

/** One parameter's declaration: drives validation, CLI flags, the renderer's form and docs. */
export type ParamSpec =
  | {
      readonly type: 'int';
      readonly min: number;
      readonly max: number;
      readonly default: number;
      readonly doc: string;
    }
  | {
      readonly type: 'number';
      readonly min: number;
      readonly max: number;
      /** When true, `min` itself is not allowed (e.g. a tolerance > 0). */
      readonly exclusiveMin?: boolean;
      readonly default: number;
      readonly doc: string;
    }
  | { readonly type: 'boolean'; readonly default: boolean; readonly doc: string }
  | {
      readonly type: 'enum';
      readonly values: readonly string[];
      readonly default: string;
      readonly doc: string;
    };

export type ParamSchema = Readonly<Record<string, ParamSpec>>;
export type ParamValue = number | boolean | string;
export type Params = Readonly<Record<string, ParamValue>>;

/** What a solver yields once per iteration (or stage change). Plain data. */
export interface SolverStep {
  /** Named stage: 'prepare', 'solve', 'embed', ...; the host times each stage. */
  readonly stage: string;
  /** 1-based iteration within the stage ('solve'), 0 for a stage without iterations. */
  readonly iteration: number;
  /** Objective after this iteration, when the method has one. */
  readonly objective: number | null;
  /** Other per-step quantities worth charting (e.g. α_v, residuals). */
  readonly values?: Readonly<Record<string, number>>;
}

/** What a solver returns. */
export interface SolverOutput {
  /** (n, c) embedding, rows = samples; the evaluation protocol runs k-means on it. */
  readonly embedding: Mat;
  /** Labels the method produces by itself (e.g. connected components); else k-means decides. */
  readonly labels?: Int32Array;
  /** Objective per iteration (empty for methods without one). */
  readonly objective: readonly number[];
  readonly converged: boolean;
  readonly iterations: number;
  /** Rules the method applied that the user should read (e.g. "view 3 chosen by ..."). */
  readonly notes: readonly string[];
  /** Method-specific plain data for charts (spectra, weights). */
  readonly diagnostics?: Readonly<Record<string, unknown>>;
}

export interface Solver {
  /** CLI and registry name, e.g. 'kmeans-concat'. */
  readonly name: string;
  readonly title: string;
  /** One paragraph for users: what it does, the paper it reproduces. */
  readonly description: string;
  readonly schema: ParamSchema;
  /** True when the output does not depend on the RNG: the paper protocol then solves once. */
  readonly deterministic: boolean;
  /**
   * The method. `params` are already validated against `schema`; `k` is the number of
   * clusters (1 ≤ k ≤ n).
   */
  run(
    ds: MultiViewDataset,
    params: Params,
    k: number,
    rng: Rng,
  ): Generator<SolverStep, SolverOutput, void>;
}
