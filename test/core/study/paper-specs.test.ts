/**
 * The study specs of the papers' tables in docs/studies/ (seed 000's and seed 002's) stay
 * runnable: each validates against the registered methods and every dataset file it names, read
 * against the spec's folder as `mvstudio study run` reads it, exists in ../shared.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePaths } from '../../../src/backend/study/engine';
import { validateStudySpec } from '../../../src/core/study/spec';
import { REPO } from '../../helpers/paths';

const DIR = join(REPO, 'docs', 'studies');
const specs = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('docs/studies specs', () => {
  it('holds the two papers’ tables', () => {
    expect(specs).toEqual(expect.arrayContaining(['seed-000.json', 'seed-002.json']));
  });

  it.each(specs)('%s validates and names existing files', (f) => {
    const path = join(DIR, f);
    const spec = resolvePaths(
      validateStudySpec(JSON.parse(readFileSync(path, 'utf8'))),
      dirname(path),
    );
    expect(spec.seeds).toHaveLength(20);
    for (const d of spec.datasets)
      for (const file of d.files) expect(existsSync(file), file).toBe(true);
  });
});
