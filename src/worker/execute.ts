/**
 * What the worker does with a run request: load the dataset from its path, validate the
 * parameters, drive the evaluation protocol step by step with the shared run driver
 * (backend/drive.ts: yielding to the event loop between steps so a cancel can arrive, timing
 * the stages), and write the run bundle. The arrays stay in
 * this process; the host receives the summary, the labels and the bundle's path.
 */
import { validateParams } from '../core/solvers/params';
import { getSolver } from '../core/solvers/registry';
import { checkPreprocess } from '../core/views/preprocess';
import { writeRunBundle, type RunTimings } from '../io/bundle';
import { loadDataset } from '../io/load';
import { drive, since } from '../backend/drive';
import { compactCodes } from '../shared/contract';
import { confusionOf, runView, solveView } from '../backend/run-view';
import type { SolverOutput } from '../core/solvers/types';
import type { RunRequest, RunView, SolveView, WorkerRunResult } from '../shared/worker-protocol';
import type { RunHooks } from './serve';

export type { RunView, WorkerRunResult };

export async function executeRun(request: RunRequest, hooks: RunHooks): Promise<WorkerRunResult> {
  const t0 = performance.now();
  const solver = getSolver(request.method);
  const params = validateParams(solver.schema, request.params);
  const ds = await loadDataset(request.datasetFiles ?? request.datasetPath, request.loadOptions);
  const load_s = since(t0);
  const k = request.k ?? ds.labels?.classes.length;
  if (k === undefined) {
    throw new RangeError(
      `${request.datasetPath} has no labels: the number of clusters k must be given`,
    );
  }
  const outputs: SolverOutput[] = [];
  const solveViews: SolveView[] = [];
  let solves = 0;
  const driven = await drive(
    ds,
    solver,
    params,
    k,
    {
      protocol: request.protocol,
      seed: request.seed,
      ...(request.seeds !== undefined ? { seeds: request.seeds } : {}),
      preprocess: checkPreprocess(request.preprocess ?? 'none'),
    },
    {
      beforeStep: () => hooks.step(),
      onOutput: (o) => outputs.push(o),
      onStep: (s) => {
        // Later solves' views are made here, outside the timed steps; their embeddings go.
        for (; outputs.length > 0; solves++) {
          const o = outputs.shift()!;
          if (solves > 0) solveViews.push(solveView(o));
        }
        hooks.progress({ ...s, elapsed: since(t0) });
      },
    },
  );
  const { result: full, firstOutput, traces, solve_s, kmeans_s } = driven;
  const { seedLabels, ...result } = full;
  const stageSeconds: Record<string, number> = { load: load_s, ...driven.stageSeconds };
  const timings: RunTimings = { total_s: since(t0), load_s, solve_s, kmeans_s };
  // Before the write, so that the bundle keeps what the results view draws (view.json).
  const view = runView(ds, firstOutput, full, k, stageSeconds, traces);
  const tw = performance.now();
  const bundle =
    request.bundleDir === undefined
      ? null
      : await writeRunBundle(request.bundleDir, {
          datasetPath: request.datasetPath,
          ...(request.datasetFiles ? { datasetFiles: request.datasetFiles } : {}),
          loadOptions: request.loadOptions,
          dataset: ds,
          method: solver.name,
          params,
          k,
          seed: request.seed,
          protocol: request.protocol,
          result: full,
          timings,
          view,
        });
  stageSeconds['write'] = since(tw);
  const withSeeds: RunView = {
    ...view,
    otherSeeds: seedLabels.slice(1).map((labels, i) => ({
      clusters: compactCodes(labels),
      confusion: confusionOf(ds, labels, k),
      traces: driven.seedTraces[i + 1] ?? {},
      solve: solver.deterministic ? null : (solveViews[i] ?? null),
    })),
  };
  return { method: solver.name, params, k, result, timings, bundle, view: withSeeds };
}
