/**
 * The solvers the conformance suite checks: every registered one, plus the template (not
 * registered in src/). A test adds a method here to put it through the suite unregistered.
 */
import { template } from '../../src/core/solvers/_template';
import { listSolvers } from '../../src/core/solvers/registry';
import type { Solver } from '../../src/core/solvers/types';

/** Test-only additions to the registry's list. */
const TEST_ONLY: readonly Solver[] = [template];

/** listSolvers() followed by the test-only solvers (names must stay distinct). */
export function conformanceSolvers(): readonly Solver[] {
  const all = [...listSolvers(), ...TEST_ONLY];
  const names = all.map((s) => s.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`solvers listed twice: ${twice.join(', ')}`);
  return all;
}
