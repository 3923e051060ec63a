/**
 * Entry of the solver worker process: started by Electron's utilityProcess in the app and by
 * child_process.fork in the web host and the tests.
 */
import { executeRun } from './execute';
import { processPort } from './port';
import { serve } from './serve';

serve(processPort(), executeRun);
