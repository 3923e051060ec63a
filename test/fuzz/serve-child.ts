/**
 * The web host as the fuzz harness runs it: `startServer` with a real DatasetLibrary (the real
 * loaders) in a process of its own, so that a file that brings the server down fails the fuzz
 * test instead of the test runner. Prints one JSON line `{"url": ...}` once listening.
 *
 *   node --import tsx test/fuzz/serve-child.ts <folder>   (the harness's; it removes it, since a
 *                                                          killed server cannot)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetLibrary } from '../../src/backend/library';
import { startServer } from '../../src/cli/serve';

const root = process.argv[2] ?? tmpdir();
mkdirSync(root, { recursive: true });
const web = mkdtempSync(join(root, 'web-'));
writeFileSync(join(web, 'index.html'), '<!doctype html><title>fuzz</title>');
const library = new DatasetLibrary({ bundled: [] });
const server = await startServer({ port: 0, library, staticDir: web, dataDir: join(web, 'data') });
// The launch URL carries the per-launch token; apiCall sends it as a Bearer header.
process.stdout.write(JSON.stringify({ url: server.launchUrl }) + '\n');

const stop = (): void => {
  library.dispose();
  void server.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The harness going away (its end of the pipe closing) ends this server too.
process.stdin.on('end', stop);
process.stdin.resume();
