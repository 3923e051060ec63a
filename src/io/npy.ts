/**
 * NumPy readers: `.npy` arrays (format versions 1.0, 2.0, 3.0) and `.npz` archives (a ZIP of
 * `.npy` members, stored or deflated, ZIP64 sizes included).
 *
 * Supported dtypes (any byte order `<` `>`, `|` or `=` for one-byte types; `=` is read as
 * little-endian): floats `f2 f4 f8`, signed `i1 i2 i4 i8`, unsigned `u1 u2 u4 u8`, bool `b1`.
 * Every value is widened to a 64-bit float (int64/uint64 beyond ±2^53 lose precision, as
 * they do in MATLAB's double()). In an NPZ, fixed-width text arrays (`U`, `S`) are also read,
 * as cells of strings (the shape MATLAB gives a cellstr), so that text labels map as they do
 * from a MAT file. Object arrays, structured and complex dtypes are refused.
 *
 * Nothing is allocated from a declared size before it is checked against the bytes at hand:
 * an array's shape must account for the remaining bytes exactly, a ZIP member's sizes must
 * lie inside the archive and inflate to the declared size with the declared CRC-32. Every
 * problem is a DataError naming the file and, in an NPZ, the member.
 */
import { basename } from 'node:path';
import { constants as bufferConstants } from 'node:buffer';
import { crc32, inflateRawSync } from 'node:zlib';
import { makeLabels, type Decision, type Labels, type MultiViewDataset } from '../core/dataset';
import type { MatCell, MatFile, MatNumeric, MatValue, NumericClass } from './mat/types';
import { DataError, quoteText } from './errors';
import { readRegularFile } from './files';
import { AllocationBudget, MAX_ZIP_ENTRIES } from './limits';
import {
  assembleViews,
  checkLabelValues,
  finishDataset,
  readCsvLabels,
  viewNames,
  viewsDecision,
  type RawView,
} from './csv';

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

/**
 * MatFile with the container version widened to include 'npz'.
 * (Proposed: add 'npz' to MatFile['version'] in ./mat/types.ts and drop this alias.)
 */
/** An NPZ archive as a variable tree (version 'npz'). */
export type NpzFile = MatFile;

// ---------------------------------------------------------------------------------------------
// dtypes

interface DType {
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
function parseDType(descr: string, file: string, variable: string | undefined): DType {
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

function matClass(t: DType): NumericClass | 'logical' {
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

function parseNpyAs(
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
function parseNpyStrings(bytes: Uint8Array, h: NpyHeader, t: DType, order: 'C' | 'F'): string[] {
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
function elementCount(shape: readonly number[]): number | undefined {
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

// ---------------------------------------------------------------------------------------------
// ZIP

interface ZipEntry {
  readonly name: string;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
/** Deflate cannot compress better than about 1032:1. */
const MAX_DEFLATE_RATIO = 1032;

/** Reads the central directory of a ZIP archive. */
function listZip(bytes: Uint8Array, file: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.length;
  const damaged = (what: string): DataError =>
    new DataError(file, `the ZIP archive is damaged or truncated: ${what}`);
  const u64 = (at: number, what: string): number => {
    const v = view.getBigUint64(at, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged(`${what} is too large`);
    return Number(v);
  };

  // End of central directory: the last signature whose comment fits in the file.
  let eocd = -1;
  for (let p = len - 22; p >= 0 && p >= len - 22 - 0xffff; p--) {
    if (view.getUint32(p, true) === EOCD_SIG && p + 22 + view.getUint16(p + 20, true) <= len) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) {
    throw new DataError(
      file,
      'not a ZIP archive, or truncated (no end-of-central-directory record); expected an .npz file (a ZIP of .npy arrays)',
    );
  }
  let total = view.getUint16(eocd + 10, true);
  let cdSize = view.getUint32(eocd + 12, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  let cdLimit = eocd;
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR_SIG) {
    const z = u64(locator + 8, 'ZIP64 record offset');
    if (z + 56 > locator || view.getUint32(z, true) !== ZIP64_EOCD_SIG) {
      throw damaged('bad ZIP64 end-of-central-directory record');
    }
    total = u64(z + 32, 'entry count');
    cdSize = u64(z + 40, 'central directory size');
    cdOffset = u64(z + 48, 'central directory offset');
    cdLimit = z;
  }
  if (cdOffset + cdSize > cdLimit) throw damaged('the central directory lies outside the file');
  if (total > MAX_ZIP_ENTRIES) {
    throw new DataError(
      file,
      `the ZIP archive declares ${total} members; an .npz file may hold at most ${MAX_ZIP_ENTRIES}`,
    );
  }

  const entries: ZipEntry[] = [];
  const end = cdOffset + cdSize;
  let p = cdOffset;
  for (let k = 0; k < total; k++) {
    if (p + 46 > end || view.getUint32(p, true) !== CENTRAL_SIG) {
      throw damaged(`central directory entry ${k + 1} of ${total}`);
    }
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    let localOffset = view.getUint32(p + 42, true);
    const next = p + 46 + nameLength + extraLength + commentLength;
    if (next > end) throw damaged(`central directory entry ${k + 1} of ${total}`);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLength);
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    // ZIP64 extra field: the 64-bit values of the fields saturated at 0xffffffff, in order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = view.getUint16(e, true);
      const fieldEnd = e + 4 + view.getUint16(e + 2, true);
      if (fieldEnd > extraEnd) throw damaged(`extra field of ${quoteText(name)}`);
      if (id === 1) {
        let q = e + 4;
        const take = (what: string): number => {
          if (q + 8 > fieldEnd) throw damaged(`ZIP64 field of ${quoteText(name)}`);
          const v = u64(q, what);
          q += 8;
          return v;
        };
        if (size === 0xffffffff) size = take('size');
        if (compressedSize === 0xffffffff) compressedSize = take('compressed size');
        if (localOffset === 0xffffffff) localOffset = take('offset');
      }
      e = fieldEnd;
    }
    entries.push({ name, flags, method, crc, compressedSize, size, localOffset });
    p = next;
  }
  return entries;
}

/**
 * Refuses an archive whose members share bytes: a real ZIP stores each member once, while a
 * crafted one points many directory entries at one compressed member to multiply it.
 */
function refuseOverlaps(bytes: Uint8Array, entries: readonly ZipEntry[], file: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans = entries.map((e) => {
    const p = e.localOffset;
    // The local header's own name and extra lengths, when it is there to read.
    const header =
      p + 30 <= bytes.length
        ? 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true)
        : 30;
    return { name: e.name, start: p, end: p + header + e.compressedSize };
  });
  spans.sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    const prev = spans[k - 1]!;
    const cur = spans[k]!;
    if (cur.start < prev.end) {
      throw new DataError(
        file,
        `the ZIP members ${quoteText(prev.name)} and ${quoteText(cur.name)} share bytes of the archive ` +
          `(a crafted archive repeats one member to multiply it): refusing a decompression bomb`,
      );
    }
  }
}

/** The uncompressed bytes of one member, checked against its declared size and CRC-32. */
function extractZip(bytes: Uint8Array, entry: ZipEntry, file: string): Uint8Array {
  const at = { variable: entry.name };
  const damaged = (what: string): DataError =>
    new DataError(file, `the ZIP member is damaged or truncated: ${what}`, at);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = entry.localOffset;
  if (p + 30 > bytes.length || view.getUint32(p, true) !== LOCAL_SIG) {
    throw damaged('no local header where the central directory points');
  }
  if (entry.flags & 1) throw new DataError(file, 'the ZIP member is encrypted', at);
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) {
    throw damaged(
      `${entry.compressedSize} bytes declared, ${Math.max(0, bytes.length - start)} present`,
    );
  }
  const packed = bytes.subarray(start, stop);
  let out: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw damaged('stored sizes disagree');
    out = packed;
  } else if (entry.method === 8) {
    if (
      entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 1024 ||
      entry.size > bufferConstants.MAX_LENGTH
    ) {
      throw damaged(`implausible size ${entry.size} for ${entry.compressedSize} compressed bytes`);
    }
    try {
      out = inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.size) });
    } catch (e) {
      throw damaged(`deflate data (${(e as Error).message})`);
    }
    if (out.length !== entry.size)
      throw damaged(`inflates to ${out.length} bytes, not ${entry.size}`);
  } else {
    throw new DataError(
      file,
      `unsupported ZIP compression method ${entry.method}; expected stored (0) or deflate (8)`,
      at,
    );
  }
  if (crc32(out) >>> 0 !== entry.crc >>> 0) throw damaged('CRC-32 mismatch');
  return out;
}

// ---------------------------------------------------------------------------------------------
// NPZ

/** Reads an .npz file; see `parseNpz`. */
export async function readNpz(path: string): Promise<NpzFile> {
  return parseNpz(await readBytes(path), path);
}

/**
 * Parses the bytes of an .npz archive into the MAT variable tree, so that the MAT mapper can
 * map it: member `X0.npy` becomes variable `X0`. A numeric array becomes a MatNumeric with
 * `dims` = the numpy shape (a 1-D array of length k gets dims [k, 1], a 0-d one [1, 1]) and
 * `re` in column-major order; a text array becomes a cell of 1 x len char rows with the same
 * dims. Members of other dtypes become 'unsupported' variables with a warning; members that
 * are not .npy are skipped with a warning. A damaged member is a DataError.
 */
export function parseNpz(bytes: Uint8Array, path: string): NpzFile {
  const variables = new Map<string, MatValue>();
  const warnings: string[] = [];
  const entries = listZip(bytes, path);
  refuseOverlaps(bytes, entries, path);
  const budget = new AllocationBudget(path, bytes.length);
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    if (!entry.name.endsWith('.npy')) {
      warnings.push(`${entry.name}: not an .npy array; skipped`);
      continue;
    }
    const name = entry.name.slice(0, -4);
    if (entry.method !== 0) budget.charge(entry.size, name);
    const member = extractZip(bytes, entry, path);
    let h: NpyHeader;
    try {
      h = readNpyHeader(member, path, name);
    } catch (e) {
      if (!(e instanceof UnsupportedDTypeError)) throw e;
      variables.set(name, { type: 'unsupported', what: 'numpy array of an unsupported dtype' });
      warnings.push(`${name}: ${e.detail}`);
      continue;
    }
    const t = parseDType(h.dtype, path, name);
    const dims = h.shape.length === 0 ? [1, 1] : h.shape.length === 1 ? [h.shape[0]!, 1] : h.shape;
    const count = elementCount(h.shape)!;
    // Widened to 8 bytes per value, twice when reordered; a string is an object of its own.
    budget.charge(t.kind === 'U' || t.kind === 'S' ? count * (64 + t.itemSize) : 16 * count, name);
    if (t.kind === 'U' || t.kind === 'S') {
      const items = parseNpyStrings(member, h, t, 'F').map((text): MatValue => ({
        type: 'char',
        dims: [1, text.length],
        text,
      }));
      const cell: MatCell = { type: 'cell', dims, items };
      variables.set(name, cell);
    } else {
      const { data } = parseNpyAs(member, path, name, 'F');
      const numeric: MatNumeric = { type: 'numeric', class: matClass(t), dims, re: data };
      variables.set(name, numeric);
    }
  }
  return {
    path,
    version: 'npz',
    header: `NPZ archive with ${variables.size} array${variables.size === 1 ? '' : 's'}`,
    variables,
    warnings,
  };
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
