/**
 * Entry of the solver worker process: started by Electron's utilityProcess in the app and by
 * child_process.fork in the web host and the tests.
 */
import { helperCountFromEnv, runHelperIfThread, startThreadPool } from '../backend/threads';
import { executeChooseK } from './choose-k';
import { executeRun } from './execute';
import { processPort } from './port';
import { executeStudy } from './study';
import { serve } from './serve';

// This module (or the bundle holding it) is also the entry of the solver's helper threads
// (backend/threads.ts): started as one, it serves tasks and nothing else.
if (!runHelperIfThread()) {
  // Helpers start with the worker, so that a run finds them ready. A bad MVSTUDIO_THREADS
  // leaves the worker without helpers (it still solves, on one thread) and says why.
  try {
    startThreadPool({ helpers: helperCountFromEnv(), entry: new URL(import.meta.url) });
  } catch (e) {
    process.stderr.write(`solver worker: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  serve(processPort(), (req, hooks) =>
    req.study
      ? executeStudy(req.study, hooks)
      : req.chooseK
        ? executeChooseK(req, req.chooseK, hooks)
        : executeRun(req, hooks),
  );
}
