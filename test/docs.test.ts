/** What the README promises about the toolchain and the CLI matches package.json and the code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../src/cli/usage';

const root = new URL('..', import.meta.url);
const read = (p: string): string => readFileSync(new URL(p, root), 'utf8');

describe('README and package.json', () => {
  it('states the Node versions of `engines`', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines
      .node;
    const minimums = [...engines.matchAll(/(\d+)\.(\d+)(?:\.0)?/g)].map((m) => `${m[1]}.${m[2]}`);
    expect(minimums).toEqual(['20.19', '22.12']);
    const readme = read('README.md');
    for (const v of minimums)
      expect(readme).toMatch(
        new RegExp(`Node[^.]*?${v.replace('.', '\\.')}|${v.replace('.', '\\.')} or later`),
      );
  });
});

describe('README and the CLI', () => {
  it('shows `mvstudio help` as the CLI prints it', () => {
    expect(read('README.md')).toContain('```\n' + USAGE + '\n```');
  });
});
