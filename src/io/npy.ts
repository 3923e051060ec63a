/**
 * NumPy readers: `.npy` arrays (format versions 1.0, 2.0, 3.0), alone or as the members of an
 * `.npz` archive (`./npz.ts`, over the ZIP reader `./zip.ts`), and one `.npy` file per view as a
 * dataset (assembled by `./assemble.ts`).
 *
 * Supported dtypes (any byte order `<` `>`, `|` or `=` for one-byte types; `=` is read as
 * little-endian): floats `f2 f4 f8`, signed `i1 i2 i4 i8`, unsigned `u1 u2 u4 u8`, bool `b1`.
 * Every value is widened to a 64-bit float (int64/uint64 beyond ±2^53 lose precision, as
 * they do in MATLAB's double()). In an NPZ, fixed-width text arrays (`U`, `S`) are also read,
 * as cells of strings (the shape MATLAB gives a cellstr), so that text labels map as they do
 * from a MAT file. Object arrays, structured and complex dtypes are refused.
 *
 * Nothing is allocated from a declared size before it is checked against the bytes at hand:
 * an array's shape must account for the remaining bytes exactly. Every problem is a DataError
 * naming the file and, in an NPZ, the member.
 */
import { basename } from 'node:path';
import { makeLabels, type Decision, type Labels, type MultiViewDataset } from '../core/dataset';
import type { NumericClass } from './mat/types';
import { DataError, quoteText } from './errors';
import { readRegularFile } from './files';
import {
  assembleViews,
  checkLabelValues,
  finishDataset,
  viewNames,
  viewsDecision,
  type RawView,
} from './assemble';
import { readCsvLabels } from './csv';

/** A parsed NPY array. */
export interface NpyArray {
  /** The dtype as the file spells it, e.g. '<f8', '|u1'. */
  readonly dtype: string;
  /** The numpy shape; [] for a 0-d array. */
  readonly shape: number[];
  /** What the file says; `data` is row-major either way. */
  readonly fortranOrder: boolean;
  /** product(shape) values in C (row-major) order: the last index varies fastest. */
  readonly data: Float64Array;
}

/** The header of an NPY array and where its data starts. */
export interface NpyHeader {
  /** Format version, e.g. '1.0'. */
  readonly version: string;
  readonly dtype: string;
  readonly shape: number[];
  readonly fortranOrder: boolean;
  /** Byte offset of the data in the array's bytes. */
  readonly dataOffset: number;
}

// ---------------------------------------------------------------------------------------------
// dtypes

export interface DType {
  /** f float, i signed, u unsigned, b bool, U UCS-4 text, S byte text. */
  readonly kind: 'f' | 'i' | 'u' | 'b' | 'U' | 'S';
  /** Bytes per element. */
  readonly itemSize: number;
  readonly littleEndian: boolean;
}

const NUMERIC_SIZES: Record<'f' | 'i' | 'u' | 'b', readonly number[]> = {
  f: [2, 4, 8],
  i: [1, 2, 4, 8],
  u: [1, 2, 4, 8],
  b: [1],
};

/** A DataError for a well-formed array of a dtype these readers do not decode. */
export class UnsupportedDTypeError extends DataError {
  constructor(file: string, detail: string, where: { variable?: string }) {
    super(file, detail, where);
    this.name = 'UnsupportedDTypeError';
  }
}

/** Decodes a simple dtype string like '<f8'; UnsupportedDTypeError otherwise. */
export function parseDType(descr: string, file: string, variable: string | undefined): DType {
  const unsupported = (why: string): DataError =>
    new UnsupportedDTypeError(
      file,
      `unsupported dtype ${quoteText(descr)} (${why}); expected a numeric array (float, int, uint or bool)`,
      where(variable),
    );
  const m = /^([<>|=]?)([a-zA-Z?])(\d*)$/.exec(descr);
  if (!m) throw unsupported('not a simple dtype');
  const order = m[1]!;
  const kind = m[2]!;
  const count = Number(m[3]);
  const littleEndian = order !== '>';
  if (kind === 'f' || kind === 'i' || kind === 'u' || kind === 'b') {
    if (!NUMERIC_SIZES[kind].includes(count)) throw unsupported(`no ${m[3]}-byte ${kind} type`);
    if (order === '|' && count > 1) throw unsupported('multi-byte type without byte order');
    return { kind, itemSize: count, littleEndian };
  }
  if (kind === 'U' || kind === 'S') {
    // Zero-width text would let any shape pass the size check with no bytes at all.
    if (!(count >= 1 && Number.isSafeInteger(count * 4))) throw unsupported('text width');
    return { kind, itemSize: kind === 'U' ? count * 4 : count, littleEndian };
  }
  const names: Record<string, string> = {
    O: 'Python objects',
    V: 'structured or void',
    c: 'complex',
    M: 'datetime',
    m: 'timedelta',
  };
  throw unsupported(names[kind] ?? `kind ${kind}`);
}

export function matClass(t: DType): NumericClass | 'logical' {
  switch (t.kind) {
    case 'f':
      return t.itemSize === 8 ? 'double' : 'single';
    case 'b':
      return 'logical';
    case 'i':
      return `int${t.itemSize * 8}` as NumericClass;
    default:
      return `uint${t.itemSize * 8}` as NumericClass;
  }
}

function where(variable: string | undefined): { variable?: string } {
  return variable === undefined ? {} : { variable };
}

// ---------------------------------------------------------------------------------------------
// NPY

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** True when the bytes start with the NPY magic string. */
export function isNpy(bytes: Uint8Array): boolean {
  return MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Reads and checks an NPY header: the declared shape and dtype must account for exactly the
 * bytes after the header. `file` and `variable` only serve error messages.
 */
export function readNpyHeader(bytes: Uint8Array, file: string, variable?: string): NpyHeader {
  const at = where(variable);
  if (bytes.length < 10 || !isNpy(bytes)) {
    throw new DataError(file, 'not an NPY array (it does not start with "\\x93NUMPY")', at);
  }
  const major = bytes[6]!;
  const minor = bytes[7]!;
  const version = `${major}.${minor}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLength: number;
  let headerStart: number;
  if (major === 1) {
    headerLength = view.getUint16(8, true);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) throw new DataError(file, 'NPY header is truncated', at);
    headerLength = view.getUint32(8, true);
    headerStart = 12;
  } else {
    throw new DataError(
      file,
      `unsupported NPY format version ${version}; expected 1.0, 2.0 or 3.0`,
      at,
    );
  }
  const dataOffset = headerStart + headerLength;
  if (dataOffset > bytes.length) {
    throw new DataError(
      file,
      `NPY header declares ${headerLength} bytes but only ${bytes.length - headerStart} remain (truncated or damaged)`,
      at,
    );
  }
  const raw = bytes.subarray(headerStart, dataOffset);
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(raw);
  const damaged = (what: string): DataError =>
    new DataError(file, `NPY header is damaged: ${what} (header ${quoteText(text, 80)})`, at);

  if (!text.trimStart().startsWith('{')) throw damaged('expected a Python dict');
  const descrMatch = /['"]descr['"]\s*:\s*(['"])([^'"]*)\1/.exec(text);
  if (!descrMatch) {
    if (/['"]descr['"]\s*:\s*\[/.test(text)) {
      throw new UnsupportedDTypeError(
        file,
        'unsupported dtype (a structured array); expected a numeric array (float, int, uint or bool)',
        at,
      );
    }
    throw damaged("no 'descr'");
  }
  const orderMatch = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(text);
  if (!orderMatch) throw damaged("no 'fortran_order'");
  const shapeMatch = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(text);
  if (!shapeMatch) throw damaged("no 'shape'");
  const items = shapeMatch[1]!.split(',').map((s) => s.trim());
  if (items.length > 0 && items[items.length - 1] === '') items.pop();
  const shape: number[] = [];
  for (const item of items) {
    const m = /^(\d+)L?$/.exec(item);
    const dim = m ? Number(m[1]) : NaN;
    if (!Number.isSafeInteger(dim)) throw damaged(`shape entry ${quoteText(item)}`);
    shape.push(dim);
  }
  const dtype = descrMatch[2]!;
  const t = parseDType(dtype, file, variable);
  const count = elementCount(shape);
  const found = bytes.length - dataOffset;
  const shapeText = formatShape(shape);
  if (count === undefined) {
    throw new DataError(
      file,
      `declared shape ${shapeText} is impossibly large for ${found} data bytes (damaged)`,
      at,
    );
  }
  const needed = count * t.itemSize;
  if (needed !== found) {
    throw new DataError(
      file,
      needed > found
        ? `declared shape ${shapeText} of ${dtype} needs ${needed} data bytes, found ${found} (truncated or damaged)`
        : `declared shape ${shapeText} of ${dtype} needs ${needed} data bytes, found ${found}: ${found - needed} extra (damaged)`,
      at,
    );
  }
  return { version, dtype, shape, fortranOrder: orderMatch[1] === 'True', dataOffset };
}

/**
 * Parses an NPY array and widens it to Float64Array. `data` is always in C (row-major) order,
 * whatever the file's order; `fortranOrder` reports what the file said. Text, object and
 * structured dtypes are a DataError ('unsupported dtype'). `name` names the file in errors.
 */
export function parseNpy(bytes: Uint8Array, name: string): NpyArray {
  return parseNpyAs(bytes, name, undefined, 'C');
}

export function parseNpyAs(
  bytes: Uint8Array,
  file: string,
  variable: string | undefined,
  order: 'C' | 'F',
): NpyArray & { type: DType } {
  const h = readNpyHeader(bytes, file, variable);
  const t = parseDType(h.dtype, file, variable);
  if (t.kind === 'U' || t.kind === 'S') {
    throw new UnsupportedDTypeError(
      file,
      `unsupported dtype ${quoteText(h.dtype)} (text); expected a numeric array (float, int, uint or bool)`,
      where(variable),
    );
  }
  const fileOrder = h.fortranOrder ? 'F' : 'C';
  let data = decodeNumbers(bytes, h.dataOffset, elementCount(h.shape)!, t);
  if (fileOrder !== order) data = reorder(data, new Float64Array(data.length), h.shape, fileOrder);
  return { dtype: h.dtype, shape: h.shape, fortranOrder: h.fortranOrder, data, type: t };
}

/** Decodes a text array (dtype U or S) into strings, trailing NULs removed, in `order`. */
export function parseNpyStrings(
  bytes: Uint8Array,
  h: NpyHeader,
  t: DType,
  order: 'C' | 'F',
): string[] {
  const count = elementCount(h.shape)!;
  const out = new Array<string>(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder('utf-8');
  for (let k = 0; k < count; k++) {
    const start = h.dataOffset + k * t.itemSize;
    let s: string;
    if (t.kind === 'U') {
      s = '';
      for (let c = 0; c < t.itemSize / 4; c++) {
        const code = view.getUint32(start + c * 4, t.littleEndian);
        if (code === 0) break;
        s += String.fromCodePoint(code <= 0x10ffff ? code : 0xfffd);
      }
    } else {
      let end = start + t.itemSize;
      while (end > start && bytes[end - 1] === 0) end--;
      s = utf8.decode(bytes.subarray(start, end));
    }
    out[k] = s;
  }
  const fileOrder = h.fortranOrder ? 'F' : 'C';
  return fileOrder === order ? out : reorder(out, new Array<string>(count), h.shape, fileOrder);
}

/** Number of elements of a shape, or undefined when it is not a safe integer. */
export function elementCount(shape: readonly number[]): number | undefined {
  let count = 1;
  for (const dim of shape) {
    count *= dim;
    if (!Number.isSafeInteger(count)) return undefined;
  }
  return count;
}

/** Python's spelling of a shape: (), (3,), (3, 4). */
function formatShape(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/** Widens `count` elements of type `t` starting at `offset` to 64-bit floats, in file order. */
function decodeNumbers(bytes: Uint8Array, offset: number, count: number, t: DType): Float64Array {
  const nBytes = count * t.itemSize;
  if (t.kind === 'f' && t.itemSize === 8 && t.littleEndian) {
    // Copying to a fresh buffer aligns the data for a Float64Array view. (Not bytes.slice:
    // on a Node Buffer that is a view into a possibly shared pool.)
    const copy = new Uint8Array(nBytes);
    copy.set(bytes.subarray(offset, offset + nBytes));
    return new Float64Array(copy.buffer);
  }
  const out = new Float64Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, nBytes);
  const le = t.littleEndian;
  const key = `${t.kind}${t.itemSize}`;
  switch (key) {
    case 'f2':
      for (let k = 0; k < count; k++) out[k] = halfToNumber(view.getUint16(2 * k, le));
      break;
    case 'f4':
      for (let k = 0; k < count; k++) out[k] = view.getFloat32(4 * k, le);
      break;
    case 'f8':
      for (let k = 0; k < count; k++) out[k] = view.getFloat64(8 * k, le);
      break;
    case 'i1':
      for (let k = 0; k < count; k++) out[k] = view.getInt8(k);
      break;
    case 'i2':
      for (let k = 0; k < count; k++) out[k] = view.getInt16(2 * k, le);
      break;
    case 'i4':
      for (let k = 0; k < count; k++) out[k] = view.getInt32(4 * k, le);
      break;
    case 'i8':
      for (let k = 0; k < count; k++) out[k] = Number(view.getBigInt64(8 * k, le));
      break;
    case 'u1':
      for (let k = 0; k < count; k++) out[k] = view.getUint8(k);
      break;
    case 'u2':
      for (let k = 0; k < count; k++) out[k] = view.getUint16(2 * k, le);
      break;
    case 'u4':
      for (let k = 0; k < count; k++) out[k] = view.getUint32(4 * k, le);
      break;
    case 'u8':
      for (let k = 0; k < count; k++) out[k] = Number(view.getBigUint64(8 * k, le));
      break;
    case 'b1':
      for (let k = 0; k < count; k++) out[k] = view.getUint8(k) === 0 ? 0 : 1;
      break;
    default:
      throw new Error(`decodeNumbers: unexpected dtype ${key}`);
  }
  return out;
}

/** IEEE 754 half precision bits to a number. */
function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * Copies `src`, laid out in `from` order over `shape`, into `out` in the other order
 * (C = row-major, last index fastest; F = column-major, first index fastest).
 */
function reorder<T, A extends { [i: number]: T }>(
  src: ArrayLike<T>,
  out: A,
  shape: readonly number[],
  from: 'C' | 'F',
): A {
  const k = shape.length;
  const count = src.length;
  if (k <= 1 || count === 0) {
    for (let p = 0; p < count; p++) out[p] = src[p]!;
    return out;
  }
  // Strides of the destination order.
  const strides = new Array<number>(k);
  if (from === 'F') {
    strides[k - 1] = 1;
    for (let a = k - 2; a >= 0; a--) strides[a] = strides[a + 1]! * shape[a + 1]!;
  } else {
    strides[0] = 1;
    for (let a = 1; a < k; a++) strides[a] = strides[a - 1]! * shape[a - 1]!;
  }
  // Walk the source in its own order with an odometer over the axes, fastest axis first.
  const axes = from === 'F' ? shape.map((_, a) => a) : shape.map((_, a) => k - 1 - a);
  const index = new Array<number>(k).fill(0);
  let dest = 0;
  for (let p = 0; p < count; p++) {
    out[dest] = src[p]!;
    for (const a of axes) {
      dest += strides[a]!;
      if (++index[a]! < shape[a]!) break;
      dest -= strides[a]! * shape[a]!;
      index[a] = 0;
    }
  }
  return out;
}

async function readBytes(file: string): Promise<Uint8Array> {
  return readRegularFile(file);
}

// ---------------------------------------------------------------------------------------------
// A dataset from .npy files

export interface NpyLoadOptions {
  /** Labels: an .npy array of n values (shape (n,), (n, 1) or (1, n)) or a CSV labels file. */
  labelsFile?: string;
}

/**
 * Reads one .npy file per view into a dataset: each array is (n, d) with samples as rows (a
 * 1-D array of length n is one feature); every file must have the same n. A row that is
 * entirely NaN is a missing sample of that view.
 */
export async function loadNpyDataset(
  viewPaths: string[],
  options: NpyLoadOptions = {},
): Promise<MultiViewDataset> {
  if (viewPaths.length === 0) throw new Error('loadNpyDataset: no view files given');
  const names = viewNames(viewPaths);
  const arrays = await Promise.all(viewPaths.map(async (p) => parseNpy(await readBytes(p), p)));
  const raw: RawView[] = arrays.map((a, v) => {
    const file = viewPaths[v]!;
    if (a.shape.length !== 1 && a.shape.length !== 2) {
      throw new DataError(
        file,
        `expected a 2-D array (samples x features), found shape ${formatShape(a.shape)}`,
      );
    }
    const n = a.shape[0]!;
    const d = a.shape.length === 2 ? a.shape[1]! : 1;
    if (d === 0 || n === 0) {
      throw new DataError(file, `the array is empty (shape ${formatShape(a.shape)})`);
    }
    return {
      file,
      name: names[v]!,
      n,
      d,
      data: a.data,
      rowName: (i) => `row ${i} (0-based)`,
      countName: 'rows',
    };
  });
  const assembled = assembleViews(raw);
  const decisions: Decision[] = [viewsDecision(raw, 'NPY')];
  decisions.push({
    topic: 'dtype',
    choice: arrays
      .map((a, v) => `${names[v]}: ${a.dtype}${a.fortranOrder ? ' (Fortran order)' : ''}`)
      .join(', '),
    reason: 'values are widened to 64-bit floats',
    overridden: false,
  });
  arrays.forEach((a, v) => {
    if (a.shape.length === 1) {
      decisions.push({
        topic: 'orientation',
        choice: `${names[v]}: one feature per sample`,
        reason: `the array is 1-D, shape ${formatShape(a.shape)}`,
        overridden: false,
      });
    }
  });
  return finishDataset({
    format: 'npy',
    viewPaths,
    names,
    raw,
    assembled,
    decisions,
    labelsFile: options.labelsFile,
    readLabels,
  });
}

/** Labels from an .npy array (numeric or text) or, failing the NPY magic, a CSV file. */
async function readLabels(
  file: string,
  n: number,
  reference: RawView,
): Promise<{ labels: Labels; decisions: Decision[] }> {
  const bytes = await readBytes(file);
  if (!isNpy(bytes)) return readCsvLabels(file, n, reference);
  const h = readNpyHeader(bytes, file);
  const t = parseDType(h.dtype, file, undefined);
  const s = h.shape;
  const vector = s.length === 1 || (s.length === 2 && (s[0] === 1 || s[1] === 1));
  if (!vector) {
    throw new DataError(
      file,
      `expected a vector of labels (shape (n,), (n, 1) or (1, n)), found shape ${formatShape(s)}`,
    );
  }
  const count = elementCount(s)!;
  if (count !== n) {
    throw new DataError(
      file,
      `has ${count} labels but the views have ${n} samples (${reference.countName} of ${reference.file})`,
    );
  }
  let labels: Labels;
  const at = (i: number): { variable: string } => ({ variable: `label ${i} (0-based)` });
  if (t.kind === 'U' || t.kind === 'S') {
    const names = parseNpyStrings(bytes, h, t, 'C');
    checkLabelValues(file, names, at);
    labels = makeLabels(file, names);
  } else {
    const { data } = parseNpyAs(bytes, file, undefined, 'C');
    const bad = data.findIndex((x) => Number.isNaN(x));
    if (bad >= 0) {
      throw new DataError(file, `label ${bad} (0-based) is NaN; every sample needs a label`);
    }
    checkLabelValues(file, Array.from(data), at);
    labels = makeLabels(file, data);
  }
  return {
    labels,
    decisions: [
      {
        topic: 'labels',
        choice: `${basename(file)}: ${labels.classes.length} classes (${h.dtype})`,
        reason: 'the labels file was given',
        overridden: true,
      },
    ],
  };
}
