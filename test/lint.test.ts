/**
 * The folder rules of ARCHITECTURE.md are enforced by ESLint import zones: this test shows a
 * forbidden import fails and an allowed one passes, using the project's own config.
 */
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { REPO } from './helpers/paths';

const eslint = new ESLint({ cwd: REPO });

async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}/${file}` });
  return result!.messages
    .filter((m) => m.ruleId?.startsWith('no-restricted-'))
    .map((m) => m.message);
}

describe('folder rules (import zones, no clock or Math.random in core)', () => {
  it.each([
    [
      'src/core/probe.ts',
      "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
      /Node built-ins/,
    ],
    ['src/core/probe.ts', "import fs from 'fs';\nexport const f = fs;\n", /Node built-ins/],
    [
      'src/core/probe.ts',
      "import { loadDataset } from '../io/load';\nexport const f = loadDataset;\n",
      /src\/core may import only/,
    ],
    [
      'src/io/probe.ts',
      "import { app } from 'electron';\nexport const a = app;\n",
      /only src\/main and src\/preload/,
    ],
    [
      'src/renderer/src/probe.ts',
      "import { loadDataset } from '../../io/load';\nexport const f = loadDataset;\n",
      /src\/renderer may import only/,
    ],
    [
      'src/renderer/src/probe.ts',
      "import { readFile } from 'node:fs/promises';\nexport const f = readFile;\n",
      /Node built-ins/,
    ],
    [
      'src/preload/probe.ts',
      "import { DatasetLibrary } from '../backend/library';\nexport const f = DatasetLibrary;\n",
      /src\/preload may import only/,
    ],
    [
      'src/backend/probe.ts',
      "import { BrowserWindow } from 'electron';\nexport const f = BrowserWindow;\n",
      /only src\/main and src\/preload/,
    ],
    ['src/core/probe.ts', 'export const r = Math.random();\n', /seeded PRNG/],
    ['src/core/probe.ts', 'export const t = Date.now();\n', /no clock/],
    ['src/core/probe.ts', 'export const t = performance.now();\n', /no clock/],
  ])('%s: %s is rejected', async (file, code, message) => {
    const errors = await importErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
  });

  it.each([
    [
      'src/io/probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { makeLabels } from '../core/dataset';\nexport const f = [readFileSync, makeLabels];\n",
    ],
    ['src/core/probe.ts', "import { zeros } from './linalg/types';\nexport const f = zeros;\n"],
    [
      'src/main/probe.ts',
      "import { app } from 'electron';\nimport { DatasetLibrary } from '../backend/library';\nexport const f = [app, DatasetLibrary];\n",
    ],
  ])('%s: allowed imports pass', async (file, code) => {
    expect(await importErrors(file, code)).toEqual([]);
  });
});
