/**
 * Source files stay small enough to hold one job each (issue 17): no file under src/ over 600
 * lines. WebAssembly text (`.wat`) and the bytes generated from it are exempt.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const MAX_LINES = 600;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('source size', () => {
  it(`no source file in src/ is over ${MAX_LINES} lines`, () => {
    const long = files(join(root, 'src'))
      .filter((f) => /\.(ts|svelte|js|mjs)$/.test(f) && !/-wasm\.ts$/.test(f))
      .map((f) => ({ f: relative(root, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(long).toEqual([]);
  });
});
