/** Where the shared, read-only benchmark data live (../shared beside the repo, as in CI). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = resolve(REPO, '../shared');
export const DATASETS = join(SHARED, 'datasets');
export const SPEC = join(SHARED, 'specs/datasets.md');

if (!existsSync(DATASETS)) {
  throw new Error(`the shared data are expected at ${DATASETS} (../shared beside the repository)`);
}

/** Every .mat file under ../shared/datasets, as paths relative to it, sorted. */
export function allMatFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.mat')) out.push(relative(DATASETS, p));
    }
  };
  walk(DATASETS);
  return out.sort();
}
