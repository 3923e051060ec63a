/**
 * The tasks a helper thread can run (`core/parallel.ts`): name → pure function of a structured
 * clone of its input, the generic ones here and the solvers' from `solvers/tasks.ts`. A host's
 * helper-thread entry imports this table and nothing else of core.
 */
import { replicatesTask, trimModules, type ReplicatesTaskInput } from './cluster/kmeans';
import { hamerlyTask, type HamerlyTaskInput } from './cluster/hamerly-kernel';
import { approxTask, type ApproxTaskInput } from './cluster/kmeans-gemm';
import { SOLVER_TASKS } from './solvers/tasks';

export const TASKS = {
  /** Returns its input: a host waits on it for a helper to be up before timing anything. */
  ping: (input: unknown) => input,
  /** Some of a k-means call's replicates (k-means++ starts), from their streams' keys. */
  'kmeans.replicates': (input: ReplicatesTaskInput) => replicatesTask(input),
  /** The approximate (GEMM) pass of some rows of one k-means scan. */
  'kmeans.approx': (input: ApproxTaskInput) => approxTask(input),
  /** A share of the rows of one k-means scan with Hamerly's bounds. */
  'kmeans.hamerly': (input: HamerlyTaskInput) => hamerlyTask(input),
  /** The end of a k-means call whose scans a helper shared: its modules' memory trimmed. */
  'kmeans.trim': () => trimModules(),
  ...SOLVER_TASKS,
} as const satisfies Readonly<Record<string, (input: never) => unknown>>;

/** The name of a helper task: a misspelt one fails to compile where a task is started. */
export type TaskName = keyof typeof TASKS;

/** True when `name` (e.g. from a thread message) names a task of TASKS. */
export function isTaskName(name: string): name is TaskName {
  return Object.hasOwn(TASKS, name);
}
