/**
 * Entry of the dataset loader process: started by the dataset library (src/backend/library.ts)
 * with child_process.fork in the web host and the tests, as a utilityProcess under Electron.
 * One file at a time; the host kills it when it crashes, hangs on memory or the app closes.
 */
import type { LoadRequest } from '../shared/worker-protocol';
import { executeLoad } from './load';
import { processPort } from './port';
import { serve } from './serve';

serve(processPort<LoadRequest>(), (request) => executeLoad(request));
