/**
 * Solver READMEs' parameter tables, generated from the schemas (STYLE.md rule 7: parameters are
 * declared once). In a README under src/core/solvers/<folder>/, the lines between
 * `<!-- params:begin -->` and `<!-- params:end -->` are the table of the solver named <folder>;
 * `<!-- params:begin NAME -->` names another solver of the folder (cgl's README holds
 * cgmvc-nc's too). The table is laid out as prettier lays out Markdown, so `format:check`
 * agrees with it.
 *
 *   npx tsx scripts/solver-docs.ts           rewrites the stale READMEs
 *   npx tsx scripts/solver-docs.ts --check   lists them and exits 1 when any is stale
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describeSpec } from '../src/core/solvers/params';
import { template } from '../src/core/solvers/_template';
import { getSolver } from '../src/core/solvers/registry';
import type { ParamSchema, ParamSpec, Solver } from '../src/core/solvers/types';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
export const SOLVERS_DIR = join(ROOT, 'src', 'core', 'solvers');

const BLOCK = /(<!-- params:begin(?: ([\w-]+))? -->\n)([\s\S]*?)(<!-- params:end -->)/g;

/** A table cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}

function defaultText(spec: ParamSpec): string {
  return spec.type === 'enum' ? `\`'${spec.default}'\`` : `\`${String(spec.default)}\``;
}

/** The Markdown table of a schema: name, type, default, values allowed, meaning. */
export function paramsTable(schema: ParamSchema): string {
  const rows = Object.entries(schema).map(
    ([name, spec]) =>
      `| \`${name}\` | ${spec.type} | ${defaultText(spec)} | ${cell(describeSpec(spec))} | ${cell(spec.doc)} |`,
  );
  return [
    '| name | type | default | values | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ]
    .join('\n')
    .concat('\n');
}

/** The solver a README block documents: the registry's, or the unregistered template's. */
function solverFor(name: string): Solver {
  return name === '_template' ? template : getSolver(name);
}

/** A README's text (at `path`) with every params block regenerated from its solver's schema. */
export async function regenerate(text: string, folder: string, path: string): Promise<string> {
  const out = text.replace(
    BLOCK,
    (_all, begin: string, name: string | undefined, _old: string, end: string) =>
      `${begin}\n${paramsTable(solverFor(name ?? folder).schema)}\n${end}`,
  );
  const config = (await resolveConfig(path)) ?? {};
  return format(out, { ...config, filepath: path });
}

/** Every solver README holding a params block: [path, folder]. */
export function readmes(): [string, string][] {
  return readdirSync(SOLVERS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e): [string, string] => [join(SOLVERS_DIR, e.name, 'README.md'), e.name])
    .filter(
      ([path]) => existsSync(path) && readFileSync(path, 'utf8').includes('<!-- params:begin'),
    );
}

/** The READMEs whose tables differ from their schemas, with the text they should hold. */
export async function stale(): Promise<{ path: string; want: string }[]> {
  const out: { path: string; want: string }[] = [];
  for (const [path, folder] of readmes()) {
    const have = readFileSync(path, 'utf8');
    const want = await regenerate(have, folder, path);
    if (want !== have) out.push({ path, want });
  }
  return out;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const todo = await stale();
  for (const { path, want } of todo) {
    const shown = relative(ROOT, path);
    if (check) console.error(`${shown}: parameter table differs from the schema`);
    else {
      writeFileSync(path, want);
      console.log(`rewrote ${shown}`);
    }
  }
  if (check && todo.length > 0) {
    console.error('run `npx tsx scripts/solver-docs.ts` to regenerate');
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
