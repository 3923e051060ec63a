/**
 * Writes NumPy .npz archives: a ZIP of .npy files, stored (no compression), as numpy.savez
 * does. Read back by `readNpz` here and by numpy.load.
 *
 * Each member is NPY format 1.0: the magic "\x93NUMPY", version 1.0, a little-endian uint16
 * header length, the header dict `{'descr': '<f8', 'fortran_order': False, 'shape': (r, c), }`
 * padded with spaces and a final newline so the data starts at a multiple of 64 bytes, then
 * the values in C (row-major) order, little-endian. The ZIP has one local header per member,
 * a central directory and its end record; CRC-32 from node:zlib. No ZIP64: each member and
 * the whole archive must stay under 4 GiB (an error says so otherwise).
 *
 * The archive is written sequentially to a temporary file and renamed (io/atomic.ts).
 */
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { writeFileAtomicWith } from './atomic';

/** One array of the archive: `name` becomes `name.npy`. */
export interface NpzMember {
  readonly name: string;
  /** Row-major shape; its product must equal data.length. */
  readonly shape: readonly number[];
  readonly data: Float64Array | Int32Array;
}

const ZIP_LIMIT = 0xffffffff;

function npyHeader(m: NpzMember): Uint8Array {
  const descr = m.data instanceof Float64Array ? '<f8' : '<i4';
  const shape = m.shape.length === 1 ? `(${m.shape[0]},)` : `(${m.shape.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const unpadded = 10 + dict.length + 1;
  dict += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + dict.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0); // \x93NUMPY v1.0
  new DataView(out.buffer).setUint16(8, dict.length, true);
  for (let i = 0; i < dict.length; i++) out[10 + i] = dict.charCodeAt(i);
  return out;
}

function bytesOf(a: Float64Array | Int32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Writes `members` to `path` as an .npz archive, atomically. */
export async function writeNpz(path: string, members: readonly NpzMember[]): Promise<void> {
  if (endianness() !== 'LE') throw new Error('writeNpz: a little-endian machine is required');
  const names = new Set<string>();
  for (const m of members) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(m.name) || names.has(m.name)) {
      throw new Error(`writeNpz: bad or repeated array name '${m.name}'`);
    }
    names.add(m.name);
    if (m.shape.reduce((a, b) => a * b, 1) !== m.data.length) {
      throw new Error(`writeNpz: '${m.name}' has ${m.data.length} values, not shape ${m.shape}`);
    }
  }
  await writeFileAtomicWith(path, async (fh) => {
    const central: Uint8Array[] = [];
    let offset = 0;
    const write = async (b: Uint8Array): Promise<void> => {
      await fh.write(b);
      offset += b.length;
    };
    for (const m of members) {
      const header = npyHeader(m);
      const body = bytesOf(m.data);
      const size = header.length + body.length;
      if (size > ZIP_LIMIT || offset + size > ZIP_LIMIT) {
        throw new Error(`writeNpz: the archive would exceed 4 GiB at '${m.name}' (no ZIP64)`);
      }
      // (node:zlib's crc32 returns 0 for an empty view of an empty Float64Array's buffer,
      // ignoring the running value: skip empty bodies.)
      const crc = body.length > 0 ? crc32(body, crc32(header)) : crc32(header);
      const fname = new TextEncoder().encode(`${m.name}.npy`);
      const local = new Uint8Array(30 + fname.length);
      const lv = new DataView(local.buffer);
      lv.setUint32(0, 0x04034b50, true); // local file header signature
      lv.setUint16(4, 20, true); // version needed: 2.0
      lv.setUint16(6, 0, true); // flags
      lv.setUint16(8, 0, true); // method: stored
      lv.setUint16(10, 0, true); // time
      lv.setUint16(12, 0x21, true); // date: 1980-01-01
      lv.setUint32(14, crc, true);
      lv.setUint32(18, size, true); // compressed size
      lv.setUint32(22, size, true); // uncompressed size
      lv.setUint16(26, fname.length, true);
      lv.setUint16(28, 0, true); // extra length
      local.set(fname, 30);
      const cd = new Uint8Array(46 + fname.length);
      const cv = new DataView(cd.buffer);
      cv.setUint32(0, 0x02014b50, true); // central directory signature
      cv.setUint16(4, 20, true); // version made by
      cv.setUint16(6, 20, true); // version needed
      cv.setUint16(12, 0, true);
      cv.setUint16(14, 0x21, true);
      cv.setUint32(16, crc, true);
      cv.setUint32(20, size, true);
      cv.setUint32(24, size, true);
      cv.setUint16(28, fname.length, true);
      cv.setUint32(42, offset, true); // local header offset
      cd.set(fname, 46);
      central.push(cd);
      await write(local);
      await write(header);
      // Large arrays go in slices: one write call per 64 MiB.
      for (let o = 0; o < body.length; o += 1 << 26) {
        await write(body.subarray(o, Math.min(body.length, o + (1 << 26))));
      }
    }
    const cdStart = offset;
    for (const cd of central) await write(cd);
    const end = new Uint8Array(22);
    const ev = new DataView(end.buffer);
    ev.setUint32(0, 0x06054b50, true);
    ev.setUint16(8, central.length, true);
    ev.setUint16(10, central.length, true);
    ev.setUint32(12, offset - cdStart, true);
    ev.setUint32(16, cdStart, true);
    await write(end);
  });
}
