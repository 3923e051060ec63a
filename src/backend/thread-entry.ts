/**
 * The helper-thread entry for hosts that run TypeScript through tsx (tests, benchmarks): see
 * threads.ts. Bundled hosts use their own bundle as the entry instead.
 */
import { runHelperIfThread } from './threads';

if (!runHelperIfThread()) throw new Error('thread-entry.ts runs only as a helper thread');
