/**
 * The error every io reader throws for a file it cannot turn into data: a damaged or
 * truncated file, an unsupported encoding, text where a number belongs, views that disagree.
 *
 * The message always starts with the file and, when known, the place in it, then says what
 * was expected and what was found, e.g.
 *   `views/a.csv, row 7, column 3: expected a number, found text`
 *   `data.npz, variable X1: declared shape (100, 20) needs 16000 bytes of <f8 data, found 12000`
 * so it can be shown to the user as it is. It never quotes a cell or a line of a text file:
 * the path may name a file that is not the user's data (a symlink to a system file), and the
 * message travels to whoever asked for the load. The structured fields let callers (and tests)
 * act on the location without parsing the text.
 */

/** Where in a file the problem is; every field optional. Rows and columns are 1-based. */
export interface DataErrorLocation {
  /** A variable, array member or view name inside the file. */
  readonly variable?: string;
  /** 1-based row as a spreadsheet shows it (the header, if any, is row 1). */
  readonly row?: number;
  /** 1-based column. */
  readonly column?: number;
}

export class DataError extends Error {
  /** The file the problem is in (as given by the caller, not resolved). */
  readonly file: string;
  // `declare`: absent rather than undefined when not given (no class-field initialiser).
  declare readonly variable?: string;
  declare readonly row?: number;
  declare readonly column?: number;
  /** The problem alone, without the file and location prefix. */
  readonly detail: string;

  constructor(file: string, detail: string, where: DataErrorLocation = {}) {
    super(`${formatLocation(file, where)}: ${detail}`);
    this.name = 'DataError';
    this.file = file;
    this.detail = detail;
    if (where.variable !== undefined) this.variable = where.variable;
    if (where.row !== undefined) this.row = where.row;
    if (where.column !== undefined) this.column = where.column;
  }

  /**
   * Plain-data copy of the location, picked up by `serializeError` (src/shared/contract.ts)
   * so that it survives the trip across a process boundary.
   */
  get data(): { file: string } & DataErrorLocation {
    const out: { file: string; variable?: string; row?: number; column?: number } = {
      file: this.file,
    };
    if (this.variable !== undefined) out.variable = this.variable;
    if (this.row !== undefined) out.row = this.row;
    if (this.column !== undefined) out.column = this.column;
    return out;
  }
}

/** `file, variable X, row 3, column 2` — the prefix of a DataError message. */
export function formatLocation(file: string, where: DataErrorLocation): string {
  const parts = [file];
  if (where.variable !== undefined) parts.push(`variable ${where.variable}`);
  if (where.row !== undefined) parts.push(`row ${where.row}`);
  if (where.column !== undefined) parts.push(`column ${where.column}`);
  return parts.join(', ');
}

/** A string cut to `max` characters for quoting in a message. */
export function quoteText(text: string, max = 40): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut);
}

/**
 * The warning every loader gives for NaN or infinite values among the present samples of a
 * view (a MAT variable, a CSV cell such as `1e999`), which are kept as they are.
 */
export function nonFiniteWarning(view: string, count: number): string {
  return `${view}: ${count} NaN or infinite values among present samples (kept as they are)`;
}
