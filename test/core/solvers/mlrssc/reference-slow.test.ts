/**
 * The MLRSSC reference runs with the longest solves, in a file of their own so that they run
 * beside reference.test.ts (which has the checks): the linear variants on MSRC-v1 (282 and 100
 * iterations, n = 210, V = 5) and ORL (n = 400, V = 4), about a minute together.
 */
import { referenceSuite } from '../../../helpers/reference';
import { capturing, isMlrssc, isSlow, reference, suiteOptions } from './reference-checks';

referenceSuite(capturing, reference, {
  ...suiteOptions,
  title: 'MLRSSC linear on MSRC-v1 and ORL against the reference',
  select: (run) => isMlrssc(run) && isSlow(run),
  expectedRuns: 4,
  timeout: 1_800_000,
});
