/**
 * CSV (and TSV, semicolon- or whitespace-separated) readers: one text file per view, samples
 * are rows, features are columns; optionally a labels file with one value per row.
 *
 * Rules, applied to every view file separately:
 *
 * - Delimiter (`sniffDelimiter`): the first 50 non-blank lines are scanned and, for each of
 *   tab, `;` and `,`, the number of occurrences outside double quotes is counted per line.
 *   The first of tab, `;`, `,` (in that order) that occurs the same, non-zero number of times
 *   on every scanned line wins. (So `1,5;2,5` rows are semicolon-separated.) If none is that
 *   regular, the one of `;` and `,` found on the most lines wins (`;` on a tie; the uneven
 *   rows are then reported as ragged). If neither occurs, cells are separated by runs of
 *   spaces and/or tabs, with leading and trailing blanks ignored (quotes are not interpreted
 *   in that mode); a file of single numbers per line is read the same way, as one column.
 * - Header: `header: true` / `false` forces it; `'auto'` (the default) takes the first row as
 *   a header when it has a cell that is not a number and not a missing-value token (see
 *   below). A header whose names are all numbers therefore needs `header: true`. The names
 *   are not kept (only mentioned in a decision).
 * - Cells: decimal numbers with `.` as decimal separator and an optional exponent (`-1.5e3`,
 *   `.5`, `1.`), `inf`/`infinity` with optional sign (any case), or a missing-value token:
 *   the empty cell, `nan`, `na`, `n/a`, `null` (any case), read as NaN. Blanks around a cell
 *   are ignored. Anything else is an error naming the row and column.
 * - Rows are counted as a spreadsheet shows them: 1-based, the header (if any) is row 1.
 *   Blank lines at the end of the file are ignored; everywhere else a row whose cells are all
 *   empty or NaN (a blank line included, whatever its number of cells) is a missing sample
 *   of that view. A row with some NaN cells is present and keeps its NaNs (counted in a
 *   warning). Every other row must have as many cells as the first row (the header, or the
 *   first non-missing row).
 * - A trailing delimiter on every row (`1,2,3,`) adds no column: when the last cell of every
 *   non-missing row, header included, is empty, that column is dropped (with a decision).
 */
import { constants as bufferConstants } from 'node:buffer';
import { basename } from 'node:path';
import { dsvFormat } from 'd3-dsv';
import { makeLabels, type Decision, type Labels, type MultiViewDataset } from '../core/dataset';
import {
  assembleViews,
  checkLabelValues,
  finishDataset,
  LABEL_NAME,
  viewNames,
  viewsDecision,
  type RawView,
} from './assemble';
import { DataError, quoteText } from './errors';
import { readRegularFile } from './files';
import { AllocationBudget, MAX_SAMPLES } from './limits';

export type Delimiter = ',' | ';' | '\t' | 'whitespace';

export interface CsvLoadOptions {
  /** A file with one label per row (n rows, or n + 1 with a header). */
  labelsFile?: string;
  /** Whether each view file starts with a header row; default 'auto'. */
  header?: boolean | 'auto';
}

/**
 * Reads one CSV file per view into a dataset with n samples, n = the number of data rows
 * (the same in every file). View v is the (present_v, d_v) matrix of file v's non-missing rows.
 */
export async function loadCsvDataset(
  viewPaths: string[],
  options: CsvLoadOptions = {},
): Promise<MultiViewDataset> {
  if (viewPaths.length === 0) throw new Error('loadCsvDataset: no view files given');
  const header = options.header ?? 'auto';
  const tables = await Promise.all(viewPaths.map((p) => readCsvTable(p, header)));
  const names = viewNames(viewPaths);
  const raw: RawView[] = tables.map((t, v) => ({
    file: t.file,
    name: names[v]!,
    n: t.n,
    d: t.d,
    data: t.data,
    rowName: (i) => `row ${i + t.firstDataRow}`,
    countName: 'data rows',
  }));
  const assembled = assembleViews(raw);
  const decisions: Decision[] = [viewsDecision(raw, 'CSV')];
  decisions.push(
    groupedDecision(
      'delimiter',
      tables.map((t) => [t.file, DELIMITER_NAMES[t.delimiter], t.delimiterReason]),
      false,
    ),
  );
  decisions.push(
    groupedDecision(
      'header',
      tables.map((t) => [t.file, t.headerChoice, t.headerReason]),
      header !== 'auto',
    ),
  );
  for (const t of tables) {
    if (t.droppedTrailingColumn) {
      decisions.push({
        topic: 'trailing delimiter',
        choice: `${t.file}: the empty last column is dropped (d = ${t.d})`,
        reason: 'every row ends with a delimiter, which adds no value',
        overridden: false,
      });
    }
  }
  return finishDataset({
    format: 'csv',
    viewPaths,
    names,
    raw,
    assembled,
    decisions,
    labelsFile: options.labelsFile,
    readLabels: readCsvLabels,
  });
}

// ---------------------------------------------------------------------------------------------
// Cells and delimiters

const DELIMITER_NAMES: Record<Delimiter, string> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  whitespace: 'whitespace',
};

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INFINITY = /^([+-]?)inf(?:inity)?$/i;
const MISSING_TOKENS = new Set(['', 'nan', '-nan', '+nan', 'na', 'n/a', 'null']);

/**
 * The numeric value of a cell: a number, ±Infinity, NaN for a missing-value token, or
 * undefined for text.
 */
export function parseCell(cell: string): number | undefined {
  const s = cell.trim();
  if (NUMBER.test(s)) return Number(s);
  if (MISSING_TOKENS.has(s.toLowerCase())) return NaN;
  const inf = INFINITY.exec(s);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  return undefined;
}

function isMissingCell(cell: string): boolean {
  return MISSING_TOKENS.has(cell.trim().toLowerCase());
}

/** The longest text a JavaScript string holds (V8's limit), so the largest CSV that can be read. */
const MAX_TEXT_BYTES = bufferConstants.MAX_STRING_LENGTH;

const SNIFF_LINES = 50;
const SNIFF_CHARS = 1 << 18;
const CANDIDATES = ['\t', ';', ','] as const;

/** Picks the delimiter of a delimited text by the rule in this module's doc comment. */
export function sniffDelimiter(text: string): { delimiter: Delimiter; reason: string } {
  const lines: string[] = [];
  for (const line of text.slice(0, SNIFF_CHARS).split(/\r\n|\n|\r/)) {
    if (line.trim() !== '') lines.push(line);
    if (lines.length === SNIFF_LINES) break;
  }
  const counts = CANDIDATES.map(() => [] as number[]);
  for (const line of lines) {
    const perLine = countOutsideQuotes(line);
    CANDIDATES.forEach((_, k) => counts[k]!.push(perLine[k]!));
  }
  const scanned = `the first ${lines.length} non-blank line${lines.length === 1 ? '' : 's'}`;
  for (let k = 0; k < CANDIDATES.length; k++) {
    const c = counts[k]!;
    const first = c[0] ?? 0;
    if (first > 0 && c.every((x) => x === first)) {
      const name = DELIMITER_NAMES[CANDIDATES[k]!];
      return {
        delimiter: CANDIDATES[k]!,
        reason: `each of ${scanned} has ${first} ${name}${first === 1 ? '' : 's'}`,
      };
    }
  }
  // Irregular: the better of ';' and ',' (an irregular tab is just whitespace).
  let best = -1;
  let bestLines = 0;
  for (let k = 1; k < CANDIDATES.length; k++) {
    const withIt = counts[k]!.filter((x) => x > 0).length;
    if (withIt > bestLines) {
      best = k;
      bestLines = withIt;
    }
  }
  if (best >= 0) {
    const name = DELIMITER_NAMES[CANDIDATES[best]!];
    return {
      delimiter: CANDIDATES[best]!,
      reason: `no delimiter occurs evenly in ${scanned}; ${name} occurs on the most lines (${bestLines})`,
    };
  }
  return {
    delimiter: 'whitespace',
    reason: `no regular tab and no semicolon or comma in ${scanned}; cells are separated by blanks`,
  };
}

/** Occurrences of tab, ';' and ',' (in CANDIDATES order) outside double quotes. */
function countOutsideQuotes(line: string): [number, number, number] {
  let tab = 0;
  let semi = 0;
  let comma = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    else if (quoted) continue;
    else if (ch === 9) tab++;
    else if (ch === 59) semi++;
    else if (ch === 44) comma++;
  }
  return [tab, semi, comma];
}

/** Splits text into rows of cells (quotes interpreted except in whitespace mode). */
function splitRows(text: string, delimiter: Delimiter): string[][] {
  if (delimiter !== 'whitespace') return dsvFormat(delimiter).parseRows(text);
  const rows = text.split(/\r\n|\n|\r/).map((line) => {
    const t = line.trim();
    return t === '' ? [''] : t.split(/[ \t]+/);
  });
  return rows;
}

function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

/** Refuses more rows than a dataset may have, before the text is split into rows. */
function checkLineCount(file: string, text: string): void {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    // One row more than the bound is the header.
    if (++lines > MAX_SAMPLES + 2) {
      throw new DataError(
        file,
        `has more than ${MAX_SAMPLES + 1} rows; a dataset has at most ${MAX_SAMPLES} samples`,
      );
    }
  }
}

/** Reads a text file, stripping a byte-order mark; DataError if unreadable or binary. */
async function readText(file: string): Promise<string> {
  const bytes = await readRegularFile(file, MAX_TEXT_BYTES);
  if (bytes.subarray(0, 4096).includes(0)) {
    throw new DataError(file, 'not a text file (it holds binary data); expected delimited text');
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// ---------------------------------------------------------------------------------------------
// One view file

interface CsvTable {
  readonly file: string;
  readonly delimiter: Delimiter;
  readonly delimiterReason: string;
  readonly headerChoice: string;
  readonly headerReason: string;
  /** File row (1-based) of sample 0: 2 with a header, else 1. */
  readonly firstDataRow: number;
  readonly droppedTrailingColumn: boolean;
  readonly n: number;
  readonly d: number;
  /** (n, d) row-major; a missing sample's row is all NaN. */
  readonly data: Float64Array;
}

/** Data rows looked at to tell prose from a table. */
const PROSE_SAMPLE_ROWS = 100;

/**
 * The hint for a text file that is not a data table (a README, notes): when most filled
 * cells of the first data rows are not numbers, an error about cell counts or text would
 * otherwise send the user looking for a typo.
 */
function proseHint(rows: readonly (readonly string[])[], start: number): string {
  let filled = 0;
  let text = 0;
  for (const cells of rows.slice(start, start + PROSE_SAMPLE_ROWS)) {
    for (const cell of cells) {
      if (isMissingCell(cell)) continue;
      filled++;
      if (parseCell(cell) === undefined) text++;
    }
  }
  return text * 2 > filled
    ? '; this file does not look like a data table: a view file holds numbers, one row per sample and one column per feature (is it a text or README file?)'
    : '';
}

async function readCsvTable(file: string, header: boolean | 'auto'): Promise<CsvTable> {
  const text = await readText(file);
  if (text.trim() === '')
    throw new DataError(file, 'the file is empty; expected one row per sample');
  const { delimiter, reason: delimiterReason } = sniffDelimiter(text);
  checkLineCount(file, text);
  const rows = splitRows(text, delimiter);
  while (rows.length > 0 && isBlankRow(rows[rows.length - 1]!)) rows.pop();
  const first = rows[0];
  if (first === undefined) {
    // Only delimiters and blanks (",,\n,,"): no cell holds anything.
    throw new DataError(
      file,
      'every cell is empty, so this view holds no sample; expected rows of numbers',
    );
  }

  let hasHeader: boolean;
  let headerReason: string;
  if (header === 'auto') {
    const textCell = first.findIndex((c) => parseCell(c) === undefined);
    hasHeader = textCell >= 0;
    headerReason = hasHeader
      ? `auto: cell ${textCell + 1} of row 1 is not a number`
      : 'auto: every cell of row 1 is a number or empty/NaN';
  } else {
    hasHeader = header;
    headerReason = 'forced by the header option';
  }
  const start = hasHeader ? 1 : 0;
  const n = rows.length - start;
  if (n === 0) {
    throw new DataError(file, 'no data rows after the header row; expected one row per sample');
  }

  // The width: the header's, else that of the first row that is not missing.
  const widthRow = hasHeader ? 0 : rows.findIndex((cells) => !cells.every(isMissingCell));
  if (widthRow < 0) {
    throw new DataError(
      file,
      'every row is empty or NaN, so this view holds no sample; expected at least one row of numbers',
    );
  }
  const cellsPerRow = rows[widthRow]!.length;
  let droppedTrailingColumn = false;
  if (cellsPerRow > 1) {
    const trailing = rows.every((cells, r) =>
      r >= start && cells.every(isMissingCell) ? true : cells[cells.length - 1]!.trim() === '',
    );
    if (trailing) droppedTrailingColumn = true;
  }
  const d = droppedTrailingColumn ? cellsPerRow - 1 : cellsPerRow;
  const names = hasHeader ? first.map((c) => c.trim()) : null;

  // Missing rows are filled with NaN, so a wide header over many blank lines is a bomb too.
  new AllocationBudget(file, text.length).charge(8 * n * d);
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const cells = rows[start + i]!;
    const rowNo = start + i + 1;
    if (cells.length !== cellsPerRow) {
      if (cells.every(isMissingCell)) {
        data.fill(NaN, i * d, (i + 1) * d);
        continue;
      }
      throw new DataError(
        file,
        `expected ${cellsPerRow} cells (as in row ${widthRow + 1}), found ${cells.length}${proseHint(rows, start)}`,
        { row: rowNo },
      );
    }
    for (let j = 0; j < d; j++) {
      const cell = cells[j]!;
      const x = parseCell(cell);
      if (x === undefined) {
        // The cell is not quoted: the file may not be the user's own data.
        const decimalComma = /^\s*[+-]?\d+,\d+\s*$/.test(cell)
          ? ' (a decimal comma? write numbers with "." as the decimal separator)'
          : '';
        const hint = decimalComma || proseHint(rows, start);
        throw new DataError(file, `expected a number, found text${hint}`, {
          row: rowNo,
          column: j + 1,
        });
      }
      data[i * d + j] = x;
    }
  }

  let headerChoice = 'no header';
  if (names) {
    const shown = names.slice(0, 5).map((s) => quoteText(s, 20));
    const more = names.length > 5 ? `, … (${names.length} in all)` : '';
    headerChoice = `row 1 is a header (${shown.join(', ')}${more}; names not kept)`;
  }
  return {
    file,
    delimiter,
    delimiterReason,
    headerChoice,
    headerReason,
    firstDataRow: start + 1,
    droppedTrailingColumn,
    n,
    d,
    data,
  };
}

// ---------------------------------------------------------------------------------------------
// Labels

/**
 * Reads a labels file with one value per row: n rows, or n + 1 when the first row is a header
 * (a non-numeric first value followed by numbers only, or any non-numeric first value when
 * the file has exactly n + 1 rows). Values are numbers when every one is a number, else the
 * text of each cell. An empty or NaN label is an error: every sample needs one.
 *
 * `reference` names the view whose row count is n, for the length-mismatch message.
 */
export async function readCsvLabels(
  file: string,
  n: number,
  reference: Pick<RawView, 'file' | 'countName'>,
): Promise<{ labels: Labels; decisions: Decision[] }> {
  const text = await readText(file);
  if (text.trim() === '')
    throw new DataError(file, 'the labels file is empty; expected one label per row');
  checkLineCount(file, text);
  const sniffed = sniffDelimiter(text);
  const rows = dsvFormat(sniffed.delimiter === 'whitespace' ? ',' : sniffed.delimiter).parseRows(
    text,
  );
  while (rows.length > 0 && isBlankRow(rows[rows.length - 1]!)) rows.pop();
  const values: string[] = [];
  rows.forEach((cells, r) => {
    if (cells.length !== 1) {
      throw new DataError(file, `expected one label per row, found ${cells.length} cells`, {
        row: r + 1,
      });
    }
    values.push(cells[0]!.trim());
  });
  let start = 0;
  const firstIsText = parseCell(values[0]!) === undefined;
  if (firstIsText) {
    const restNumeric = values.slice(1).every((s) => parseCell(s) !== undefined);
    if ((restNumeric && values.length > 1) || values.length === n + 1) start = 1;
  }
  const body = values.slice(start);
  if (body.length !== n) {
    throw new DataError(
      file,
      `has ${body.length} labels${start ? ' (after the header row)' : ''} but the views have ${n} samples (${reference.countName} of ${reference.file})`,
    );
  }
  const parsed = body.map(parseCell);
  const numeric = parsed.every((x) => x !== undefined);
  for (let i = 0; i < body.length; i++) {
    const x = parsed[i];
    if (body[i] === '' || (numeric && Number.isNaN(x))) {
      throw new DataError(
        file,
        `the label is missing (${body[i] === '' ? 'empty' : 'a missing-value token'}); every sample needs a label`,
        { row: i + start + 1 },
      );
    }
  }
  const labelValues = numeric ? (parsed as number[]) : body;
  checkLabelValues(file, labelValues, (i) => ({ row: i + start + 1 }));
  const labels = makeLabels(file, labelValues);
  const header = values[0]!;
  const decisions: Decision[] = [
    {
      topic: 'labels',
      choice: `${basename(file)}: ${labels.classes.length} classes (${numeric ? 'numbers' : 'text'})`,
      reason: start
        ? `one label per row after the header row${LABEL_NAME.test(header) ? ` ${quoteText(header)}` : ''}`
        : 'one label per row, no header',
      overridden: true,
    },
  ];
  return { labels, decisions };
}

/**
 * One decision for a topic decided per file: files with the same choice and reason are
 * listed together, e.g. `comma (a.csv, b.csv); tab (c.tsv)`.
 */
function groupedDecision(
  topic: string,
  perFile: readonly (readonly [file: string, choice: string, reason: string])[],
  overridden: boolean,
): Decision {
  const groups = new Map<string, { choice: string; reason: string; files: string[] }>();
  for (const [file, choice, reason] of perFile) {
    const key = `${choice}\u0000${reason}`;
    const g = groups.get(key);
    if (g) g.files.push(basename(file));
    else groups.set(key, { choice, reason, files: [basename(file)] });
  }
  const all = [...groups.values()];
  if (all.length === 1) {
    const g = all[0]!;
    return { topic, choice: g.choice, reason: g.reason, overridden };
  }
  return {
    topic,
    choice: all.map((g) => `${g.files.join(', ')}: ${g.choice}`).join('; '),
    reason: all.map((g) => `${g.files.join(', ')}: ${g.reason}`).join('; '),
    overridden,
  };
}
