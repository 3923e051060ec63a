#!/usr/bin/env node
// The `mvstudio` command: runs the TypeScript CLI through tsx's loader, so that the same
// sources serve the app, the tests and the command line without a separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
