/**
 * Kept results (backend/runs.ts): what one takes in memory, its labels.csv, and its seeds. The
 * result store keeps the first seed's RunResult whole and, for seeds 2..N, only what differs
 * (the worker's SeedView: clusters, confusion and traces, plus the solve's objective,
 * projection and charts when each seed had its own solve), and rebuilds the RunResult of any
 * seed from them on request.
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

/**
 * About what a kept result takes in memory: its typed arrays, its strings (two bytes a
 * character) and eight bytes a number of the small parts.
 */
export function resultBytes(r: RunResult): number {
  let bytes = 1024;
  for (const a of [r.projection.x, r.projection.y, r.clusters, r.truth, r.missingViews]) {
    bytes += a?.byteLength ?? 0;
  }
  for (const id of r.sampleIds ?? []) bytes += 2 * id.length + 16;
  for (const t of Object.values(r.traces)) bytes += 8 * t.length;
  bytes += 8 * (r.objective.length + (r.confusion?.counts.length ?? 0) ** 2);
  bytes += 2 * (JSON.stringify(r.charts).length + JSON.stringify(r.diagnostics).length);
  return bytes;
}

/** Rows of labels.csv built per turn of the event loop. */
const CSV_ROWS_PER_TURN = 50_000;

/**
 * labels.csv of a kept result, as the bundle's (io/bundle.ts `labelsCsv`): `sample_id,cluster`
 * and `true_label` when there are labels, clusters 1-based, classes as their original values.
 * Built from the result's arrays a slice at a time, so a 10^6-sample export does not block
 * the host.
 */
export async function labelsCsvOf(r: RunResult): Promise<string> {
  const { clusters, truth, classes, sampleIds } = r;
  const labelled = truth !== null && classes !== null;
  const chunks = [labelled ? 'sample_id,cluster,true_label\n' : 'sample_id,cluster\n'];
  for (let from = 0; from < clusters.length; from += CSV_ROWS_PER_TURN) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    const lines: string[] = [];
    for (let i = from; i < Math.min(clusters.length, from + CSV_ROWS_PER_TURN); i++) {
      let line = `${csvField(sampleIds?.[i] ?? i + 1)},${clusters[i]! + 1}`;
      if (labelled) line += `,${csvField(classes[truth[i]!]!)}`;
      lines.push(line);
    }
    chunks.push(lines.join('\n') + '\n');
  }
  return chunks.join('');
}

/** A CSV field, quoted when it holds a comma, quote or line break (as io/bundle.ts writes). */
function csvField(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}
