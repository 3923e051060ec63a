/**
 * The h5wasm guard: everything the MAT v7.3 reader (`./v73.ts`) needs to call the HDF5 library
 * safely on a hostile file. It loads the h5wasm module, runs each call under `guarded()`, retires
 * an instance that a WASM failure may have corrupted, and bounds what a file's datasets may
 * make the library allocate (`DatasetBudget`). It knows nothing of MATLAB's layout.
 *
 * h5wasm does not check most HDF5 status codes: a failed read returns whatever was in the
 * buffer, and the HDF5 library reports the failure only by printing its error stack to stderr.
 * `guarded()` therefore captures what the WASM runtime writes to stderr during the
 * (synchronous) call and turns it, or anything thrown, into an `H5CallError`. (h5wasm's own
 * "throwing error handler" is not used: it leaks one host file descriptor per error.)
 *
 * WASM runtime failures (traps, aborts) may leave the HDF5 library in an undefined state. The
 * instance is then discarded and the next read loads a fresh h5wasm module instance: ESM modules
 * cannot be unloaded, but importing h5wasm's entry file under a new URL (`?instance=N`) evaluates
 * it again and instantiates a new WASM module. A discarded instance stays in the module cache
 * (its heap is not reclaimed), so this is reserved for the rare fatal case. The same happens
 * when HDF5 leaves the file open after closing it (leaked object ids): its host file
 * descriptors are closed and the instance replaced.
 */
import fs from 'node:fs';
import type * as H5 from 'h5wasm/node';

export type H5Api = typeof H5;
type H5Module = Awaited<H5Api['ready']>;

/** No single dataset may decode to more bytes than this (h5wasm's heap is capped at 2 GiB). */
const MAX_DATASET_BYTES = 1 << 30;
/** Upper bound of the deflate expansion ratio (~1032:1) with some slack; bounds chunked data. */
const MAX_COMPRESSION_RATIO = 1100;
/** Slack for contiguous/compact datasets vs. file size (headers, fill values of tiny datasets). */
const SIZE_SLACK_BYTES = 64 * 1024;
/** Attributes are tiny in MAT files; anything larger is damage. */
const MAX_ATTRIBUTE_BYTES = 1 << 20;

// ---------------------------------------------------------------------------------------------
// h5wasm instances

export interface H5Instance {
  readonly api: H5Api;
  readonly module: H5Module;
  /** Set after a WASM runtime failure or leaked file handles: the instance is not reused. */
  broken: boolean;
}

let current: Promise<H5Instance> | null = null;
let generations = 0;

/** The h5wasm instance to use, loading a fresh one if the last one broke. */
export async function getInstance(): Promise<H5Instance> {
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
export class H5CallError extends Error {
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
export function guarded<T>(inst: H5Instance, what: string, call: () => T): T {
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
export function errorText(e: unknown): string {
  if (e instanceof Error) return oneLine(e.message || e.name, 400);
  if (typeof e === 'string') return oneLine(e, 400);
  try {
    return oneLine(String(e), 400);
  } catch {
    return 'unknown error';
  }
}

/**
 * HDF5 keeps a file open while any of its objects is (h5wasm leaks object ids when it throws
 * mid-call), and then holds a host file descriptor. Close such descriptors and retire the
 * instance, whose HDF5 file list would otherwise keep a stale entry for the file.
 */
export function releaseLeakedFiles(inst: H5Instance, absPath: string): void {
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

// ---------------------------------------------------------------------------------------------
// What a file may make the library allocate

/** A damaged variable (or element): the reason, for the warning. */
export class Damaged extends Error {
  override name = 'Damaged';
}

/**
 * Bytes a file's datasets may still decode to. An intact file decodes each stored byte once, so
 * its total is bounded like a single dataset's; damaged files that reference the same large
 * dataset again and again run out of it.
 */
export class DatasetBudget {
  private remaining: number;

  constructor(readonly fileSize: number) {
    this.remaining = fileSize * MAX_COMPRESSION_RATIO + SIZE_SLACK_BYTES;
  }

  /**
   * The bytes a dataset (`meta`) decodes to, after checking they are plausible for the file:
   * contiguous data cannot exceed the file, compressed (chunked) data cannot exceed it by more
   * than deflate can expand. Charges nothing (see `charge`).
   */
  plausibleBytes(path: string, meta: H5.Metadata): number {
    const bytes = meta.size * meta.total_size;
    const limit = Math.min(
      MAX_DATASET_BYTES,
      meta.chunks ? this.fileSize * MAX_COMPRESSION_RATIO : this.fileSize + SIZE_SLACK_BYTES,
    );
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new Damaged(`dataset ${path} has an invalid size`);
    }
    if (bytes > limit) {
      throw new Damaged(
        `dataset ${path} claims ${bytes} bytes, implausible for a file of ${this.fileSize} bytes`,
      );
    }
    return bytes;
  }

  /** Takes `bytes` (from `plausibleBytes`) off the budget, or refuses them all. */
  charge(path: string, bytes: number): void {
    if (bytes > this.remaining) {
      throw new Damaged(`the datasets add up to more than the file can hold (at ${path})`);
    }
    this.remaining -= bytes;
  }
}

/** Refuses an attribute larger than any MAT file writes (thrown inside `guarded()`). */
export function checkAttributeBytes(bytes: number): void {
  if (!(bytes >= 0 && bytes <= MAX_ATTRIBUTE_BYTES)) {
    throw new Error(`attribute claims ${bytes} bytes`);
  }
}
