/**
 * scripts/solver-docs.ts: every solver README's parameter table is the one its schema gives
 * (fails when a schema changes and `npx tsx scripts/solver-docs.ts` was not run), a table by
 * hand, and an edited table seen as stale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paramsTable, readmes, regenerate, SOLVERS_DIR, stale } from '../../scripts/solver-docs';

describe('solver READMEs', () => {
  it('hold a table for every registered solver, each equal to its schema', async () => {
    const text = readmes()
      .map(([path]) => readFileSync(path, 'utf8'))
      .join('\n');
    for (const name of ['kmeans-concat', 'bsv', 'imvc-cbg']) {
      expect(readmes().map(([, folder]) => folder)).toContain(name);
    }
    expect(text).toContain('<!-- params:begin cgl -->');
    expect(text).toContain('<!-- params:begin cgmvc-nc -->');
    expect((await stale()).map((s) => s.path)).toEqual([]);
  });

  it('lays out a schema as name, type, default, values and meaning', () => {
    const table = paramsTable({
      k: { type: 'int', min: 1, max: 9, default: 3, doc: 'a | b' },
      mode: { type: 'enum', values: ['x', 'y'], default: 'x', doc: 'the\nmode' },
    });
    expect(table.split('\n')).toEqual([
      '| name | type | default | values | meaning |',
      '| --- | --- | --- | --- | --- |',
      '| `k` | int | `3` | an integer from 1 to 9 | a \\| b |',
      "| `mode` | enum | `'x'` | one of 'x', 'y' | the mode |",
      '',
    ]);
  });

  it('sees an edited table as stale and restores it', async () => {
    const path = join(SOLVERS_DIR, 'bsv', 'README.md');
    const have = readFileSync(path, 'utf8');
    const edited = have.replace('| `10`', '| `12`');
    expect(edited).not.toBe(have);
    expect(await regenerate(edited, 'bsv', path)).toBe(have);
  });
});
