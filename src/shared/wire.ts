/**
 * Typed arrays in JSON. Over Electron IPC and the worker channels typed arrays cross as they
 * are (structured clone); the web host's JSON carries each as a tagged object
 * `{ "$typed": "Float32Array", "base64": "<its bytes, little-endian>" }`, written by
 * `wireReplacer` (serve's `sendEnvelope`) and read back by `wireReviver` (the renderer's
 * `post()`). A 10^6-sample result is then a few MB of base64, not tens of MB of decimal text.
 *
 * No Node built-ins (shared runs in the renderer too): base64 is done here, with the
 * platform's `Uint8Array.fromBase64` / `toBase64` where it has them.
 */

/** The typed arrays that cross: what the contract's types use. */
export const TYPED = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
} as const;

export type TypedName = keyof typeof TYPED;

/** A typed array as JSON carries it. */
export interface TaggedTypedArray {
  readonly $typed: TypedName;
  readonly base64: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ENCODE[i]!] = i;

interface NativeBase64 {
  toBase64?: (this: Uint8Array) => string;
}
interface NativeFromBase64 {
  fromBase64?: (s: string) => Uint8Array;
}

/** Standard base64 (with padding) of some bytes. */
export function toBase64(bytes: Uint8Array): string {
  const native = (bytes as unknown as NativeBase64).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  const n = bytes.length;
  const out = new Uint8Array(4 * Math.ceil(n / 3));
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const t = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[t >> 18]!;
    out[o++] = ENCODE[(t >> 12) & 63]!;
    out[o++] = ENCODE[(t >> 6) & 63]!;
    out[o++] = ENCODE[t & 63]!;
  }
  if (i < n) {
    const t = (bytes[i]! << 16) | ((i + 1 < n ? bytes[i + 1]! : 0) << 8);
    out[o++] = ENCODE[t >> 18]!;
    out[o++] = ENCODE[(t >> 12) & 63]!;
    out[o++] = i + 1 < n ? ENCODE[(t >> 6) & 63]! : 61;
    out[o] = 61;
  }
  // The output is ASCII, which latin1 decodes one byte to one character, natively.
  return new TextDecoder('latin1').decode(out);
}

/** The bytes of standard base64 (padding optional); throws on any other character. */
export function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as NativeFromBase64).fromBase64;
  if (typeof native === 'function') return native(text);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (text.length - end > 2 || end % 4 === 1) throw new SyntaxError('base64: bad length');
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const v = DECODE[text.charCodeAt(i) & 255]!;
    if (v < 0 || text.charCodeAt(i) > 255) {
      throw new SyntaxError(`base64: unexpected character at ${i}`);
    }
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out;
}

/** The typed array's constructor name among TYPED, or null (a DataView, a BigInt64Array). */
export function typedName(value: ArrayBufferView): TypedName | null {
  for (const name of Object.keys(TYPED) as TypedName[]) {
    if (value instanceof TYPED[name]) return name;
  }
  return null;
}

/** A base64 encoder: this module's `toBase64`, or a host's native one (Node's Buffer). */
export type Base64Encoder = (bytes: Uint8Array) => string;

/** A `JSON.stringify` replacer writing typed arrays as tagged base64 by `encode`. */
function replacerWith(encode: Base64Encoder): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (!ArrayBuffer.isView(value)) return value;
    const name = typedName(value);
    if (name === null) return value;
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    const tagged: TaggedTypedArray = { $typed: name, base64: encode(bytes) };
    return tagged;
  };
}

/** `JSON.stringify`'s replacer: typed arrays as tagged base64, everything else as it is. */
export const wireReplacer: (key: string, value: unknown) => unknown = replacerWith((bytes) =>
  toBase64(bytes),
);

/**
 * `JSON.parse`'s reviver: tagged objects back into typed arrays. A tag naming no known type,
 * or bytes that are not a whole number of elements, throws a TypeError saying which.
 */
export function wireReviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('$typed' in value)) return value;
  const { $typed: name, base64 } = value as { $typed: unknown; base64: unknown };
  if (typeof name !== 'string' || !Object.hasOwn(TYPED, name) || typeof base64 !== 'string') {
    throw new TypeError(
      `wire: '$typed' must name a typed array and carry base64, got ${String(name)}`,
    );
  }
  const Ctor = TYPED[name as TypedName];
  const bytes = fromBase64(base64);
  if (bytes.byteLength % Ctor.BYTES_PER_ELEMENT !== 0) {
    throw new TypeError(
      `wire: ${name} of ${bytes.byteLength} bytes is not a whole number of ${Ctor.BYTES_PER_ELEMENT}-byte elements`,
    );
  }
  // A fresh buffer of its own, aligned for the element size.
  return new Ctor(
    bytes.buffer as ArrayBuffer,
    bytes.byteOffset,
    bytes.byteLength / Ctor.BYTES_PER_ELEMENT,
  );
}

/**
 * A value as the web host's JSON: typed arrays tagged, as `wireReplacer` writes them. The
 * base64 texts are spliced into a skeleton instead of going through JSON.stringify, which
 * would scan megabytes of text that need no escaping. Each call marks its slots with a fresh
 * random token; should the data hold that token after all, the plain replacer is used.
 */
export function toWireJson(value: unknown, encode: Base64Encoder = toBase64): string {
  const placeholder = `\u0000wire:${Math.random().toString(36).slice(2)}`;
  const slot = `"base64":${JSON.stringify(placeholder)}`;
  const blobs: string[] = [];
  const skeleton = JSON.stringify(value, (_key: string, v: unknown): unknown => {
    if (!ArrayBuffer.isView(v)) return v;
    const name = typedName(v);
    if (name === null) return v;
    blobs.push(encode(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
    return { $typed: name, base64: placeholder };
  });
  if (blobs.length === 0) return skeleton;
  const parts = skeleton.split(slot);
  if (parts.length !== blobs.length + 1) return JSON.stringify(value, replacerWith(encode));
  const out: string[] = [parts[0]!];
  for (let i = 0; i < blobs.length; i++) out.push('"base64":"', blobs[i]!, '"', parts[i + 1]!);
  return out.join('');
}

/** The value of `toWireJson`'s text. */
export function fromWireJson(text: string): unknown {
  return JSON.parse(text, wireReviver);
}
