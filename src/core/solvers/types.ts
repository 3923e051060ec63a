/**
 * The solver contract (STYLE.md rules 1 and 14). A solver is pure: given a label-free input,
 * typed parameters, the number of clusters and a seeded RNG, it returns a generator that yields
 * one step per iteration and returns its output. Hosts drive the generator: they time the
 * stages, report progress and cancel between steps without the math knowing.
 *
 * Everything a host needs to know about a method is declared here, next to its math: whether it
 * needs complete views, its memory footprint, its cost, its iteration cap, whether its
 * objective is monotone and its chart data. No file outside `core/solvers/` names a solver.
 */
import type { View } from '../dataset';
import type { Csr, Mat } from '../linalg/types';
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
    }
  | {
      /** A per-view number list ('1,2.5,3' on the CLI); null (the default) means "the rule". */
      readonly type: 'numbers';
      readonly min: number;
      readonly max: number;
      readonly exclusiveMin?: boolean;
      readonly default: null;
      readonly doc: string;
    };

export type ParamSchema = Readonly<Record<string, ParamSpec>>;
export type ParamValue = number | boolean | string | readonly number[] | null;
/** Validated parameters with their types erased: what crosses a host boundary. */
export type Params = Readonly<Record<string, ParamValue>>;

/** The value type one spec declares: an enum's own strings when the schema is `as const`. */
export type ValueOf<P extends ParamSpec> = P extends { readonly type: 'int' | 'number' }
  ? number
  : P extends { readonly type: 'boolean' }
    ? boolean
    : P extends { readonly type: 'enum'; readonly values: readonly (infer E)[] }
      ? E
      : P extends { readonly type: 'numbers' }
        ? readonly number[] | null
        : never;

/** Typed parameters of a schema: `params.lamda` for a schema with `lambda` does not compile. */
export type ParamsOf<S extends ParamSchema> = { readonly [K in keyof S]: ValueOf<S[K]> };

/**
 * What a solver reads: the views and the sample count, never the labels (the protocol strips
 * them). views[v].values: (views[v].present.length, d_v).
 */
export interface SolverInput {
  readonly n: number;
  readonly views: readonly View[];
  /** External sample identifiers (length n), for messages; null when samples are 1..n. */
  readonly sampleIds: readonly string[] | null;
  /**
   * For a solver declaring `input: 'complete'`: per view, the samples the data held before the
   * protocol filled the others (`fillMissing`, core/solvers/complete.ts); every view's `present`
   * is then 0..n−1. Absent when nothing was filled (each view's own `present`).
   */
  readonly observed?: readonly Int32Array[];
}

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

/** A singular-value (or eigenvalue) spectrum: one bar per value, or one line per index. */
export type SpectrumChart =
  | { readonly kind: 'bars'; readonly title: string; readonly values: readonly number[] }
  | {
      readonly kind: 'slices';
      readonly title: string;
      /** The slice index of each column below (e.g. Fourier slices, the DC slice first). */
      readonly slices: readonly number[];
      /** sigma[s][i]: the i-th value at slice slices[s]; kept likewise (after shrinkage). */
      readonly sigma: readonly (readonly number[])[];
      readonly kept: readonly (readonly number[])[] | null;
    };

/** One weight per item (views, usually), with optional per-iteration history. */
export interface WeightsChart {
  readonly title: string;
  readonly labels: readonly string[];
  readonly values: readonly number[];
  /** trace[t][j]: item j's weight after iteration t + 1. */
  readonly trace?: readonly (readonly number[])[];
}

/** A small matrix worth showing as a heatmap (rows × cols, row-major). */
export interface HeatmapChart {
  readonly title: string;
  readonly rows: readonly string[];
  readonly cols: readonly string[];
  readonly values: readonly (readonly number[])[];
}

/** Chart data a method offers; the renderer draws what is there and nothing else. */
export interface SolverCharts {
  readonly spectrum?: SpectrumChart;
  readonly weights?: WeightsChart;
  readonly heatmap?: HeatmapChart;
}

/**
 * The graph a method clusters, handed out for the eigengap of core/choose-k (never drawn, never
 * crossing a process boundary). 'anchor': Z (n, m), nonnegative, row i = sample i's weights on
 * the m anchors; its n × n graph Z·Λ⁻¹·Zᵀ (Λ = diag(Zᵀ1)) is never formed. 'affinity': a
 * symmetric nonnegative (n, n) CSR graph W, in any fixed order of the samples.
 */
export type SolverGraph =
  { readonly kind: 'anchor'; readonly Z: Mat } | { readonly kind: 'affinity'; readonly W: Csr };

/** What a solver returns. */
export interface SolverOutput {
  /** The learnt graph, for a method declaring `graph` (see SolverGraph). */
  readonly graph?: SolverGraph;
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
  /** Typed chart data. */
  readonly charts?: SolverCharts;
  /** Method-specific plain data kept in the run bundle (not read by any host). */
  readonly diagnostics?: Readonly<Record<string, unknown>>;
}

/** The size of a problem, as a footprint sees it before any data is read into a solver. */
export interface ProblemShape {
  readonly n: number;
  /** d_v of each view (V = dims.length). */
  readonly dims: readonly number[];
  /** Present samples of each view (n_v ≤ n). */
  readonly present: readonly number[];
  /** Number of clusters. */
  readonly k: number;
}

/** What a method allocates on top of the loaded data. */
export interface Footprint {
  /** Bytes of its main arrays at their peak. */
  readonly bytes: number;
  /** True when some of them grow as n² (dense n × n): the host warns above a limit. */
  readonly quadratic: boolean;
  /** The arrays in words, for the estimate's tooltip: 'V + 2 dense n × n graphs'. */
  readonly note: string;
}

/**
 * A method's work on a problem of some shape, in floating-point operations to within a constant
 * factor: the host turns it into seconds with throughputs measured on finished runs
 * (backend/estimate.ts), so only how the work grows with n, d_v, k and the parameters has to be
 * right, not its constant.
 */
export interface SolverCost {
  /** Work of one solve (`run`, to its iteration cap). */
  readonly solve: number;
  /**
   * Work of one Lloyd iteration of one k-means start on the method's (n, c) embedding, n·k·c;
   * 0 when the method sets its labels itself (the protocol then runs no k-means).
   */
  readonly kmeans: number;
  /**
   * True when the solve runs again for every seed (it reads the RNG); false when the protocol
   * solves once and reuses it for every seed (`deterministic`), so only k-means repeats.
   */
  readonly perSeed: boolean;
}

/** Declaration and method of one solver, with parameters typed by its schema. */
export interface SolverDefinition<S extends ParamSchema> {
  /** CLI and registry name, e.g. 'kmeans-concat'. */
  readonly name: string;
  readonly title: string;
  /** One paragraph for users: what it does, the paper it reproduces. */
  readonly description: string;
  readonly schema: S;
  /** True when the output does not depend on the RNG: the paper protocol then solves once. */
  readonly deterministic: boolean;
  /**
   * 'incomplete': the method reads each view's present samples itself. 'complete': it needs
   * every sample in every view; the protocol fills the missing ones first (`fillMissing`) and
   * says so in the notes.
   */
  readonly input: 'complete' | 'incomplete';
  /** True when the objective never increases from one iteration to the next (the tests check). */
  readonly monotone: boolean;
  /** The graph its output hands out (`SolverOutput.graph`), in words; absent: none. */
  readonly graph?: string;
  /** The most iterations the parameters allow, or null for a method without iterations. */
  iterationCap(params: ParamsOf<S>): number | null;
  /** What the method allocates for a problem of this shape (within 2× of its measured peak). */
  footprint(shape: ProblemShape, params: ParamsOf<S>): Footprint;
  /** What the method computes for a problem of this shape (the time estimate's input). */
  cost(shape: ProblemShape, params: ParamsOf<S>): SolverCost;
  /** The method. `params` are validated against `schema`; 2 ≤ k ≤ n. */
  run(
    input: SolverInput,
    params: ParamsOf<S>,
    k: number,
    rng: Rng,
  ): Generator<SolverStep, SolverOutput, void>;
}

/** A registered solver: its definition with the parameter types erased, as hosts hold it. */
export type Solver = SolverDefinition<ParamSchema> & {
  iterationCap(params: Params): number | null;
  footprint(shape: ProblemShape, params: Params): Footprint;
  cost(shape: ProblemShape, params: Params): SolverCost;
  run(
    input: SolverInput,
    params: Params,
    k: number,
    rng: Rng,
  ): Generator<SolverStep, SolverOutput, void>;
};

/**
 * A solver from its definition. Declare the schema `as const` (or with `satisfies ParamSchema`)
 * so that `run`, `footprint`, `cost` and `iterationCap` receive `ParamsOf<schema>`: a misspelt
 * parameter then fails to compile. Hosts validate parameters against the schema before calling
 * anything here, which is what makes the erasure below sound.
 */
export function defineSolver<const S extends ParamSchema>(def: SolverDefinition<S>): Solver {
  return def as unknown as Solver;
}
