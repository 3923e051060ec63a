/**
 * The renderer built for a plain browser, served by `mvstudio serve` from out/web.
 * Same sources and Svelte plugin as the Electron renderer (electron.vite.config.ts).
 */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const outDir = fileURLToPath(new URL('./out/web', import.meta.url));

const svelteConfig = fileURLToPath(new URL('./svelte.config.js', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  plugins: [svelte({ configFile: svelteConfig })],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
