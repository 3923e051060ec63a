// A worker for test/backend/worker-host.test.ts: the real message loop (src/worker/serve.ts)
// over the real port, with an executor whose behaviour the request's method names.
import { serve } from '../../src/worker/serve';
import { processPort } from '../../src/worker/port';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// A slow start-up (module loading on a busy machine), before the loop says 'ready'.
const startMs = Number(process.env['FAKE_WORKER_START_MS'] ?? 0);
if (startMs > 0) await sleep(startMs);

serve(processPort(), async (request, hooks) => {
  const steps = Number(request.params['steps'] ?? 5);
  const ms = Number(request.params['ms'] ?? 10);
  for (let i = 1; i <= steps; i++) {
    await hooks.step();
    if (request.method === 'crash' && i === 3) process.exit(3);
    if (request.method === 'hang' && i === 2) for (;;);
    if (request.method === 'fail' && i === 2) throw new RangeError('step 2 went wrong');
    if (request.method === 'hog' && i === 2) {
      // Touched buffers count in the resident set; stops at 4 GiB and waits, so that a broken
      // watchdog fails the test, not the machine.
      const hoard: Buffer[] = [];
      for (let j = 0; j < 128; j++) {
        hoard.push(Buffer.allocUnsafe(32 * 1024 * 1024).fill(j));
        await sleep(5);
      }
      for (;;) await sleep(1000);
    }
    if (request.method === 'oom' && i === 2) {
      // Ordinary JS objects live on the V8 heap, which --max-old-space-size caps (typed
      // arrays' buffers would not be: they live outside it).
      const hoard: number[][] = [];
      for (;;) hoard.push(Array.from({ length: 1 << 16 }, (_, j) => j + 0.5));
    }
    await sleep(ms);
    hooks.progress({
      seedIndex: 1,
      seedCount: 1,
      elapsed: 0,
      step: { stage: 'solve', iteration: i, objective: 1 / i },
    });
  }
  return { labels: Int32Array.from([0, 1, 1]), pid: process.pid, execArgv: process.execArgv };
});
