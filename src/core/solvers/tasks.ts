/**
 * The helper-thread tasks of the solvers (`core/parallel.ts`): name → pure function of a
 * structured clone of its input. `core/tasks.ts` adds them to the generic ones, so a task name
 * of a solver is spelt only here and in that solver's folder. Names are '<solver>.<task>'.
 */
import { slicesTask, type SlicesTaskInput } from './cgl/slices';
import { endTask, hstepTask, type HStepTaskInput } from './cgl/hviews';
import { viewGraphTask, type ViewGraphTaskInput } from './cgl/cgl';
import { amglGraphsTask, type AmglGraphsTaskInput } from './amgl/amgl';
import { viewGraphsTask, type ViewGraphsTaskInput } from './mvgl/mvgl';
import { kernelsTask, type KernelsTaskInput } from './mlrssc/kernels';
import { endTask as mlrsscEnd, thresholdsTask, type ThresholdsTaskInput } from './mlrssc/mlrssc';

export const SOLVER_TASKS = {
  /** One pass of the CGL / CGMVC-NC H-step for the helper's views. */
  'cgl.hstep': (input: HStepTaskInput) => hstepTask(input),
  /** The end of a CGL solve: the helper drops its session. */
  'cgl.end': (token: number) => endTask(token),
  /** Step 4 of the CGL T-step (slice eigendecompositions, shrinkage) for a range of slices. */
  'cgl.slices': (input: SlicesTaskInput) => slicesTask(input),
  /** Step 0–1 of CGL for the views this helper claims: z-score, PKN graph, normalised affinity. */
  'cgl.graphs': (input: ViewGraphTaskInput) => viewGraphTask(input),
  /** AMGL's step 1 for the views this helper claims: PKN graph and normalised Laplacian. */
  'amgl.graphs': (input: AmglGraphsTaskInput) => amglGraphsTask(input),
  /** MVGL's stage 1 for the views this helper claims: the view's rank-constrained graph. */
  'mvgl.views': (input: ViewGraphsTaskInput) => viewGraphsTask(input),
  /** MLRSSC's kernels of the views this helper claims. */
  'mlrssc.kernels': (input: KernelsTaskInput) => kernelsTask(input),
  /** The singular-value thresholds of an MLRSSC iteration that the helper claims. */
  'mlrssc.thresholds': (input: ThresholdsTaskInput) => thresholdsTask(input),
  /** The end of an MLRSSC solve: the helper drops its buffers. */
  'mlrssc.end': () => mlrsscEnd(),
} as const;
