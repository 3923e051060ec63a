/**
 * MAT v7.3 reader: a MAT file that is an HDF5 file (with the 128-byte MAT header in a 512-byte
 * userblock), read through h5wasm into the format-neutral tree of `./types.ts`.
 *
 * MATLAB's v7.3 layout, as implemented here:
 * - every variable is a root member (dataset or group) with attribute `MATLAB_class`;
 *   `#refs#` (targets of cell/struct references) and `#subsystem#` (MCOS data) are not variables;
 * - HDF5 dims are MATLAB dims reversed: the row-major buffer of an HDF5 dataset of shape [a, b]
 *   is the column-major MATLAB array of dims [b, a], so data is never transposed;
 * - numeric classes are widened to Float64Array; complex data is a compound {real, imag};
 *   char is uint16 code units; logical is uint8;
 * - `MATLAB_empty` = 1 marks an empty array whose dataset holds the MATLAB dims (uint64);
 * - cell = dataset of object references (into `#refs#`), one per element, column-major;
 * - sparse = group with `MATLAB_sparse` = rows and members `ir`, `jc`, `data` (CSC, 0-based);
 * - struct = group; a 1x1 struct has one member per field, a struct array has one dataset of
 *   references per field (without `MATLAB_class`), shaped like the struct array.
 *
 * Robustness. h5wasm does not check most HDF5 status codes: a failed read returns whatever was in
 * the buffer, and the HDF5 library reports the failure only by printing its error stack to
 * stderr. Every h5wasm call therefore runs inside `guarded()`, which captures what the WASM
 * runtime writes to stderr during the (synchronous) call and turns it, or anything thrown, into
 * an `H5CallError`. (h5wasm's own "throwing error handler" is not used: it leaks one host file
 * descriptor per error.) A variable that fails is dropped with a warning that names it; a file
 * that cannot be opened or listed ends in a `MatReadError`. Sizes are checked against the file
 * size before any allocation, recursion is bounded and reference cycles are refused.
 *
 * WASM runtime failures (traps, aborts) may leave the HDF5 library in an undefined state. The
 * instance is then discarded and the next read loads a fresh h5wasm module instance: ESM modules
 * cannot be unloaded, but importing h5wasm's entry file under a new URL (`?instance=N`) evaluates
 * it again and instantiates a new WASM module. A discarded instance stays in the module cache
 * (its heap, >= 19 MB, is not reclaimed), so this is reserved for the rare fatal case. The same
 * happens when HDF5 leaves the file open after closing it (leaked object ids): its host file
 * descriptors are closed and the instance replaced.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import type * as H5 from 'h5wasm/node';
import { HDF5_HEAD_BYTES, hdf5SignatureOffset } from './signature';
import { MatReadError, numel } from './types';
import type {
  MatCell,
  MatChar,
  MatFile,
  MatNumeric,
  MatSparse,
  MatStruct,
  MatValue,
  NumericClass,
} from './types';

type H5Api = typeof H5;
type H5Module = Awaited<H5Api['ready']>;
type H5Entity = H5.Group | H5.Dataset;
type H5Output = H5.OutputData;

/** Length of the descriptive text at the start of the 128-byte MAT header. */
const MAT_HEADER_TEXT_BYTES = 116;

/** No single dataset may decode to more bytes than this (h5wasm's heap is capped at 2 GiB). */
const MAX_DATASET_BYTES = 1 << 30;
/** Upper bound of the deflate expansion ratio (~1032:1) with some slack; bounds chunked data. */
const MAX_COMPRESSION_RATIO = 1100;
/** Slack for contiguous/compact datasets vs. file size (headers, fill values of tiny datasets). */
const SIZE_SLACK_BYTES = 64 * 1024;
/** Attributes are tiny in MAT files; anything larger is damage. */
const MAX_ATTRIBUTE_BYTES = 1 << 20;
/** Maximum nesting of cells/structs (MATLAB files in the wild nest 2–3 deep). */
const MAX_DEPTH = 64;

/**
 * Reads a MAT v7.3 (HDF5) file into the format-neutral tree.
 *
 * Never rejects with anything but a `MatReadError` (message: path + problem). Variables that
 * cannot be read are left out with a warning naming them; unsupported classes (function handles,
 * objects, ...) become `{ type: 'unsupported' }` with a warning.
 */
export async function readMatV73(path: string): Promise<MatFile> {
  const absPath = nodePath.resolve(path);
  const { head, size } = await readHead(path, absPath);
  if (size === 0) throw new MatReadError(path, 'not an HDF5 file (the file is empty)');
  const sigAt = hdf5SignatureOffset(head);
  if (sigAt < 0) {
    throw new MatReadError(
      path,
      'not an HDF5 file (no HDF5 signature at byte 512, 0, 1024 or 2048): not a MAT v7.3 file',
    );
  }
  const warnings: string[] = [];
  const header = matHeaderText(head, sigAt, warnings);

  let inst: H5Instance;
  try {
    inst = await getInstance();
  } catch (e) {
    throw new MatReadError(path, `the HDF5 library (h5wasm) could not be loaded: ${errorText(e)}`);
  }
  let variables: Map<string, MatValue>;
  try {
    variables = readWithInstance(inst, path, absPath, size, warnings);
  } catch (e) {
    if (e instanceof MatReadError) throw e;
    throw new MatReadError(path, `unexpected failure while reading: ${errorText(e)}`);
  }
  return { path, version: 'v7.3', header, variables, warnings };
}

// ---------------------------------------------------------------------------------------------
// File head and MAT header

/** First bytes of the file (enough for every signature offset) and the file size. */
async function readHead(
  path: string,
  absPath: string,
): Promise<{ head: Uint8Array; size: number }> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(absPath, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    const head = new Uint8Array(HDF5_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), size: stat.size };
  } catch (e) {
    throw new MatReadError(path, `cannot read the file: ${errorText(e)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The 116-byte header text of the userblock, trimmed of trailing spaces and NULs. */
function matHeaderText(head: Uint8Array, sigAt: number, warnings: string[]): string {
  if (sigAt < 128) {
    warnings.push('no MAT header: plain HDF5 file without a userblock');
    return '';
  }
  let text = '';
  for (let i = 0; i < MAT_HEADER_TEXT_BYTES; i++) text += String.fromCharCode(head[i] ?? 0);
  text = text.replace(/[\s\0]+$/u, '');
  if (!text.startsWith('MATLAB')) warnings.push('the HDF5 userblock does not hold a MAT header');
  return text;
}

// ---------------------------------------------------------------------------------------------
// h5wasm instances

interface H5Instance {
  readonly api: H5Api;
  readonly module: H5Module;
  /** Set after a WASM runtime failure or leaked file handles: the instance is not reused. */
  broken: boolean;
}

let current: Promise<H5Instance> | null = null;
let generations = 0;

/** The h5wasm instance to use, loading a fresh one if the last one broke. */
async function getInstance(): Promise<H5Instance> {
  if (current) {
    const inst = await current.catch(() => null);
    if (inst && !inst.broken) return inst;
  }
  const loading = loadInstance(generations++);
  current = loading;
  loading.catch(() => {
    if (current === loading) current = null;
  });
  return loading;
}

/** Loads h5wasm: the package's own instance first (0), then fresh ones (n > 0). */
async function loadInstance(generation: number): Promise<H5Instance> {
  return withoutNavigator(async () => {
    let api: H5Api;
    if (generation === 0) {
      api = await import('h5wasm/node');
    } else {
      // A new URL makes Node evaluate the entry file again, which instantiates a new WASM module.
      const url = import.meta.resolve('h5wasm/node');
      api = (await import(/* @vite-ignore */ `${url}?instance=${generation}`)) as H5Api;
    }
    const module = await api.ready;
    return { api, module, broken: false };
  });
}

/**
 * Runs `load` with `globalThis.navigator` hidden: the Emscripten environment check in h5wasm's
 * Node build refuses to start when it sees a browser user agent (Electron). h5wasm's README
 * documents the same workaround.
 */
async function withoutNavigator<T>(load: () => Promise<T>): Promise<T> {
  const desc = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const ua: unknown = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  const hide =
    desc?.configurable === true && typeof ua === 'string' && /Chrome|Safari|Firefox/.test(ua);
  if (hide)
    Object.defineProperty(globalThis, 'navigator', { value: undefined, configurable: true });
  try {
    return await load();
  } finally {
    if (hide && desc) Object.defineProperty(globalThis, 'navigator', desc);
  }
}

/** A failed h5wasm call: the HDF5 diagnostics (or the thrown error) as one line. */
class H5CallError extends Error {
  override name = 'H5CallError';
}

type WriteSync = (fd: unknown, buffer: unknown, ...rest: unknown[]) => number;

/**
 * Runs one synchronous h5wasm call (`what` names it in messages). What the C code writes to
 * stderr during the call (HDF5's error stack) is captured instead of printed and turns the call
 * into a failure, as does anything thrown. What the Emscripten JS glue prints through `console`
 * (warnings such as "Invalid UTF-8 ... in wasm memory", abort messages) is captured too, and
 * only reported if the call fails. A WASM runtime error marks the instance broken. Patching
 * `fs.writeSync` and `process.stderr.write` is safe here: the call is synchronous, so no other
 * code runs before the originals are restored.
 */
function guarded<T>(inst: H5Instance, what: string, call: () => T): T {
  const diag: string[] = [];
  const notes: string[] = [];
  const mutableFs = fs as unknown as { writeSync: WriteSync };
  const original = mutableFs.writeSync;
  const stderr = process.stderr as unknown as {
    write: (chunk: unknown, ...rest: unknown[]) => boolean;
  };
  const originalWrite = stderr.write;
  const ownWrite = Object.prototype.hasOwnProperty.call(stderr, 'write');
  stderr.write = (chunk) => {
    notes.push(typeof chunk === 'string' ? chunk : String(chunk));
    return true;
  };
  mutableFs.writeSync = (fd, buffer, ...rest) => {
    if (fd !== 2) return original.call(fs, fd, buffer, ...rest);
    if (typeof buffer === 'string') {
      diag.push(buffer);
      return Buffer.byteLength(buffer);
    }
    if (ArrayBuffer.isView(buffer)) {
      // Emscripten passes its HEAP8 (an Int8Array) with a byte offset and length.
      const offset = typeof rest[0] === 'number' ? rest[0] : 0;
      const length = typeof rest[1] === 'number' ? rest[1] : buffer.byteLength - offset;
      diag.push(Buffer.from(buffer.buffer, buffer.byteOffset + offset, length).toString('utf8'));
      return length;
    }
    return original.call(fs, fd, buffer, ...rest);
  };
  let result: T;
  try {
    result = call();
  } catch (e) {
    if (isRuntimeFailure(e)) inst.broken = true;
    const printed = [...diag, ...notes].join('');
    const detail = printed ? ` (${summarizeDiagnostics(printed)})` : '';
    throw new H5CallError(`${prefix(what)}${errorText(e)}${detail}`);
  } finally {
    mutableFs.writeSync = original;
    if (ownWrite) stderr.write = originalWrite;
    else delete (stderr as { write?: unknown }).write;
  }
  if (diag.length > 0) {
    throw new H5CallError(`${prefix(what)}${summarizeDiagnostics(diag.join(''))}`);
  }
  return result;
}

function prefix(what: string): string {
  return what ? `${what}: ` : '';
}

/** Errors after which the WASM instance may be inconsistent. */
function isRuntimeFailure(e: unknown): boolean {
  // WebAssembly.RuntimeError (traps, Emscripten aborts) has name 'RuntimeError'; a stack
  // overflow can interrupt the WASM code anywhere.
  if (!(e instanceof Error)) return false;
  return e.name === 'RuntimeError' || (e instanceof RangeError && /call stack/i.test(e.message));
}

/**
 * One line from an HDF5 error stack: the messages of its frames, innermost first, without file
 * names and line numbers, e.g. "HDF5 error: H5Z__filter_deflate(): inflate() failed <- ... <-
 * H5Dread(): can't synchronously read data".
 */
function summarizeDiagnostics(text: string): string {
  const frames: string[] = [];
  for (const line of text.split('\n')) {
    const m = /#\d+: .* in ([\w]+\(\)): (.*)$/.exec(line.trim());
    if (m) frames.push(`${m[1]}: ${m[2]}`);
  }
  // The innermost frames say what was wrong ("truncated file", "inflate() failed"), the
  // outermost which API call failed.
  const unique = [...new Set(frames)].reverse();
  if (unique.length === 0) return oneLine(text, 300);
  const shown = unique.length > 3 ? [...unique.slice(0, 2), '...', unique.at(-1)] : unique;
  return oneLine(`HDF5 error: ${shown.join(' <- ')}`, 400);
}

function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Message of anything thrown (h5wasm throws Error, strings, and embind objects). */
function errorText(e: unknown): string {
  if (e instanceof Error) return oneLine(e.message || e.name, 400);
  if (typeof e === 'string') return oneLine(e, 400);
  try {
    return oneLine(String(e), 400);
  } catch {
    return 'unknown error';
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a file

/** Per-file reading state. */
interface Ctx {
  readonly inst: H5Instance;
  readonly file: H5.File;
  readonly fileSize: number;
  readonly warnings: string[];
  /** HDF5 paths being read (reference-cycle guard). */
  readonly active: Set<string>;
  /**
   * Bytes the file's datasets may still decode to. An intact file decodes each stored byte once,
   * so its total is bounded like a single dataset's; damaged files that reference the same large
   * dataset again and again hit this budget.
   */
  budget: number;
}

/** A damaged variable (or element): the reason, for the warning. */
class Damaged extends Error {
  override name = 'Damaged';
}

function readWithInstance(
  inst: H5Instance,
  path: string,
  absPath: string,
  fileSize: number,
  warnings: string[],
): Map<string, MatValue> {
  let file: H5.File;
  try {
    file = guarded(inst, '', () => new inst.api.File(absPath, 'r'));
  } catch (e) {
    releaseLeakedFiles(inst, absPath);
    const text = errorText(e);
    const why = /truncated file/.test(text) ? 'the file is truncated; ' : '';
    throw new MatReadError(path, `${why}the HDF5 library could not open it: ${text}`);
  }
  const variables = new Map<string, MatValue>();
  try {
    if (typeof file.file_id !== 'bigint' || file.file_id < 0n) {
      throw new MatReadError(path, 'the HDF5 library could not open it');
    }
    let names: string[];
    try {
      names = guarded(inst, 'list variables', () => file.keys());
    } catch (e) {
      throw new MatReadError(
        path,
        `the HDF5 library could not list its variables: ${errorText(e)}`,
      );
    }
    const ctx: Ctx = {
      inst,
      file,
      fileSize,
      warnings,
      active: new Set(),
      budget: fileSize * MAX_COMPRESSION_RATIO + SIZE_SLACK_BYTES,
    };
    for (const name of names) {
      if (name === '#refs#' || name === '#subsystem#') continue;
      if (inst.broken) {
        warnings.push(`variable '${name}' was not read: the HDF5 library failed earlier`);
        continue;
      }
      try {
        const entity = getEntity(ctx, `/${name}`);
        variables.set(name, readValue(ctx, entity, name, 0));
      } catch (e) {
        warnings.push(`variable '${name}' could not be read: ${errorText(e)}`);
      }
    }
  } finally {
    // A broken runtime is not called again; releaseLeakedFiles frees the file handle.
    if (!inst.broken) {
      try {
        guarded(inst, 'close', () => file.close());
      } catch {
        // Closing a damaged file can fail; releaseLeakedFiles still frees the handle.
      }
    }
    releaseLeakedFiles(inst, absPath);
  }
  return variables;
}

/**
 * HDF5 keeps a file open while any of its objects is (h5wasm leaks object ids when it throws
 * mid-call), and then holds a host file descriptor. Close such descriptors and retire the
 * instance, whose HDF5 file list would otherwise keep a stale entry for the file.
 */
function releaseLeakedFiles(inst: H5Instance, absPath: string): void {
  try {
    const streams = (inst.module.FS as unknown as { streams?: unknown[] }).streams ?? [];
    for (const s of streams) {
      if (!s || typeof s !== 'object') continue;
      const stream = s as { fd?: unknown; path?: unknown };
      if (typeof stream.fd !== 'number' || stream.fd <= 2 || stream.path !== absPath) continue;
      inst.broken = true;
      try {
        (inst.module.FS as unknown as { close(stream: unknown): void }).close(stream);
      } catch {
        // Best effort; the instance is retired either way.
      }
    }
  } catch {
    inst.broken = true;
  }
}

function getEntity(ctx: Ctx, h5path: string): H5Entity {
  const { inst, file } = ctx;
  const entity = guarded(inst, `open ${h5path}`, () => file.get(h5path));
  if (entity instanceof inst.api.Group || entity instanceof inst.api.Dataset) return entity;
  if (entity === null) throw new Damaged(`HDF5 object ${h5path} not found`);
  throw new Damaged(`HDF5 object ${h5path} is a link or named type, not a dataset or group`);
}

/** Names of the attributes of an HDF5 object. */
function attributeNames(ctx: Ctx, entity: H5Entity): Set<string> {
  const { inst } = ctx;
  const names = guarded(inst, `attributes of ${entity.path}`, () =>
    inst.module.get_attribute_names(entity.file_id, entity.path),
  );
  return new Set(Array.isArray(names) ? names.filter((n) => typeof n === 'string') : []);
}

/** Value of one attribute, after checking its size. */
function attribute(ctx: Ctx, entity: H5Entity, name: string): H5Output | null {
  const { inst } = ctx;
  return guarded(inst, `attribute ${name} of ${entity.path}`, () => {
    const attr = new inst.api.Attribute(entity.file_id, entity.path, name);
    const bytes = attr.metadata.size * attr.metadata.total_size;
    if (!(bytes >= 0 && bytes <= MAX_ATTRIBUTE_BYTES)) {
      throw new Error(`attribute claims ${bytes} bytes`);
    }
    return attr.value;
  });
}

/** A string attribute (MATLAB_class), or undefined when absent. */
function stringAttribute(
  ctx: Ctx,
  entity: H5Entity,
  names: Set<string>,
  name: string,
): string | undefined {
  if (!names.has(name)) return undefined;
  const v = attribute(ctx, entity, name);
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
  throw new Damaged(`attribute ${name} of ${entity.path} is not a string`);
}

/** A scalar numeric attribute (MATLAB_empty, MATLAB_sparse), or undefined when absent. */
function numberAttribute(
  ctx: Ctx,
  entity: H5Entity,
  names: Set<string>,
  name: string,
): number | undefined {
  if (!names.has(name)) return undefined;
  const v = attribute(ctx, entity, name);
  const n = scalarNumber(v);
  if (n === undefined) throw new Damaged(`attribute ${name} of ${entity.path} is not a number`);
  return n;
}

function scalarNumber(v: H5Output | null): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if ((ArrayBuffer.isView(v) || Array.isArray(v)) && v.length === 1) {
    return scalarNumber(v[0] as H5Output);
  }
  return undefined;
}

const NUMERIC_CLASSES: ReadonlySet<string> = new Set<NumericClass>([
  'double',
  'single',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
]);

/** MATLAB classes stored as MCOS objects (data in `#subsystem#`). */
const MCOS_CLASSES: ReadonlySet<string> = new Set([
  'string',
  'datetime',
  'duration',
  'calendarDuration',
  'table',
  'timetable',
  'categorical',
  'containers.Map',
]);

/** Reads one MATLAB value (variable, cell element or field) from an HDF5 object. */
function readValue(ctx: Ctx, entity: H5Entity, where: string, depth: number): MatValue {
  if (depth > MAX_DEPTH) throw new Damaged(`nested deeper than ${MAX_DEPTH} levels`);
  const key = entity.path;
  if (ctx.active.has(key)) throw new Damaged(`reference cycle through ${key}`);
  ctx.active.add(key);
  try {
    return readObject(ctx, entity, where, depth);
  } finally {
    ctx.active.delete(key);
  }
}

function readObject(ctx: Ctx, entity: H5Entity, where: string, depth: number): MatValue {
  const attrs = attributeNames(ctx, entity);
  const cls = stringAttribute(ctx, entity, attrs, 'MATLAB_class');
  const unsupported = (what: string): MatValue => {
    ctx.warnings.push(`'${where}' is not supported (${what})`);
    return { type: 'unsupported', what };
  };

  if (cls === 'function_handle') return unsupported('function handle');
  if (attrs.has('MATLAB_object_decode') || (cls !== undefined && MCOS_CLASSES.has(cls))) {
    return unsupported(`object (MCOS) of class '${cls ?? 'unknown'}'`);
  }

  if (entity instanceof ctx.inst.api.Group) {
    if (attrs.has('MATLAB_sparse')) return readSparse(ctx, entity, attrs, cls, where);
    if (cls === undefined || cls === 'struct') return readStruct(ctx, entity, attrs, where, depth);
    return unsupported(`object of class '${cls}'`);
  }

  const ds = entity as H5.Dataset;
  const meta = guarded(ctx.inst, `metadata of ${ds.path}`, () => ds.metadata);
  if (numberAttribute(ctx, ds, attrs, 'MATLAB_empty') === 1) {
    return readEmpty(ctx, ds, meta, attrs, cls, where);
  }
  if (cls === 'cell') return readCell(ctx, ds, meta, where, depth);
  if (cls === 'char') return readChar(ctx, ds, meta);
  if (cls === 'logical') return readNumeric(ctx, ds, meta, 'logical');
  if (cls !== undefined && NUMERIC_CLASSES.has(cls)) {
    return readNumeric(ctx, ds, meta, cls as NumericClass);
  }
  if (cls === 'canonical empty') return emptyNumeric([0, 0]);
  if (cls === 'struct') throw new Damaged('struct stored as a dataset but not marked empty');
  if (cls === undefined) {
    const inferred = classOfStorage(meta);
    if (inferred) {
      ctx.warnings.push(`'${where}' has no MATLAB_class; read as ${inferred} from its storage`);
      return readNumeric(ctx, ds, meta, inferred);
    }
    return unsupported('HDF5 dataset without MATLAB_class');
  }
  return unsupported(`MATLAB class '${cls}'`);
}

/** MATLAB dims of an HDF5 dataset: its shape reversed, at least two entries. */
function matlabDims(meta: H5.Metadata): number[] {
  const shape = meta.shape ?? [];
  const dims = [...shape].reverse();
  while (dims.length < 2) dims.push(1);
  return dims;
}

/**
 * Reads a dataset's value after checking that its size is plausible for the file: contiguous
 * data cannot exceed the file, compressed (chunked) data cannot exceed it by more than deflate
 * can expand.
 */
function readDatasetValue(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): H5Output | null {
  const elements = meta.total_size;
  const bytes = meta.size * elements;
  const limit = Math.min(
    MAX_DATASET_BYTES,
    meta.chunks ? ctx.fileSize * MAX_COMPRESSION_RATIO : ctx.fileSize + SIZE_SLACK_BYTES,
  );
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new Damaged(`dataset ${ds.path} has an invalid size`);
  }
  if (bytes > limit) {
    throw new Damaged(
      `dataset ${ds.path} claims ${bytes} bytes, implausible for a file of ${ctx.fileSize} bytes`,
    );
  }
  const dims = matlabDims(meta);
  if (numel(dims) !== elements) {
    throw new Damaged(`dataset ${ds.path}: dims ${dims.join('x')} do not match ${elements} values`);
  }
  if (bytes > ctx.budget) {
    throw new Damaged(`the datasets add up to more than the file can hold (at ${ds.path})`);
  }
  ctx.budget -= bytes;
  return guarded(ctx.inst, `read ${ds.path}`, () => ds.value);
}

/** Widens integer/float data to Float64Array (the buffer is reused when already float64). */
function toFloat64(data: H5Output | null, what: string): Float64Array {
  if (data instanceof Float64Array) return data;
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    const out = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
    return out;
  }
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) return Float64Array.from(data);
  const n = scalarNumber(data);
  if (n !== undefined) return Float64Array.of(n);
  throw new Damaged(`${what} is not numeric data`);
}

function isComplexType(meta: H5.Metadata): boolean {
  const members = meta.compound_type?.members ?? [];
  return members.some((m) => m.name === 'real') && members.some((m) => m.name === 'imag');
}

/** Splits complex compound rows ([real, imag] per element) into two arrays. */
function splitComplex(
  data: H5Output | null,
  meta: H5.Metadata,
  what: string,
): { re: Float64Array; im: Float64Array } {
  const members = meta.compound_type?.members ?? [];
  const ri = members.findIndex((m) => m.name === 'real');
  const ii = members.findIndex((m) => m.name === 'imag');
  const rows = Array.isArray(data) ? data : data === null ? [] : [data];
  const re = new Float64Array(rows.length);
  const im = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) throw new Damaged(`${what}: complex element is not a pair`);
    const r = scalarNumber(row[ri] ?? null);
    const m = scalarNumber(row[ii] ?? null);
    if (r === undefined || m === undefined) throw new Damaged(`${what}: bad complex element`);
    re[i] = r;
    im[i] = m;
  }
  return { re, im };
}

const INTEGER_TYPE = 0;
const FLOAT_TYPE = 1;
const COMPOUND_TYPE = 6;
const REFERENCE_TYPE = 7;

function readNumeric(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  cls: NumericClass | 'logical',
): MatNumeric {
  const dims = matlabDims(meta);
  const complex = meta.type === COMPOUND_TYPE && isComplexType(meta);
  if (!complex && meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`class ${cls} stored with an unexpected HDF5 type (${meta.type})`);
  }
  const data = readDatasetValue(ctx, ds, meta);
  if (complex) {
    const { re, im } = splitComplex(data, meta, ds.path);
    return { type: 'numeric', class: cls, dims, re, im };
  }
  const re = toFloat64(data, ds.path);
  if (re.length !== numel(dims)) throw new Damaged(`${ds.path}: short read`);
  return { type: 'numeric', class: cls, dims, re };
}

function emptyNumeric(dims: number[], cls: NumericClass | 'logical' = 'double'): MatNumeric {
  return { type: 'numeric', class: cls, dims, re: new Float64Array(0) };
}

function classOfStorage(meta: H5.Metadata): NumericClass | undefined {
  if (meta.type === FLOAT_TYPE) {
    return meta.size === 8 ? 'double' : meta.size === 4 ? 'single' : undefined;
  }
  if (meta.type !== INTEGER_TYPE) return undefined;
  const bits = meta.size * 8;
  if (![8, 16, 32, 64].includes(bits)) return undefined;
  return `${meta.signed ? 'int' : 'uint'}${bits}` as NumericClass;
}

/** `MATLAB_empty` = 1: the dataset holds the MATLAB dims (some 0), not data. */
function readEmpty(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  attrs: Set<string>,
  cls: string | undefined,
  where: string,
): MatValue {
  const raw = toFloat64(readDatasetValue(ctx, ds, meta), ds.path);
  let dims = Array.from(raw);
  if (dims.length < 2 || dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new Damaged(`empty array with invalid dims [${dims.join(', ')}]`);
  }
  if (numel(dims) !== 0) {
    ctx.warnings.push(`'${where}' is marked empty but its dims are ${dims.join('x')}; read as 0x0`);
    dims = [0, 0];
  }
  switch (cls) {
    case 'char':
      return { type: 'char', dims, text: '' } satisfies MatChar;
    case 'cell':
      return { type: 'cell', dims, items: [] } satisfies MatCell;
    case 'struct':
      return { type: 'struct', dims, fields: fieldNames(ctx, ds, attrs) ?? [], items: [] };
    case 'logical':
      return emptyNumeric(dims, 'logical');
    default:
      return emptyNumeric(
        dims,
        cls !== undefined && NUMERIC_CLASSES.has(cls) ? (cls as NumericClass) : 'double',
      );
  }
}

/** Element references of a cell or struct-array field dataset. */
function readReferences(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): H5.Reference[] {
  if (meta.type !== REFERENCE_TYPE || meta.ref_type !== 'object') {
    throw new Damaged(`${ds.path} should hold object references`);
  }
  const data = readDatasetValue(ctx, ds, meta);
  const refs = Array.isArray(data) ? data : data === null ? [] : [data];
  return refs.map((r) => {
    if (!(r instanceof ctx.inst.api.Reference)) throw new Damaged(`${ds.path}: bad reference`);
    return r;
  });
}

function dereference(ctx: Ctx, ref: H5.Reference, what: string): H5Entity {
  const target = guarded(ctx.inst, `dereference ${what}`, () => ctx.file.dereference(ref));
  if (target instanceof ctx.inst.api.Group || target instanceof ctx.inst.api.Dataset) {
    return target;
  }
  throw new Damaged(`${what}: reference to a missing object`);
}

function readCell(
  ctx: Ctx,
  ds: H5.Dataset,
  meta: H5.Metadata,
  where: string,
  depth: number,
): MatCell {
  const dims = matlabDims(meta);
  const refs = readReferences(ctx, ds, meta);
  const items = refs.map((ref, i) => {
    const name = `${where}{${i + 1}}`;
    return readValue(ctx, dereference(ctx, ref, name), name, depth + 1);
  });
  return { type: 'cell', dims, items };
}

function readChar(ctx: Ctx, ds: H5.Dataset, meta: H5.Metadata): MatChar {
  if (meta.type !== INTEGER_TYPE) throw new Damaged(`char stored with HDF5 type ${meta.type}`);
  const dims = matlabDims(meta);
  const data = readDatasetValue(ctx, ds, meta);
  const codes =
    typeof data === 'number'
      ? [data]
      : ArrayBuffer.isView(data) && !(data instanceof DataView)
        ? data
        : null;
  if (codes === null || codes.length !== numel(dims))
    throw new Damaged(`${ds.path}: bad char data`);
  let text = '';
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) {
    const part: number[] = [];
    const end = Math.min(codes.length, i + CHUNK);
    for (let j = i; j < end; j++) part.push(Number(codes[j]) & 0xffff);
    text += String.fromCharCode(...part);
  }
  return { type: 'char', dims, text };
}

/** Index arrays of a sparse group (ir, jc) as non-negative integers below 2^31. */
function readIndexArray(ctx: Ctx, group: H5.Group, member: string): Int32Array | undefined {
  const entity = guarded(ctx.inst, `open ${group.path}/${member}`, () => group.get(member));
  if (entity === null) return undefined;
  if (!(entity instanceof ctx.inst.api.Dataset)) {
    throw new Damaged(`sparse member ${member} is not a dataset`);
  }
  const meta = guarded(ctx.inst, `metadata of ${entity.path}`, () => entity.metadata);
  if (meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`sparse member ${member} is not numeric`);
  }
  const values = toFloat64(readDatasetValue(ctx, entity, meta), entity.path);
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) {
      throw new Damaged(`sparse ${member}[${i}] = ${v} is not a valid index`);
    }
    out[i] = v;
  }
  return out;
}

function readSparse(
  ctx: Ctx,
  group: H5.Group,
  attrs: Set<string>,
  cls: string | undefined,
  where: string,
): MatSparse {
  if (cls !== 'double' && cls !== 'logical') {
    throw new Damaged(`sparse array of class '${cls ?? 'unknown'}'`);
  }
  const rows = numberAttribute(ctx, group, attrs, 'MATLAB_sparse');
  if (rows === undefined || !Number.isInteger(rows) || rows < 0 || rows > 0x7fffffff) {
    throw new Damaged(`invalid MATLAB_sparse (rows) attribute`);
  }
  const jc = readIndexArray(ctx, group, 'jc');
  if (!jc || jc.length < 1) throw new Damaged('sparse array without column pointers (jc)');
  const cols = jc.length - 1;
  const nnz = jc[cols] as number;
  if (jc[0] !== 0) throw new Damaged('sparse jc[0] is not 0');
  for (let j = 0; j < cols; j++) {
    if ((jc[j + 1] as number) < (jc[j] as number)) throw new Damaged('sparse jc decreases');
  }
  const ir = readIndexArray(ctx, group, 'ir') ?? new Int32Array(0);
  if (ir.length !== nnz) {
    throw new Damaged(`sparse ir has ${ir.length} entries, jc says ${nnz}`);
  }
  for (let p = 0; p < nnz; p++) {
    if ((ir[p] as number) >= rows) throw new Damaged(`sparse row index ${ir[p]} >= ${rows} rows`);
  }
  const dims: [number, number] = [rows, cols];
  const dataEntity = guarded(ctx.inst, `open ${group.path}/data`, () => group.get('data'));
  if (dataEntity === null) {
    if (nnz !== 0) throw new Damaged(`sparse array with ${nnz} nonzeros has no data`);
    return { type: 'sparse', class: cls, dims, ir, jc, pr: new Float64Array(0) };
  }
  if (!(dataEntity instanceof ctx.inst.api.Dataset)) {
    throw new Damaged('sparse member data is not a dataset');
  }
  const meta = guarded(ctx.inst, `metadata of ${dataEntity.path}`, () => dataEntity.metadata);
  if (meta.total_size !== nnz) {
    throw new Damaged(`sparse data has ${meta.total_size} values, jc says ${nnz}`);
  }
  const raw = readDatasetValue(ctx, dataEntity, meta);
  if (meta.type === COMPOUND_TYPE && isComplexType(meta)) {
    const { re, im } = splitComplex(raw, meta, dataEntity.path);
    return { type: 'sparse', class: cls, dims, ir, jc, pr: re, pi: im };
  }
  if (meta.type !== INTEGER_TYPE && meta.type !== FLOAT_TYPE) {
    throw new Damaged(`sparse data has HDF5 type ${meta.type}`);
  }
  const pr = toFloat64(raw, dataEntity.path);
  if (pr.length !== nnz) throw new Damaged(`${where}: sparse data short read`);
  return { type: 'sparse', class: cls, dims, ir, jc, pr };
}

/**
 * Field names from `MATLAB_fields` (a vlen array of char arrays, h5wasm gives each name as an
 * array of one-character strings), or undefined when absent/unreadable.
 */
function fieldNames(ctx: Ctx, entity: H5Entity, attrs: Set<string>): string[] | undefined {
  if (!attrs.has('MATLAB_fields')) return undefined;
  let v: H5Output | null;
  try {
    v = attribute(ctx, entity, 'MATLAB_fields');
  } catch {
    return undefined;
  }
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') names.push(item);
    else if (Array.isArray(item) && item.every((c) => typeof c === 'string')) {
      names.push(item.join(''));
    } else return undefined;
  }
  return names;
}

function readStruct(
  ctx: Ctx,
  group: H5.Group,
  attrs: Set<string>,
  where: string,
  depth: number,
): MatStruct {
  const members = guarded(ctx.inst, `list ${group.path}`, () => group.keys());
  const listed = fieldNames(ctx, group, attrs);
  const fields = listed
    ? [...listed.filter((f) => members.includes(f)), ...members.filter((m) => !listed.includes(m))]
    : members;
  const missing = listed?.filter((f) => !members.includes(f)) ?? [];
  if (missing.length > 0) throw new Damaged(`struct fields missing: ${missing.join(', ')}`);

  const entities = new Map<string, H5Entity>();
  for (const f of fields) entities.set(f, getEntity(ctx, `${group.path}/${f}`));

  // A struct array stores each field as a dataset of references without MATLAB_class.
  const arrayFields = new Map<string, { dims: number[]; refs: H5.Reference[] }>();
  for (const [f, e] of entities) {
    if (!(e instanceof ctx.inst.api.Dataset)) continue;
    const meta = guarded(ctx.inst, `metadata of ${e.path}`, () => e.metadata);
    if (meta.type !== REFERENCE_TYPE) continue;
    if (attributeNames(ctx, e).has('MATLAB_class')) continue;
    arrayFields.set(f, { dims: matlabDims(meta), refs: readReferences(ctx, e, meta) });
  }

  if (arrayFields.size === 0) {
    const record: Record<string, MatValue> = {};
    for (const [f, e] of entities) record[f] = readValue(ctx, e, `${where}.${f}`, depth + 1);
    return { type: 'struct', dims: [1, 1], fields, items: [record] };
  }

  if (arrayFields.size !== fields.length) {
    throw new Damaged('struct array with fields of mixed layout');
  }
  const first = arrayFields.values().next().value;
  const dims = first ? first.dims : [0, 0];
  const n = numel(dims);
  for (const { dims: d, refs } of arrayFields.values()) {
    if (d.join('x') !== dims.join('x') || refs.length !== n) {
      throw new Damaged('struct array fields of different sizes');
    }
  }
  const items: Record<string, MatValue>[] = [];
  for (let i = 0; i < n; i++) {
    const record: Record<string, MatValue> = {};
    for (const [f, { refs }] of arrayFields) {
      const name = `${where}(${i + 1}).${f}`;
      record[f] = readValue(ctx, dereference(ctx, refs[i] as H5.Reference, name), name, depth + 1);
    }
    items.push(record);
  }
  return { type: 'struct', dims, fields, items };
}
