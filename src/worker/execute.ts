/**
 * What the worker does with a run request: load the dataset from its path, validate the
 * parameters, drive the evaluation protocol step by step with the shared run driver
 * (backend/drive.ts: yielding to the event loop between steps so a cancel can arrive, timing
 * the stages), and write the run bundle. The arrays stay in
 * this process; the host receives the summary, the labels and the bundle's path.
 */
import { alignedConfusion, pca2 } from '../core/project';
import type { ProtocolResult } from '../core/protocol';
import { validateParams } from '../core/solvers/params';
import { getSolver } from '../core/solvers/registry';
import type { SolverOutput } from '../core/solvers/types';
import { writeRunBundle, type RunTimings } from '../io/bundle';
import { loadDataset } from '../io/load';
import { drive, since } from '../backend/drive';
import { compactCodes } from '../shared/contract';
import type { RunRequest, RunView, WorkerRunResult } from '../shared/worker-protocol';
import type { RunHooks } from './serve';

export type { RunView, WorkerRunResult };

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
  const driven = await drive(
    ds,
    solver,
    params,
    k,
    {
      protocol: request.protocol,
      seed: request.seed,
      ...(request.seeds !== undefined ? { seeds: request.seeds } : {}),
    },
    {
      beforeStep: () => hooks.step(),
      onStep: (s) => hooks.progress({ ...s, elapsed: since(t0) }),
    },
  );
  const { result, firstOutput, traces, solve_s, kmeans_s } = driven;
  const stageSeconds: Record<string, number> = { load: load_s, ...driven.stageSeconds };
  const timings: RunTimings = { total_s: since(t0), load_s, solve_s, kmeans_s };
  // Before the write, so that the bundle keeps what the results view draws (view.json).
  const view = runView(ds, firstOutput, result, k, stageSeconds, traces);
  const tw = performance.now();
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
          view,
        });
  stageSeconds['write'] = since(tw);
  return { method: solver.name, params, k, result, timings, bundle, view };
}

function runView(
  ds: Awaited<ReturnType<typeof loadDataset>>,
  output: SolverOutput | null,
  result: ProtocolResult,
  k: number,
  stageSeconds: Record<string, number>,
  traces: Record<string, number[]>,
): RunView {
  const n = ds.n;
  const embedding = output?.embedding ?? { rows: n, cols: 0, data: new Float64Array(0) };
  // Single precision and the narrowest code type: the view is drawn, and crosses to the host.
  const pca = embedding.cols > 0 ? pca2(embedding) : null;
  const projection = pca
    ? {
        x: new Float32Array(pca.x),
        y: new Float32Array(pca.y),
        explained: pca.explained,
        exact: pca.exact,
        dims: embedding.cols,
      }
    : {
        x: new Float32Array(n),
        y: new Float32Array(n),
        explained: [0, 0] as const,
        exact: true,
        dims: 0,
      };
  const missingViews = new Uint8Array(n).fill(Math.min(ds.views.length, 255));
  for (const v of ds.views) for (const i of v.present) missingViews[i]! -= 1;
  let clusters = k;
  for (const l of result.labels) if (l + 1 > clusters) clusters = l + 1;
  const truth = ds.labels
    ? { codes: compactCodes(ds.labels.codes), classes: ds.labels.classes }
    : null;
  const confusion = ds.labels
    ? alignedConfusion(ds.labels.codes, result.labels, ds.labels.classes.length, clusters)
    : null;
  return {
    stageSeconds,
    traces,
    projection,
    missingViews,
    truth,
    confusion,
    sampleIds: ds.sampleIds,
    charts: output?.charts ?? {},
    diagnostics: output?.diagnostics ?? {},
  };
}
