/** Errors the CLI reports as bad input (exit 2) rather than as a bug (exit 1). */
import { SolverInputError } from '../core/solvers/params';
import { DataError } from '../io/errors';
import { MatReadError } from '../io/mat/types';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function isInputError(e: unknown): boolean {
  return (
    e instanceof UsageError ||
    e instanceof DataError ||
    e instanceof MatReadError ||
    e instanceof SolverInputError
  );
}

/** Calls node:util parseArgs, turning its errors into UsageErrors. */
export function parseStrict<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
