/**
 * electron-vite: the three Electron bundles.
 *   main     -> out/main/index.js    (ESM, like package.json "type": "module")
 *               out/main/worker.js   (the solver worker, started as a utilityProcess)
 *               out/main/loader.js   (the dataset loader, likewise)
 *   preload  -> out/preload/index.cjs (CommonJS: a sandboxed preload cannot be an ES module)
 *   renderer -> out/renderer/         (Svelte; the same sources as vite.web.config.ts)
 */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { fileURLToPath } from 'node:url';

const svelteConfig = fileURLToPath(new URL('./svelte.config.js', import.meta.url));

export default defineConfig({
  main: {
    build: {
      // Three entries: the main process, the solver worker and the loader (utilityProcesses).
      rolldownOptions: {
        input: {
          index: 'src/main/index.ts',
          worker: 'src/worker/index.ts',
          loader: 'src/worker/loader.ts',
        },
        output: { format: 'es' },
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preloads can require only 'electron' (and a few polyfills): bundle the rest.
      externalizeDeps: false,
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    plugins: [svelte({ configFile: svelteConfig })],
  },
});
