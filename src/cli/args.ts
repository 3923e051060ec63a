/**
 * What `run` and `choose-k` share in parsing: arguments split into positionals, known flags and
 * solver parameters, and a method by name.
 */
import { listSolvers } from '../core/solvers/registry';
import type { Solver } from '../core/solvers/types';
import { UsageError } from './errors';

/** The registered solver named `name`; a UsageError listing the methods otherwise. */
export function solverNamed(name: string): Solver {
  const solver = listSolvers().find((s) => s.name === name);
  if (solver) return solver;
  const known = listSolvers().map((s) => s.name);
  throw new UsageError(`unknown method '${name}'; methods: ${known.join(', ') || '(none)'}`);
}

/**
 * Splits arguments into positionals, the flags named in `known` and solver parameters:
 * `--name value` or `--name=value`; `--json` alone. Anything not a known flag is a parameter,
 * checked later against the method's schema.
 */
export function splitArgs(
  argv: readonly string[],
  known: ReadonlySet<string>,
): {
  positionals: string[];
  flags: Map<string, string>;
  params: Record<string, string>;
  json: boolean;
} {
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  const params: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) positionals.push(arg);
    else if (arg === '--json') json = true;
    else {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (name === '' || value === undefined) throw new UsageError(`${arg} needs a value`);
      if (known.has(name)) flags.set(name, value);
      else params[name] = value;
    }
  }
  return { positionals, flags, params, json };
}
