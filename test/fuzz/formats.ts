/**
 * Small writers for the fuzz corpus: MAT v5 elements (with the offset of every header field, so
 * a recipe can corrupt one by name), NPY 1.0 files and a raw zlib stream of a prefix followed by
 * many zero bytes (the building block of the decompression bombs). Test-only; the formats are
 * written from their specifications, not read back here.
 */
import { deflateRawSync, deflateSync } from 'node:zlib';

/** A MAT v5 value as the writer takes it; numeric data column-major. */
export type MatValue =
  | {
      readonly kind: 'double';
      readonly dims: readonly number[];
      readonly data: Float64Array;
      /** Storage type of the real part: 'double' (miDOUBLE) or narrowed to 'uint8' (miUINT8). */
      readonly storage?: 'double' | 'uint8';
    }
  | {
      readonly kind: 'sparse';
      readonly dims: readonly [number, number];
      readonly ir: Int32Array;
      readonly jc: Int32Array;
      readonly pr: Float64Array;
    }
  | { readonly kind: 'cell'; readonly dims: readonly number[]; readonly items: readonly MatValue[] }
  | { readonly kind: 'char'; readonly text: string };

/** An encoded element: its bytes, and `fields[name]` = byte offset of a 32-bit header field. */
export interface Encoded {
  readonly bytes: Uint8Array;
  readonly fields: Readonly<Record<string, number>>;
}

const MI = { INT8: 1, UINT8: 2, INT32: 5, UINT32: 6, DOUBLE: 9, MATRIX: 14, COMPRESSED: 15 };
const MX = { CELL: 1, CHAR: 4, SPARSE: 5, DOUBLE: 6 };

/** The 128-byte MAT v5 file header, little-endian ('IM'). */
export function matHeader(
  text = 'MATLAB 5.0 MAT-file, written by the mvstudio fuzz corpus',
): Uint8Array {
  const h = new Uint8Array(128).fill(0x20);
  h.set(new TextEncoder().encode(text.slice(0, 116)));
  h.fill(0, 116, 124); // no subsystem data
  h[124] = 0x00;
  h[125] = 0x01; // version 0x0100
  h[126] = 0x49; // 'I'
  h[127] = 0x4d; // 'M'
  return h;
}

class Builder {
  readonly parts: Uint8Array[] = [];
  readonly fields: Record<string, number> = {};
  length = 0;

  push(b: Uint8Array): void {
    this.parts.push(b);
    this.length += b.length;
  }

  u32(name: string | null, ...xs: number[]): void {
    const b = new Uint8Array(xs.length * 4);
    const v = new DataView(b.buffer);
    xs.forEach((x, i) => v.setUint32(i * 4, x >>> 0, true));
    if (name !== null) this.fields[name] = this.length;
    this.push(b);
  }

  /** A data element: tag (type, nbytes) then the bytes, padded to 8. */
  element(prefix: string, type: number, data: Uint8Array): void {
    this.fields[`${prefix}.type`] = this.length;
    this.fields[`${prefix}.nbytes`] = this.length + 4;
    this.u32(null, type, data.length);
    this.push(data);
    const pad = (8 - (data.length % 8)) % 8;
    if (pad > 0) this.push(new Uint8Array(pad));
  }

  nest(prefix: string, inner: Encoded): void {
    for (const [k, off] of Object.entries(inner.fields))
      this.fields[`${prefix}${k}`] = this.length + off;
    this.push(inner.bytes);
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

function int32Bytes(xs: readonly number[] | Int32Array): Uint8Array {
  const b = new Uint8Array(xs.length * 4);
  const v = new DataView(b.buffer);
  Array.from(xs).forEach((x, i) => v.setInt32(i * 4, x, true));
  return b;
}

function f64Bytes(a: Float64Array): Uint8Array {
  return new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));
}

/** One miMATRIX element named `name` (empty inside a cell). */
export function matrixElement(name: string, value: MatValue): Encoded {
  const body = new Builder();
  const flags = (cls: number, nzmax = 0): void => {
    body.fields['flags.type'] = body.length;
    body.u32(null, MI.UINT32, 8);
    body.fields['flags.class'] = body.length;
    body.u32(null, cls);
    body.u32('flags.nzmax', nzmax);
  };
  const dims = (d: readonly number[]): void => {
    body.fields['dims.type'] = body.length;
    body.fields['dims.nbytes'] = body.length + 4;
    body.u32(null, MI.INT32, d.length * 4);
    d.forEach((x, i) => body.u32(`dims.${i}`, x));
    if (d.length % 2 === 1) body.push(new Uint8Array(4));
  };
  const nameBytes = new TextEncoder().encode(name);
  const writeName = (): void => body.element('name', MI.INT8, nameBytes);
  switch (value.kind) {
    case 'double': {
      flags(MX.DOUBLE);
      dims(value.dims);
      writeName();
      if (value.storage === 'uint8') body.element('real', MI.UINT8, Uint8Array.from(value.data));
      else body.element('real', MI.DOUBLE, f64Bytes(value.data));
      break;
    }
    case 'sparse': {
      flags(MX.SPARSE, value.pr.length);
      dims(value.dims);
      writeName();
      body.element('ir', MI.INT32, int32Bytes(value.ir));
      body.element('jc', MI.INT32, int32Bytes(value.jc));
      body.element('real', MI.DOUBLE, f64Bytes(value.pr));
      break;
    }
    case 'cell': {
      flags(MX.CELL);
      dims(value.dims);
      writeName();
      value.items.forEach((item, i) => body.nest(`cell${i}.`, matrixElement('', item)));
      break;
    }
    case 'char': {
      flags(MX.CHAR);
      dims([1, value.text.length]);
      writeName();
      const u16 = new Uint8Array(value.text.length * 2);
      for (let i = 0; i < value.text.length; i++) u16[2 * i] = value.text.charCodeAt(i) & 0xff;
      body.element('real', 4 /* miUINT16 */, u16);
      break;
    }
  }
  const out = new Builder();
  out.u32('matrix.type', MI.MATRIX);
  out.u32('matrix.nbytes', body.length);
  out.nest('', { bytes: body.bytes(), fields: body.fields });
  return { bytes: out.bytes(), fields: out.fields };
}

/** Wraps an element in miCOMPRESSED (zlib). */
export function compressElement(el: Uint8Array): Uint8Array {
  return compressedTag(deflateSync(el));
}

/** A miCOMPRESSED tag around an already-made zlib stream. */
export function compressedTag(z: Uint8Array): Uint8Array {
  const b = new Uint8Array(8 + z.length);
  const v = new DataView(b.buffer);
  v.setUint32(0, MI.COMPRESSED, true);
  v.setUint32(4, z.length, true);
  b.set(z, 8);
  return b;
}

/** A whole MAT v5 file of named variables, each compressed or not. */
export function matFile(
  vars: readonly (readonly [string, MatValue])[],
  compress: boolean,
): Uint8Array {
  const parts: Uint8Array[] = [matHeader()];
  for (const [name, v] of vars) {
    const el = matrixElement(name, v).bytes;
    parts.push(compress ? compressElement(el) : el);
  }
  return Buffer.concat(parts);
}

const zeroBlocks = new Map<number, Uint8Array>();

/** Raw deflate of `n` zero bytes, computed once per size (a few ms per MiB). */
function zeroDeflate(n: number): Uint8Array {
  let z = zeroBlocks.get(n);
  if (z === undefined) {
    z = deflateRawSync(Buffer.alloc(n), { level: 9 });
    zeroBlocks.set(n, z);
  }
  return z;
}

/**
 * A zlib stream inflating to `prefix` followed by `zeros` zero bytes, built without deflating
 * the prefix: a stored block for the prefix, the cached deflate of the zeros, and the Adler-32
 * of the whole, so many variables with different names share one compressed run of zeros.
 */
export function zlibPrefixZeros(prefix: Uint8Array, zeros: number): Uint8Array {
  if (prefix.length > 0xffff) throw new Error('zlibPrefixZeros: prefix over 64 KiB');
  const stored = new Uint8Array(5 + prefix.length);
  stored[0] = 0x00; // BFINAL 0, BTYPE 00 (stored), padded to the byte
  const sv = new DataView(stored.buffer);
  sv.setUint16(1, prefix.length, true);
  sv.setUint16(3, ~prefix.length & 0xffff, true);
  stored.set(prefix, 5);
  let a = 1;
  let b = 0;
  for (const x of prefix) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + (zeros % 65521) * a) % 65521; // zero bytes leave a alone and add a to b each
  const adler = new Uint8Array(4);
  new DataView(adler.buffer).setUint32(0, ((b << 16) | a) >>> 0, false);
  return Buffer.concat([Uint8Array.of(0x78, 0xda), stored, zeroDeflate(zeros), adler]);
}

/** Raw deflate (ZIP method 8) of `n` zero bytes after `prefix`, as one stream. */
export function rawDeflatePrefixZeros(prefix: Uint8Array, zeros: number): Uint8Array {
  const stored = new Uint8Array(5 + prefix.length);
  const sv = new DataView(stored.buffer);
  sv.setUint16(1, prefix.length, true);
  sv.setUint16(3, ~prefix.length & 0xffff, true);
  stored.set(prefix, 5);
  return Buffer.concat([stored, zeroDeflate(zeros)]);
}

/** An NPY 1.0 file: header text as given (padded to 64), then `data` as is. */
export function npyFile(dict: string, data: Uint8Array, version: 1 | 2 | 3 = 1): Uint8Array {
  const lenBytes = version === 1 ? 2 : 4;
  const unpadded = 8 + lenBytes + dict.length + 1;
  const text = dict + ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const head = new Uint8Array(8 + lenBytes + text.length);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0], 0);
  const v = new DataView(head.buffer);
  if (version === 1) v.setUint16(8, text.length, true);
  else v.setUint32(8, text.length, true);
  for (let i = 0; i < text.length; i++) head[8 + lenBytes + i] = text.charCodeAt(i) & 0xff;
  return Buffer.concat([head, data]);
}

/** The NPY dict numpy writes for a C-order array. */
export function npyDict(descr: string, shape: readonly number[]): string {
  const s = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  return `{'descr': '${descr}', 'fortran_order': False, 'shape': ${s}, }`;
}

export { f64Bytes };
