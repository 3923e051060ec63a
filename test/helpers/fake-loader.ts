// A loader process for test/backend/loader.test.ts: the real message loop (src/worker/serve.ts)
// over the real port, with an executor whose behaviour the file's name picks: 'hog' allocates
// without bound, 'exit' exits, 'segv' dies of a signal as a native crash would; any other
// file loads the small fake dataset.
import { basename } from 'node:path';
import { describeLoaded } from '../../src/backend/library';
import type { LoadRequest } from '../../src/shared/worker-protocol';
import { processPort } from '../../src/worker/port';
import { serve } from '../../src/worker/serve';
import { fakeDataset } from './fake-dataset';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

serve(processPort<LoadRequest>(), async (request) => {
  const name = basename(request.path);
  if (name.startsWith('hog')) {
    // Touched pages count in the resident set (a zero-filled buffer may not be mapped yet).
    // Stops at 4 GiB and waits, so that a broken watchdog fails the test, not the machine.
    const hoard: Buffer[] = [];
    for (let i = 0; i < 128; i++) {
      hoard.push(Buffer.allocUnsafe(32 * 1024 * 1024).fill(i));
      await sleep(5);
    }
    for (;;) await sleep(1000);
  }
  if (name.startsWith('exit')) process.exit(3);
  if (name.startsWith('segv')) process.kill(process.pid, 'SIGSEGV');
  return describeLoaded(fakeDataset(request.path));
});
