/**
 * STYLE.md rule 14: no file outside src/core/solvers/ names a solver. Scans every source file
 * under src/ (outside that folder) for a string literal (', " or `) equal to a registered
 * solver's name, and fails naming each file:line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSolvers } from '../src/core/solvers/registry';
import { REPO } from './helpers/paths';

const SRC = join(REPO, 'src');
const SOLVERS_DIR = join(SRC, 'core', 'solvers');
const SOURCE = /\.(ts|svelte|js|mjs|cjs)$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== SOLVERS_DIR) yield* sourceFiles(path);
    } else if (SOURCE.test(entry.name)) {
      yield path;
    }
  }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `file:line: 'name'` for each string literal of `text` that is exactly one of `names`. */
function namedSolvers(file: string, text: string, names: readonly string[]): string[] {
  const literal = new RegExp(`(['"\`])(${names.map(escape).join('|')})\\1`, 'g');
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(literal)) hits.push(`${file}:${i + 1}: ${m[0]}`);
  });
  return hits;
}

describe('no solver is named outside src/core/solvers/', () => {
  const names = listSolvers().map((s) => s.name);

  it('finds a planted literal in each quoting, and nothing in a longer string', () => {
    const name = names[0]!;
    const text = `a = '${name}';\nb = "${name}"; c = \`${name}\`;\nd = '${name}-x'; e = 'x ${name}';`;
    expect(namedSolvers('f.ts', text, names)).toEqual([
      `f.ts:1: '${name}'`,
      `f.ts:2: "${name}"`,
      `f.ts:2: \`${name}\``,
    ]);
  });

  it('src/ outside core/solvers/ holds no string literal equal to a registered name', () => {
    expect(names.length).toBeGreaterThan(0);
    const hits: string[] = [];
    for (const path of sourceFiles(SRC)) {
      hits.push(...namedSolvers(relative(REPO, path), readFileSync(path, 'utf8'), names));
    }
    expect(hits).toEqual([]);
  });
});
