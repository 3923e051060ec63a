/**
 * What the worker does with a run request: load the dataset from its path, validate the
 * parameters, drive the evaluation protocol step by step (yielding to the event loop between
 * steps so a cancel can arrive), time the stages, and write the run bundle. The arrays stay in
 * this process; the host receives the summary, the labels and the bundle's path.
 */
import { evaluate, type ProtocolResult } from '../core/protocol';
import { validateParams } from '../core/solvers/params';
import { getSolver } from '../core/solvers/registry';
import type { Params } from '../core/solvers/types';
import { writeRunBundle, type RunTimings } from '../io/bundle';
import { loadDataset } from '../io/load';
import type { RunRequest } from '../shared/worker-protocol';
import type { RunHooks } from './serve';

export interface WorkerRunResult {
  readonly method: string;
  readonly params: Params;
  readonly k: number;
  readonly result: ProtocolResult;
  readonly timings: RunTimings;
  /** Path of the bundle folder, when the request asked for one. */
  readonly bundle: string | null;
}

const since = (t0: number): number => (performance.now() - t0) / 1000;

export async function executeRun(request: RunRequest, hooks: RunHooks): Promise<WorkerRunResult> {
  const t0 = performance.now();
  const solver = getSolver(request.method);
  const params = validateParams(solver.schema, request.params);
  const ds = await loadDataset(request.datasetPath, request.loadOptions);
  const load_s = since(t0);
  const k = request.k ?? ds.labels?.classes.length;
  if (k === undefined) {
    throw new RangeError(
      `${request.datasetPath} has no labels: the number of clusters k must be given`,
    );
  }
  const gen = evaluate(ds, solver, params, k, {
    protocol: request.protocol,
    seed: request.seed,
    ...(request.seeds !== undefined ? { seeds: request.seeds } : {}),
  });
  let solve_s = 0;
  let kmeans_s = 0;
  let result: ProtocolResult;
  for (;;) {
    await hooks.step();
    const t = performance.now();
    const r = gen.next();
    const dt = since(t);
    if (r.done) {
      result = r.value;
      break;
    }
    if (r.value.step.stage === 'kmeans') kmeans_s += dt;
    else if (r.value.step.stage !== 'metrics') solve_s += dt;
    hooks.progress({ ...r.value, elapsed: since(t0) });
  }
  const timings: RunTimings = { total_s: since(t0), load_s, solve_s, kmeans_s };
  const bundle =
    request.bundleDir === undefined
      ? null
      : await writeRunBundle(request.bundleDir, {
          datasetPath: request.datasetPath,
          loadOptions: request.loadOptions,
          dataset: ds,
          method: solver.name,
          params,
          k,
          seed: request.seed,
          protocol: request.protocol,
          result,
          timings,
        });
  return { method: solver.name, params, k, result, timings, bundle };
}
