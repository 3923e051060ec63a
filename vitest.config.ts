import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const svelteConfig = fileURLToPath(new URL('./svelte.config.js', import.meta.url));

/**
 * Two projects: everything in Node, and the renderer's state classes and components
 * (test/renderer) compiled by the Svelte plugin, with Svelte's browser build and happy-dom.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: run files in parallel but not more than the machine has.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        plugins: [svelte({ configFile: svelteConfig }), svelteTesting()],
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
