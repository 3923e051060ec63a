/**
 * The seeds of a kept result (backend/runs.ts): the result store keeps the first seed's
 * RunResult whole and, for seeds 2..N, only what differs (the worker's SeedView: clusters,
 * confusion and traces, plus the solve's objective, projection and charts when each seed had
 * its own solve), and rebuilds the RunResult of any seed from them on request.
 */
import type { SolverCharts } from '../core/solvers/types';
import type { RunResult } from '../shared/contract';
import type { SeedView } from '../shared/worker-protocol';
import { plain } from './results';

/** A kept result: the first seed's as drawn, and the other seeds' differences (SeedView). */
export interface StoredResult {
  readonly first: RunResult;
  /** Solver iterations of each seed, in the order of `first.seeds`. */
  readonly iterations: readonly number[];
  /** Seeds 2..N (`first.seeds[i + 1]`). */
  readonly others: readonly SeedView[];
}

/**
 * The result drawn for `seed`: the first seed's with that seed's clusters, confusion and
 * traces, and its own solve's objective, projection and charts unless one solve served all.
 */
export function seedResult(r: StoredResult, seed: number): RunResult {
  const { first } = r;
  const i = first.seeds.indexOf(seed);
  if (i < 0) {
    throw named(
      'NotFound',
      `run ${first.id} has no seed ${seed}; its seeds are ${first.seeds[0]} to ${first.seeds.at(-1)}`,
    );
  }
  if (i === 0) return first;
  const other = r.others[i - 1];
  if (!other) throw named('NotFound', `run ${first.id} kept no charts of seed ${seed}`);
  const solve = other.solve;
  return {
    ...first,
    seed,
    clusters: other.clusters,
    confusion: other.confusion,
    traces: other.traces,
    iterations: r.iterations[i] ?? first.iterations,
    ...(solve
      ? {
          objective: [...solve.objective],
          projection: {
            x: solve.projection.x,
            y: solve.projection.y,
            explained: [...solve.projection.explained],
            dims: solve.projection.dims,
          },
          charts: plain(solve.charts) as SolverCharts,
        }
      : {}),
  };
}

/** About what one seed's view takes in memory (as `resultBytes` counts). */
export function seedViewBytes(o: SeedView): number {
  let bytes = 256 + o.clusters.byteLength + 8 * (o.confusion?.counts.length ?? 0) ** 2;
  for (const t of Object.values(o.traces)) bytes += 8 * t.length;
  if (o.solve) {
    bytes += o.solve.projection.x.byteLength + o.solve.projection.y.byteLength;
    bytes += 8 * o.solve.objective.length + 2 * JSON.stringify(o.solve.charts).length;
  }
  return bytes;
}

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}
