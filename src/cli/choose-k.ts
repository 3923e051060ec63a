/**
 * `mvstudio choose-k <method> <file...> --k FROM..TO`: help choosing k without labels
 * (core/choose-k): the eigengap of the method's graph and, for each k, the silhouette of its
 * labels in the views' spaces and its final objective; prints the table and both suggestions.
 * In-process, like `run`; exit 0, 2 on bad input (isInputError), 1 on a bug.
 */
import { chooseK, parseKRange, type ChooseKResult, type ChooseKStep } from '../core/choose-k';
import { DECIMAL_INTEGER, validateParams } from '../core/solvers/params';
import { estimateMemory, shapeOf } from '../backend/estimate';
import { solverMemoryLimit } from '../backend/worker-host';
import { loadDataset } from '../io/load';
import { solverNamed, splitArgs } from './args';
import { UsageError, isInputError } from './errors';
import { table } from './format';
import { LOAD_FLAGS, loadOptionsFrom } from './load-args';
import { DEFAULT_SEED } from '../shared/defaults';

export const CHOOSE_K_USAGE = `usage: mvstudio choose-k <method> <file...> --k FROM..TO [--seed n]
              [--<param> value ...] [--mask ... as info] [--json]
  For data without labels: for each k in FROM..TO, the method's labels (its parameters, one
  seed) scored by the silhouette in the views' own features, its final objective, and the
  eigengap of the method's graph (the views' kNN graph for a method without one).`;

const FLAGS = new Set<string>(['k', 'seed', ...LOAD_FLAGS]);

const num = (x: number | null, digits: number): string =>
  x === null || !Number.isFinite(x) ? '-' : x.toPrecision(digits);

/** The human-readable table and suggestions. */
export function formatChooseK(r: ChooseKResult, file: string): string {
  const rows: string[][] = [['k', 'eigengap', 'eigenvalue', 'silhouette', 'objective', 'clusters']];
  for (const p of r.points) {
    rows.push([
      String(p.k),
      num(r.eigengap.gaps[p.k - 1] ?? null, 4),
      num(r.eigengap.eigenvalues[p.k - 1] ?? null, 4),
      num(p.silhouette, 4),
      num(p.objective, 6),
      String(p.clusters),
    ]);
  }
  return [
    `${r.method} on ${file}, k = ${r.from}..${r.to}, seed ${r.seed}`,
    table(rows),
    `suggested k: ${r.silhouetteK ?? '-'} by the silhouette, ${r.eigengap.suggested} by the eigengap`,
    `eigengap: eigenvalue μ_k of the normalised affinity of ${r.eigengap.source}; gap μ_k − μ_{k+1}`,
    `silhouette: ${r.silhouetteNote}`,
  ].join('\n');
}

/** A progress line on stderr when it is a terminal, at most ten per second. */
function reporter(): { step(s: ChooseKStep): void; done(): void } {
  if (!process.stderr.isTTY) return { step: () => {}, done: () => {} };
  let last = 0;
  return {
    step(s) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const what = s.phase === 'graph' ? `graph at k = ${s.k}` : `k = ${s.k}`;
      process.stderr.write(`\r\x1b[Kchoose-k: ${s.index}/${s.count} ${what} ${s.step.step.stage}`);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}

export async function runChooseK(argv: readonly string[]): Promise<number> {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(CHOOSE_K_USAGE + '\n');
      return 0;
    }
    const { positionals, flags, params: raw, json } = splitArgs(argv, FLAGS);
    const [method, ...files] = positionals;
    if (method === undefined || files.length === 0) {
      throw new UsageError(`choose-k needs a method and a file\n${CHOOSE_K_USAGE}`);
    }
    const kText = flags.get('k');
    if (kText === undefined) throw new UsageError('choose-k needs the range: --k FROM..TO');
    const { from, to } = parseKRange(kText);
    const seedText = flags.get('seed') ?? String(DEFAULT_SEED);
    const seed = Number(seedText);
    if (!DECIMAL_INTEGER.test(seedText) || !Number.isSafeInteger(seed) || seed < 0) {
      throw new UsageError(`--seed takes a whole number from 0 (got '${seedText}')`);
    }
    const solver = solverNamed(method);
    const params = validateParams(solver.schema, raw);
    const values: Record<string, string> = {};
    for (const f of LOAD_FLAGS) {
      const v = flags.get(f);
      if (v !== undefined) values[f] = v;
    }
    const ds = await loadDataset(files.length === 1 ? files[0]! : files, loadOptionsFrom(values));
    // The largest k the sweep solves is to + 1 (the graph's solve): refuse it as `run` would.
    const { refusal } = estimateMemory(shapeOf(ds), solver, params, to + 1, solverMemoryLimit());
    if (refusal !== null) throw new UsageError(refusal);
    const progress = reporter();
    const gen = chooseK(ds, solver, params, { from, to, seed });
    let r = gen.next();
    try {
      for (; !r.done; r = gen.next()) progress.step(r.value);
    } finally {
      progress.done();
    }
    const file = files.join(' ');
    process.stdout.write(
      (json ? JSON.stringify({ file, ...r.value }, null, 2) : formatChooseK(r.value, file)) + '\n',
    );
    return 0;
  } catch (e) {
    process.stderr.write(`mvstudio choose-k: ${e instanceof Error ? e.message : String(e)}\n`);
    return isInputError(e) ? 2 : 1;
  }
}
