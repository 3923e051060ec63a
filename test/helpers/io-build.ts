/**
 * Tiny builders of MAT v5, NPY and ZIP (NPZ) bytes for the robustness tests: little-endian,
 * from scratch, so that bombs and absurd declarations are made in the test, never committed.
 */
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/** The 128-byte MAT v5 header of a little-endian file. */
export function matHeader(): Buffer {
  const h = Buffer.alloc(128, 0x20);
  h.write('MATLAB 5.0 MAT-file, Multiview Studio robustness test');
  h.writeUInt16LE(0x0100, 124);
  h.write('IM', 126, 'latin1');
  return h;
}

/** A data element: 8-byte tag, data, zero padding to 8 bytes. */
export function element(type: number, data: Buffer): Buffer {
  const tag = Buffer.alloc(8);
  tag.writeUInt32LE(type, 0);
  tag.writeUInt32LE(data.length, 4);
  const pad = Buffer.alloc((8 - (data.length % 8)) % 8);
  return Buffer.concat([tag, data, pad]);
}

export function int32s(xs: readonly number[]): Buffer {
  const b = Buffer.alloc(4 * xs.length);
  xs.forEach((x, i) => b.writeInt32LE(x, 4 * i));
  return b;
}

export function doubles(xs: readonly number[]): Buffer {
  const b = Buffer.alloc(8 * xs.length);
  xs.forEach((x, i) => b.writeDoubleLE(x, 8 * i));
  return b;
}

/** MAT array classes and storage types used by the tests. */
export const mx = { cell: 1, sparse: 5, double: 6 } as const;
export const mi = { int8: 1, uint8: 2, int32: 5, uint32: 6, double: 9, matrix: 14 } as const;

/**
 * An miMATRIX variable: array flags (class, complex bit), dims, name, then `parts` (already
 * framed elements: real part, imaginary part, sparse ir/jc/pr, cell items).
 */
export function matrix(
  cls: number,
  dims: readonly number[],
  name: string,
  parts: readonly Buffer[],
  complex = false,
): Buffer {
  const flags = Buffer.alloc(8);
  flags.writeUInt32LE(cls | (complex ? 0x0800 : 0), 0);
  return element(
    mi.matrix,
    Buffer.concat([
      element(mi.uint32, flags),
      element(mi.int32, int32s(dims)),
      element(mi.int8, Buffer.from(name, 'latin1')),
      ...parts,
    ]),
  );
}

/** A real double matrix with its values (column-major). */
export function doubleMatrix(name: string, dims: readonly number[], values: readonly number[]) {
  return matrix(mx.double, dims, name, [element(mi.double, doubles(values))]);
}

/** An miCOMPRESSED element wrapping one framed variable. */
export function compressed(variable: Buffer): Buffer {
  const z = deflateSync(variable);
  const tag = Buffer.alloc(8);
  tag.writeUInt32LE(15, 0);
  tag.writeUInt32LE(z.length, 4);
  return Buffer.concat([tag, z]);
}

/** A whole MAT v5 file of the given top-level elements. */
export function matFile(elements: readonly Buffer[]): Buffer {
  return Buffer.concat([matHeader(), ...elements]);
}

/** An NPY 1.0 array: header dict padded to 64 bytes, then `data` as given. */
export function npy(descr: string, shape: readonly number[], data: Buffer, fortran = false) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  const total = 10 + dict.length + 1;
  dict += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(dict.length, 8);
  return Buffer.concat([head, Buffer.from(dict, 'latin1'), data]);
}

export interface ZipMember {
  name: string;
  data: Buffer;
  /** Deflate the member (method 8) instead of storing it. */
  deflate?: boolean;
}

/**
 * A ZIP archive. `directory` lists, per central-directory entry, the index of the member it
 * points at (default: one entry per member), so that tests can point several at one member;
 * `declaredEntries` overrides the count in the end record.
 */
export function zip(
  members: readonly ZipMember[],
  directory?: readonly number[],
  declaredEntries?: number,
): Buffer {
  const locals: Buffer[] = [];
  const info: { offset: number; crc: number; size: number; csize: number; method: number }[] = [];
  let offset = 0;
  for (const m of members) {
    const body = m.deflate ? deflateRawSync(m.data) : m.data;
    const method = m.deflate ? 8 : 0;
    const crc = crc32(m.data) >>> 0;
    const name = Buffer.from(m.name, 'latin1');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(method, 8);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(body.length, 18);
    h.writeUInt32LE(m.data.length, 22);
    h.writeUInt16LE(name.length, 26);
    locals.push(h, name, body);
    info.push({ offset, crc, size: m.data.length, csize: body.length, method });
    offset += 30 + name.length + body.length;
  }
  const central: Buffer[] = [];
  for (const k of directory ?? members.map((_, i) => i)) {
    const m = members[k]!;
    const f = info[k]!;
    const name = Buffer.from(m.name, 'latin1');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(f.method, 10);
    c.writeUInt32LE(f.crc, 16);
    c.writeUInt32LE(f.csize, 20);
    c.writeUInt32LE(f.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(f.offset, 42);
    central.push(c, name);
  }
  const cd = Buffer.concat(central);
  const entries = declaredEntries ?? (directory ?? members).length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
