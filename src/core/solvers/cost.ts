/**
 * A run's work under the evaluation protocol, from the solver's declared cost (`Solver.cost`):
 * which parts repeat per seed follows core/protocol.ts. The solve runs once per seed, or once
 * in all for a solver that is not `perSeed` (deterministic: its output is reused); k-means runs
 * `replicates` starts per seed; reading the data and scoring each seed make up the rest.
 */
import { defaultReplicates, type ProtocolKind } from '../protocol';
import type { Params, ProblemShape, Solver } from './types';

/** Work of each part of a run, in the declared cost's units (flops up to a constant). */
export interface RunWork {
  /** The solver's solves: once, or once per seed. */
  readonly solve: number;
  /** Lloyd iterations' work over every seed's k-means starts. */
  readonly kmeans: number;
  /** Loading the data (its values) and scoring each seed (n per seed). */
  readonly rest: number;
  /** How many solves and k-means starts that is. */
  readonly solves: number;
  readonly starts: number;
}

/** The work of `solver` with validated `params` on a problem of `shape` under the protocol. */
export function protocolWork(
  solver: Solver,
  shape: ProblemShape,
  params: Params,
  protocol: ProtocolKind,
  seeds?: number,
): RunWork {
  const cost = solver.cost(shape, params);
  const count = protocol === 'paper' ? (seeds ?? 20) : 1;
  const solves = cost.perSeed ? count : 1;
  const starts = cost.kmeans > 0 ? count * defaultReplicates(protocol) : 0;
  const values = shape.dims.reduce((a, d, v) => a + d * (shape.present[v] ?? shape.n), 0);
  return {
    solve: cost.solve * solves,
    kmeans: cost.kmeans * starts,
    rest: values + count * shape.n,
    solves,
    starts,
  };
}
