// Starts a TypeScript helper thread (threads.ts): registers tsx's loader in this thread (the
// parent's loader hooks do not reach a worker_thread), then imports the entry. Plain JS, so that
// it loads before the loader exists; it sits here so that 'tsx' resolves from the repository.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
