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
  const tw = performance.now();
  const timings: RunTimings = { total_s: since(t0), load_s, solve_s, kmeans_s };
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
        });
  stageSeconds['write'] = since(tw);
  const view: RunView = {
    ...runView(ds, firstOutput, full, k, stageSeconds, traces),
    otherSeeds: seedLabels.slice(1).map((labels, i) => ({
      clusters: compactCodes(labels),
      confusion: confusionOf(ds, labels, k),
      traces: driven.seedTraces[i + 1] ?? {},
      solve: solver.deterministic ? null : (solveViews[i] ?? null),
    })),
  };
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
  const projection = projectionOf(output, n);
  const missingViews = new Uint8Array(n).fill(Math.min(ds.views.length, 255));
  for (const v of ds.views) for (const i of v.present) missingViews[i]! -= 1;
  const truth = ds.labels
    ? { codes: compactCodes(ds.labels.codes), classes: ds.labels.classes }
    : null;
  return {
    stageSeconds,
    traces,
    projection,
    missingViews,
    truth,
    confusion: confusionOf(ds, result.labels, k),
    sampleIds: ds.sampleIds,
    charts: output?.charts ?? {},
    diagnostics: output?.diagnostics ?? {},
  };
}

/** The 2-D PCA of a solve's embedding (zeros when it has no columns or no solve returned). */
function projectionOf(output: SolverOutput | null, n: number): RunView['projection'] {
  const embedding = output?.embedding ?? { rows: n, cols: 0, data: new Float64Array(0) };
  // Single precision: the view is only drawn, and crosses to the host.
  const pca = embedding.cols > 0 ? pca2(embedding) : null;
  return pca
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
}

/** What a later solve's charts need (see SolveView); its embedding is not kept. */
function solveView(output: SolverOutput): SolveView {
  return {
    objective: [...output.objective],
    projection: projectionOf(output, output.embedding.rows),
    charts: output.charts ?? {},
  };
}

/** Classes × clusters of one labelling, Hungarian-aligned; null without labels. */
function confusionOf(
  ds: Awaited<ReturnType<typeof loadDataset>>,
  labels: Int32Array,
  k: number,
): RunView['confusion'] {
  if (!ds.labels) return null;
  let clusters = k;
  for (const l of labels) if (l + 1 > clusters) clusters = l + 1;
  return alignedConfusion(ds.labels.codes, labels, ds.labels.classes.length, clusters);
}
