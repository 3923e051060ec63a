/**
 * A study in the solver worker (backend/study/engine.ts): opens or resumes the study folder and
 * runs its missing cells one after the other, each into its run bundle and record. Progress
 * reports each ended cell as a seed (cells done of all cells, the ETA in `step.values.eta`); a
 * cancel stops the study at the next step of the running cell, whose record is not written, so
 * it runs again when the study is resumed. The result is the count of cells that ran.
 */
import { validateStudySpec } from '../core/study/spec';
import { runStudy, StudyCancelled } from '../backend/study/engine';
import { since } from '../backend/drive';
import { Cancelled, type RunHooks } from './serve';

export async function executeStudy(
  study: { readonly dir: string; readonly spec: unknown },
  hooks: RunHooks,
): Promise<{ ran: number; total: number }> {
  const t0 = performance.now();
  const spec = validateStudySpec(study.spec);
  const abort = new AbortController();
  // The cells' steps yield to the event loop, so this poll sees a cancel within a step.
  const poll = setInterval(() => void hooks.step().catch(() => abort.abort()), 100);
  try {
    const out = await runStudy(study.dir, spec, {
      signal: abort.signal,
      onProgress: (p) =>
        hooks.progress({
          seedIndex: p.done,
          seedCount: p.total,
          step: {
            stage: 'study',
            iteration: p.done,
            objective: null,
            ...(p.etaSeconds !== null ? { values: { eta: p.etaSeconds } } : {}),
          },
          elapsed: since(t0),
        }),
    });
    return { ran: out.ran.length, total: out.study.cells.length };
  } catch (e) {
    if (e instanceof StudyCancelled) throw new Cancelled();
    throw e;
  } finally {
    clearInterval(poll);
  }
}
