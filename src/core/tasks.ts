/**
 * The tasks a helper thread can run (`core/parallel.ts`): name → pure function of a structured
 * clone of its input. A host's helper-thread entry imports this table and nothing else of core.
 */
import { replicatesTask, type ReplicatesTaskInput } from './cluster/kmeans';
import { slicesTask, type SlicesTaskInput } from './solvers/cgl/slices';
import { endTask, hstepTask, type HStepTaskInput } from './solvers/cgl/hviews';
import { viewGraphTask, type ViewGraphTaskInput } from './solvers/cgl/cgl';

export const TASKS: Readonly<Record<string, (input: never) => unknown>> = {
  /** Returns its input: a host waits on it for a helper to be up before timing anything. */
  ping: (input: unknown) => input,
  /** One pass of the CGL / CGMVC-NC H-step for the helper's views. */
  'cgl.hstep': (input: HStepTaskInput) => hstepTask(input),
  /** The end of a CGL solve: the helper drops its session. */
  'cgl.end': (token: number) => endTask(token),
  /** Some of a k-means call's replicates (k-means++ starts), from their streams' keys. */
  'kmeans.replicates': (input: ReplicatesTaskInput) => replicatesTask(input),
  /** Step 4 of the CGL T-step (slice eigendecompositions, shrinkage) for a range of slices. */
  'cgl.slices': (input: SlicesTaskInput) => slicesTask(input),
  /** Step 0–1 of CGL for the views this helper claims: z-score, PKN graph, normalised affinity. */
  'cgl.graphs': (input: ViewGraphTaskInput) => viewGraphTask(input),
};
