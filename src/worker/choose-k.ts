/**
 * A choose-k sweep in the solver worker (core/choose-k): loads the dataset from its path,
 * validates the parameters, and drives the sweep's generator, yielding to the event loop
 * before every step so that a cancel arrives (`hooks.step()` throws then). Progress reports
 * each step with the solve's place among the sweep's solves as its seed index and k in
 * `step.values.k`; the result is the ChooseKResult (a few numbers per k).
 */
import { chooseK, type ChooseKResult } from '../core/choose-k';
import { validateParams } from '../core/solvers/params';
import { getSolver } from '../core/solvers/registry';
import { loadDataset } from '../io/load';
import { since } from '../backend/drive';
import type { RunRequest } from '../shared/worker-protocol';
import type { RunHooks } from './serve';

export async function executeChooseK(
  request: RunRequest,
  range: { readonly from: number; readonly to: number },
  hooks: RunHooks,
): Promise<ChooseKResult> {
  const t0 = performance.now();
  const solver = getSolver(request.method);
  const params = validateParams(solver.schema, request.params);
  const ds = await loadDataset(request.datasetFiles ?? request.datasetPath, request.loadOptions);
  const gen = chooseK(ds, solver, params, { ...range, seed: request.seed });
  for (;;) {
    await hooks.step();
    const r = gen.next();
    if (r.done) return r.value;
    const { index, count, k, step } = r.value;
    hooks.progress({
      seedIndex: index,
      seedCount: count,
      step: { ...step.step, values: { k } },
      elapsed: since(t0),
    });
  }
}
