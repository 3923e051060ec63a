/**
 * What the results view draws of a run beyond its metrics (RunView): the 2-D PCA of the first
 * seed's embedding, missing views per sample, truth, the aligned confusion matrix, the solver's
 * charts. Built by the worker for the app and by the CLI, and kept in the bundle's view.json,
 * so a reopened run draws as it did.
 */
import type { MultiViewDataset } from '../core/dataset';
import { alignedConfusion, pca2 } from '../core/project';
import type { ProtocolResult } from '../core/protocol';
import type { SolverOutput } from '../core/solvers/types';
import { compactCodes } from '../shared/contract';
import type { RunView, SolveView } from '../shared/worker-protocol';

/** The view of a driven run: `output` is the first solve's, `stageSeconds` and `traces` the driver's. */
export function runView(
  ds: MultiViewDataset,
  output: SolverOutput | null,
  result: ProtocolResult,
  k: number,
  stageSeconds: Record<string, number>,
  traces: Record<string, number[]>,
): RunView {
  const n = ds.n;
  const missingViews = new Uint8Array(n).fill(Math.min(ds.views.length, 255));
  for (const v of ds.views) for (const i of v.present) missingViews[i]! -= 1;
  const truth = ds.labels
    ? { codes: compactCodes(ds.labels.codes), classes: ds.labels.classes }
    : null;
  return {
    stageSeconds,
    traces,
    projection: projectionOf(output, n),
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
export function solveView(output: SolverOutput): SolveView {
  return {
    objective: [...output.objective],
    projection: projectionOf(output, output.embedding.rows),
    charts: output.charts ?? {},
  };
}

/** Classes × clusters of one labelling, Hungarian-aligned; null without labels. */
export function confusionOf(
  ds: MultiViewDataset,
  labels: Int32Array,
  k: number,
): RunView['confusion'] {
  if (!ds.labels) return null;
  let clusters = k;
  for (const l of labels) if (l + 1 > clusters) clusters = l + 1;
  return alignedConfusion(ds.labels.codes, labels, ds.labels.classes.length, clusters);
}
