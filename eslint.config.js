// @ts-check
// Flat config. The per-folder `no-restricted-imports` blocks are the folder rules of
// ARCHITECTURE.md ("hosts around one core"); test/lint.test.ts proves they bite.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:*'];
const folders = ['core', 'shared', 'io', 'backend', 'worker', 'main', 'preload', 'renderer', 'cli'];

/** Import patterns that reach into the given source folders, relative or via `src/`. */
const into = (/** @type {string[]} */ names) =>
  names.flatMap((f) => [`**/${f}`, `**/${f}/**`, `src/${f}`, `src/${f}/**`]);

/**
 * @param {string} folder
 * @param {{ node?: boolean, electron?: boolean, may: string[] }} rule
 */
function zone(folder, rule) {
  const forbiddenFolders = folders.filter((f) => f !== folder && !rule.may.includes(f));
  /** @type {any[]} */
  const patterns = [
    {
      group: into(forbiddenFolders),
      message: `src/${folder} may import only from: ${[folder, ...rule.may].join(', ')} (ARCHITECTURE.md).`,
    },
  ];
  /** @type {any[]} */
  const paths = [];
  if (!rule.node) {
    // Built-ins by exact name (`paths`), not as gitignore-style patterns, which would also
    // refuse a folder of ours that shares a built-in's name (core/cluster).
    const message = `src/${folder} must not use Node built-ins.`;
    paths.push(...nodeBuiltins.filter((m) => m !== 'node:*').map((name) => ({ name, message })));
    patterns.push({ group: ['node:*'], message });
  }
  if (!rule.electron) {
    paths.push({ name: 'electron', message: `only src/main and src/preload may import electron.` });
  }
  return {
    files: [`src/${folder}/**/*.{ts,svelte,js}`],
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  };
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'build/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  zone('core', { may: [] }),
  {
    // core is pure: its only randomness is the seeded PRNG, and hosts measure time.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'core uses the seeded PRNG (core/random).' },
        { object: 'Date', property: 'now', message: 'core has no clock: hosts measure time.' },
        {
          object: 'performance',
          property: 'now',
          message: 'core has no clock: hosts measure time.',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'core has no clock: hosts measure time.' },
        { name: 'performance', message: 'core has no clock: hosts measure time.' },
        { name: 'process', message: 'core runs anywhere: no process.' },
      ],
    },
  },
  zone('shared', { may: ['core'] }),
  zone('io', { node: true, may: ['core', 'shared'] }),
  zone('backend', { node: true, may: ['core', 'shared', 'io'] }),
  zone('worker', { node: true, may: ['core', 'shared', 'io', 'backend'] }),
  zone('cli', { node: true, may: ['core', 'shared', 'io', 'backend'] }),
  zone('main', { node: true, electron: true, may: ['shared', 'backend', 'io', 'core'] }),
  zone('preload', { electron: true, may: ['shared'] }),
  zone('renderer', { may: ['shared'] }),
);
