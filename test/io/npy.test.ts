/**
 * NPY and NPZ: every dtype and both orders from a small writer here, real numpy files from
 * test/fixtures/npy (make.py), .npy view datasets, errors, and a damage loop: truncated and
 * byte-flipped files either read or throw DataError, never anything else.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { DataError } from '../../src/io/errors';
import { loadNpyDataset, parseNpy } from '../../src/io/npy';
import { parseNpz, readNpz } from '../../src/io/npz';
import type { MatCell, MatNumeric } from '../../src/io/mat/types';
import { prng } from '../helpers/prng';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/npy');
const dir = mkdtempSync(join(tmpdir(), 'mvs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------------------
// Helpers: an NPY writer, a ZIP writer, a PRNG

/** Row-major (C) values of `shape` to column-major (F) order. */
function cToF(values: readonly number[], shape: readonly number[]): number[] {
  if (shape.length < 2) return [...values];
  const strides = shape.map((_, a) => shape.slice(a + 1).reduce((p, d) => p * d, 1));
  const out = new Array<number>(values.length);
  const index = new Array<number>(shape.length).fill(0);
  for (let f = 0; f < values.length; f++) {
    out[f] = values[index.reduce((p, i, a) => p + i * strides[a]!, 0)]!;
    for (let a = 0; a < shape.length; a++) {
      if (++index[a]! < shape[a]!) break;
      index[a] = 0;
    }
  }
  return out;
}

function halfBits(x: number): number {
  // Exact for the values used here (small dyadic rationals, ±Infinity, NaN).
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  const e = Math.floor(Math.log2(a));
  return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}

interface NpyOptions {
  fortran?: boolean;
  version?: 1 | 2 | 3;
  /** Replaces the whole header dict. */
  header?: string;
}

/** An .npy file of `values` (given in C order) with the given dtype and shape. */
function npy(
  dtype: string,
  shape: number[],
  values: readonly number[],
  o: NpyOptions = {},
): Uint8Array {
  const version = o.version ?? 1;
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict =
    o.header ??
    `{'descr': '${dtype}', 'fortran_order': ${o.fortran ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  const prefix = version === 1 ? 10 : 12;
  while ((prefix + dict.length + 1) % 64 !== 0) dict += ' ';
  dict += '\n';
  const header = new TextEncoder().encode(dict);
  const m = /^([<>|])([a-z])(\d+)$/.exec(dtype)!;
  const le = m[1] !== '>';
  const key = `${m[2]}${m[3]}`;
  const size = Number(m[3]);
  const ordered = o.fortran ? cToF(values, shape) : values;
  const out = new Uint8Array(prefix + header.length + ordered.length * size);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(header, prefix);
  const base = prefix + header.length;
  ordered.forEach((x, k) => {
    const at = base + k * size;
    switch (key) {
      case 'f2':
        return view.setUint16(at, halfBits(x), le);
      case 'f4':
        return view.setFloat32(at, x, le);
      case 'f8':
        return view.setFloat64(at, x, le);
      case 'i1':
        return view.setInt8(at, x);
      case 'i2':
        return view.setInt16(at, x, le);
      case 'i4':
        return view.setInt32(at, x, le);
      case 'i8':
        return view.setBigInt64(at, BigInt(x), le);
      case 'u1':
      case 'b1':
        return view.setUint8(at, x);
      case 'u2':
        return view.setUint16(at, x, le);
      case 'u4':
        return view.setUint32(at, x, le);
      case 'u8':
        return view.setBigUint64(at, BigInt(x), le);
      default:
        throw new Error(`writer: dtype ${dtype}`);
    }
  });
  return out;
}

interface ZipMember {
  name: string;
  data: Uint8Array;
  method?: number;
  flags?: number;
}

/** A ZIP archive of the members (method 8 is deflated here); ZIP64 records when asked. */
function zip(members: ZipMember[], zip64 = false): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const u16 = (v: DataView, at: number, x: number): void => v.setUint16(at, x, true);
  const u32 = (v: DataView, at: number, x: number): void => v.setUint32(at, x, true);
  for (const m of members) {
    const method = m.method ?? 0;
    const packed = method === 8 ? deflateRawSync(m.data) : m.data;
    const name = new TextEncoder().encode(m.name);
    const crc = crc32(m.data) >>> 0;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    u32(lv, 0, 0x04034b50);
    u16(lv, 4, 20);
    u16(lv, 6, m.flags ?? 0);
    u16(lv, 8, method);
    u32(lv, 14, crc);
    u32(lv, 18, packed.length);
    u32(lv, 22, m.data.length);
    u16(lv, 26, name.length);
    local.set(name, 30);
    const extra = zip64 ? 28 : 0;
    const entry = new Uint8Array(46 + name.length + extra);
    const cv = new DataView(entry.buffer);
    u32(cv, 0, 0x02014b50);
    u16(cv, 4, 20);
    u16(cv, 6, 20);
    u16(cv, 8, m.flags ?? 0);
    u16(cv, 10, method);
    u32(cv, 16, crc);
    u32(cv, 20, zip64 ? 0xffffffff : packed.length);
    u32(cv, 24, zip64 ? 0xffffffff : m.data.length);
    u16(cv, 28, name.length);
    u16(cv, 30, extra);
    u32(cv, 42, zip64 ? 0xffffffff : offset);
    entry.set(name, 46);
    if (zip64) {
      const e = 46 + name.length;
      u16(cv, e, 1);
      u16(cv, e + 2, 24);
      cv.setBigUint64(e + 4, BigInt(m.data.length), true);
      cv.setBigUint64(e + 12, BigInt(packed.length), true);
      cv.setBigUint64(e + 20, BigInt(offset), true);
    }
    chunks.push(local, packed);
    central.push(entry);
    offset += local.length + packed.length;
  }
  const cdOffset = offset;
  const cdSize = central.reduce((s, c) => s + c.length, 0);
  chunks.push(...central);
  if (zip64) {
    const rec = new Uint8Array(56 + 20);
    const rv = new DataView(rec.buffer);
    u32(rv, 0, 0x06064b50);
    rv.setBigUint64(4, 44n, true);
    rv.setBigUint64(24, BigInt(members.length), true);
    rv.setBigUint64(32, BigInt(members.length), true);
    rv.setBigUint64(40, BigInt(cdSize), true);
    rv.setBigUint64(48, BigInt(cdOffset), true);
    u32(rv, 56, 0x07064b50);
    rv.setBigUint64(64, BigInt(cdOffset + cdSize), true);
    u32(rv, 72, 1);
    chunks.push(rec);
  }
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  u32(ev, 0, 0x06054b50);
  u16(ev, 8, zip64 ? 0xffff : members.length);
  u16(ev, 10, zip64 ? 0xffff : members.length);
  u32(ev, 12, zip64 ? 0xffffffff : cdSize);
  u32(ev, 16, zip64 ? 0xffffffff : cdOffset);
  chunks.push(end);
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return null;
}

function dataError(f: () => unknown): DataError {
  const e = catchError(f);
  expect(e).toBeInstanceOf(DataError);
  return e as DataError;
}

async function dataErrorAsync(p: Promise<unknown>): Promise<DataError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DataError);
  return e as DataError;
}

function save(name: string, bytes: Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

// ---------------------------------------------------------------------------------------------
// NPY from the writer

const FLOATS = [0, -1.5, 2.25, 1024, -0.125, NaN, 0.5, -2, Infinity, 16.75, -Infinity, -7];
const SIGNED = [0, -1, 2, -128, 127, 5, -6, 7, 8, -9, 10, 11];
const UNSIGNED = [0, 1, 2, 255, 128, 5, 6, 7, 8, 9, 10, 11];
const BOOLS = [1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0];

const DTYPES: [string, number[]][] = [];
for (const order of ['<', '>']) {
  for (const s of ['f2', 'f4', 'f8']) DTYPES.push([`${order}${s}`, FLOATS]);
  for (const s of ['i2', 'i4', 'i8']) DTYPES.push([`${order}${s}`, SIGNED]);
  for (const s of ['u2', 'u4', 'u8']) DTYPES.push([`${order}${s}`, UNSIGNED]);
}
DTYPES.push(['|i1', SIGNED], ['|u1', UNSIGNED], ['|b1', BOOLS]);

describe('parseNpy, every dtype and order', () => {
  const cases = DTYPES.flatMap(([dtype, values], k) =>
    [false, true].map((fortran) => ({
      dtype,
      values,
      fortran,
      version: ((k % 3) + 1) as 1 | 2 | 3,
    })),
  );
  it.each(cases)('$dtype fortran=$fortran v$version', ({ dtype, values, fortran, version }) => {
    const bytes = npy(dtype, [3, 4], values, { fortran, version });
    const a = parseNpy(bytes, 'x.npy');
    expect(a.dtype).toBe(dtype);
    expect(a.shape).toEqual([3, 4]);
    expect(a.fortranOrder).toBe(fortran);
    expect(a.data).toBeInstanceOf(Float64Array);
    expect(Array.from(a.data)).toEqual(values);
  });

  it('a 3-D Fortran array comes back in C order', () => {
    const values = Array.from({ length: 24 }, (_, i) => i);
    const a = parseNpy(npy('<f8', [2, 3, 4], values, { fortran: true }), 'x.npy');
    expect(Array.from(a.data)).toEqual(values);
  });

  it('0-d, 1-d and empty arrays', () => {
    expect(parseNpy(npy('<f8', [], [42]), 'x.npy')).toMatchObject({ shape: [] });
    expect(Array.from(parseNpy(npy('<f8', [], [42]), 'x.npy').data)).toEqual([42]);
    expect(Array.from(parseNpy(npy('<i4', [3], [1, 2, 3]), 'x.npy').data)).toEqual([1, 2, 3]);
    const empty = parseNpy(npy('<f8', [0, 5], []), 'x.npy');
    expect(empty.shape).toEqual([0, 5]);
    expect(empty.data.length).toBe(0);
  });

  it('64-bit integers beyond 2^32', () => {
    const values = [-(2 ** 40), 2 ** 53, 2 ** 33 + 1];
    expect(Array.from(parseNpy(npy('<i8', [3], values), 'x.npy').data)).toEqual(values);
    expect(Array.from(parseNpy(npy('>u8', [2], [2 ** 52, 7]), 'x.npy').data)).toEqual([2 ** 52, 7]);
  });

  it('accepts Python 2 long shape entries and double-quoted keys', () => {
    const header = `{"descr": "<f8", "fortran_order": False, "shape": (2L, 1L)}`;
    expect(Array.from(parseNpy(npy('<f8', [2, 1], [1, 2], { header }), 'x.npy').data)).toEqual([
      1, 2,
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// NPY errors

describe('parseNpy errors', () => {
  const bytes = npy('<f8', [3, 4], FLOATS);

  it('unsupported dtypes', () => {
    const bytesOf: Record<string, number> = {
      '<U5': 40,
      '|S3': 6,
      '<c16': 32,
      '<M8': 16,
      '|V8': 16,
    };
    for (const dtype of ['|O', '<U5', '|S3', '<c16', '<M8', '|V8']) {
      const header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (2,), }`;
      const data = new Array<number>(bytesOf[dtype] ?? 10).fill(0);
      const e = dataError(() => parseNpy(npy('|u1', [2], data, { header }), 'bad.npy'));
      expect(e.message).toMatch(
        new RegExp(`^bad\\.npy: unsupported dtype "${dtype.replace('|', '\\|')}"`),
      );
    }
    const structured = `{'descr': [('a', '<f8'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), }`;
    const e = dataError(() => parseNpy(npy('<f8', [2], [1, 2], { header: structured }), 'st.npy'));
    expect(e.message).toMatch(/^st\.npy: unsupported dtype \(a structured array\)/);
  });

  it('truncated data names the shape and byte counts', () => {
    const e = dataError(() => parseNpy(bytes.subarray(0, bytes.length - 8), 'short.npy'));
    expect(e.message).toBe(
      'short.npy: declared shape (3, 4) of <f8 needs 96 data bytes, found 88 (truncated or damaged)',
    );
    const extra = new Uint8Array(bytes.length + 3);
    extra.set(bytes);
    expect(dataError(() => parseNpy(extra, 'long.npy')).message).toMatch(/3 extra \(damaged\)/);
  });

  it('zero-width text or a dtype without a size is refused', () => {
    for (const dtype of ['<U0', '|S0', '<f', '<U']) {
      const header = `{'descr': '${dtype}', 'fortran_order': False, 'shape': (1000000000000000,), }`;
      const e = dataError(() => parseNpy(npy('|u1', [0], [], { header }), 'w.npy'));
      expect(e.message).toMatch(/^w\.npy: unsupported dtype/);
    }
  });

  it('an absurd declared shape fails before any allocation', () => {
    for (const shape of [
      '(1000000000000000, 1000000000000000)',
      '(4294967296, 4294967296, 8)',
      '(99999999999999999999,)',
    ]) {
      const header = `{'descr': '<f8', 'fortran_order': False, 'shape': ${shape}, }`;
      const e = dataError(() => parseNpy(npy('<f8', [1], [1], { header }), 'huge.npy'));
      expect(e.message).toMatch(/^huge\.npy: .*(shape|damaged)/);
    }
  });

  it('not NPY, unknown version, header longer than the file, damaged header', () => {
    expect(dataError(() => parseNpy(new TextEncoder().encode('1,2,3\n'), 'a.csv')).message).toMatch(
      /^a\.csv: not an NPY array/,
    );
    const v9 = bytes.slice();
    v9[6] = 9;
    expect(dataError(() => parseNpy(v9, 'v9.npy')).message).toMatch(/version 9\.0/);
    const long = bytes.slice();
    new DataView(long.buffer).setUint16(8, 60000, true);
    expect(dataError(() => parseNpy(long, 'h.npy')).message).toMatch(/header declares 60000 bytes/);
    const noShape = `{'descr': '<f8', 'fortran_order': False}`;
    expect(
      dataError(() => parseNpy(npy('<f8', [1], [1], { header: noShape }), 'd.npy')).message,
    ).toMatch(/^d\.npy: NPY header is damaged: no 'shape'/);
  });
});

// ---------------------------------------------------------------------------------------------
// Real numpy files

type Expected = Record<
  string,
  {
    dtype?: string;
    shape?: number[];
    fortran?: boolean;
    data?: (number | string)[];
    members?: Record<
      string,
      { dtype: string; shape: number[]; fortran: boolean; data: (number | string)[] }
    >;
  }
>;
const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as Expected;

function decode(values: readonly (number | string)[]): number[] {
  return values.map((v) =>
    typeof v === 'number' ? v : v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : -Infinity,
  );
}

const npyFixtures = Object.keys(expected).filter((f) => f.endsWith('.npy'));
const npzFixtures = Object.keys(expected).filter((f) => f.endsWith('.npz'));

describe('numpy fixtures (make.py)', () => {
  it('has the files make.py writes', () => {
    expect(npyFixtures.length).toBeGreaterThanOrEqual(11);
    expect(npzFixtures).toEqual(['views.npz', 'views_compressed.npz']);
  });

  it.each(npyFixtures)('%s', (name) => {
    const e = expected[name]!;
    const a = parseNpy(readFileSync(join(FIXTURES, name)), name);
    expect(a.dtype).toBe(e.dtype);
    expect(a.shape).toEqual(e.shape);
    expect(a.fortranOrder).toBe(e.fortran);
    expect(Array.from(a.data)).toEqual(decode(e.data!));
  });

  it.each(npzFixtures)('%s maps to MAT variables (column-major, MATLAB dims)', async (name) => {
    const members = expected[name]!.members!;
    const path = join(FIXTURES, name);
    const file = await readNpz(path);
    expect(file).toMatchObject({ path, version: 'npz', warnings: [] });
    expect([...file.variables.keys()]).toEqual(['X0', 'X1', 'y', 'names']);
    const x0 = file.variables.get('X0') as MatNumeric;
    expect(x0).toMatchObject({ type: 'numeric', class: 'double', dims: [5, 3] });
    expect(Array.from(x0.re)).toEqual(cToF(decode(members.X0!.data), [5, 3]));
    const x1 = file.variables.get('X1') as MatNumeric;
    expect(x1).toMatchObject({ type: 'numeric', class: 'single', dims: [5, 2] });
    expect(Array.from(x1.re)).toEqual(cToF(decode(members.X1!.data), [5, 2]));
    const y = file.variables.get('y') as MatNumeric;
    expect(y).toMatchObject({ type: 'numeric', class: 'int64', dims: [5, 1] });
    expect(Array.from(y.re)).toEqual(decode(members.y!.data));
    const names = file.variables.get('names') as MatCell;
    expect(names).toMatchObject({ type: 'cell', dims: [5, 1] });
    expect(names.items.map((c) => (c.type === 'char' ? c.text : '?'))).toEqual(members.names!.data);
    expect(names.items[3]).toEqual({ type: 'char', dims: [1, 4], text: 'émeu' });
  });
});

// ---------------------------------------------------------------------------------------------
// NPZ from the ZIP writer

describe('parseNpz', () => {
  const a = npy('<f8', [2, 3], [1, 2, 3, 4, 5, 6]);
  const b = npy('|u1', [4], [1, 2, 3, 4], { fortran: true });

  it('stored and deflated members, ZIP64 records, other members skipped', () => {
    for (const zip64 of [false, true]) {
      const bytes = zip(
        [
          { name: 'a.npy', data: a, method: 8 },
          { name: 'sub/', data: new Uint8Array(0) },
          { name: 'sub/b.npy', data: b },
          { name: 'readme.txt', data: new TextEncoder().encode('hi') },
        ],
        zip64,
      );
      const file = parseNpz(bytes, 'z.npz');
      expect([...file.variables.keys()]).toEqual(['a', 'sub/b']);
      expect(file.variables.get('a')).toEqual({
        type: 'numeric',
        class: 'double',
        dims: [2, 3],
        re: Float64Array.from([1, 4, 2, 5, 3, 6]),
      });
      expect(file.variables.get('sub/b')).toMatchObject({ class: 'uint8', dims: [4, 1] });
      expect(file.warnings).toEqual(['readme.txt: not an .npy array; skipped']);
    }
  });

  it('an unsupported member becomes an unsupported variable with a warning', () => {
    const header = `{'descr': '|O', 'fortran_order': False, 'shape': (2,), }`;
    const obj = npy('<f8', [2], [0, 0], { header });
    const file = parseNpz(
      zip([
        { name: 'a.npy', data: a },
        { name: 'o.npy', data: obj },
      ]),
      'z.npz',
    );
    expect(file.variables.get('o')).toEqual({
      type: 'unsupported',
      what: 'numpy array of an unsupported dtype',
    });
    expect(file.warnings[0]).toMatch(/^o: unsupported dtype "\|O" \(Python objects\)/);
  });

  it('errors name the archive and the member', () => {
    const good = zip([{ name: 'a.npy', data: a }]);
    // A byte of a's data flipped: the CRC no longer matches.
    const flipped = good.slice();
    flipped[100] = flipped[100]! ^ 0xff;
    const e = dataError(() => parseNpz(flipped, 'z.npz'));
    expect(e.message).toBe(
      'z.npz, variable a.npy: the ZIP member is damaged or truncated: CRC-32 mismatch',
    );
    expect(e.variable).toBe('a.npy');

    const full = npy('<f8', [2, 3], [1, 2, 3, 4, 5, 6]);
    const bad = full.subarray(0, full.length - 8);
    const e2 = dataError(() => parseNpz(zip([{ name: 'X1.npy', data: bad }]), 'z.npz'));
    expect(e2.message).toMatch(
      /^z\.npz, variable X1: declared shape \(2, 3\) of <f8 needs 48 data bytes, found 40/,
    );

    const bzip = zip([{ name: 'a.npy', data: a, method: 12 }]);
    expect(dataError(() => parseNpz(bzip, 'z.npz')).message).toMatch(/compression method 12/);
    const locked = zip([{ name: 'a.npy', data: a, flags: 1 }]);
    expect(dataError(() => parseNpz(locked, 'z.npz')).message).toMatch(/encrypted/);
    expect(dataError(() => parseNpz(a, 'a.npy')).message).toMatch(/^a\.npy: not a ZIP archive/);
    expect(dataError(() => parseNpz(new Uint8Array(0), 'e.npz')).message).toMatch(/not a ZIP/);
  });

  it('readNpz of a missing file is a DataError', async () => {
    const e = await dataErrorAsync(readNpz(join(dir, 'none.npz')));
    expect(e.message).toMatch(/none\.npz: cannot read the file: no such file/);
  });
});

// ---------------------------------------------------------------------------------------------
// Datasets from .npy views

describe('loadNpyDataset', () => {
  it('views, an all-NaN row as a missing sample, npy labels', async () => {
    const x0 = save('X0.npy', npy('<f8', [4, 2], [1, 2, NaN, NaN, 5, NaN, 7, 8]));
    const x1 = save(
      'X1.npy',
      npy('<i4', [4, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { fortran: true }),
    );
    const y = save('y.npy', npy('<i8', [4, 1], [3, 1, 3, 2]));
    const ds = await loadNpyDataset([x0, x1], { labelsFile: y });
    expect(ds.n).toBe(4);
    expect(ds.views.map((v) => [v.name, v.d])).toEqual([
      ['X0.npy', 2],
      ['X1.npy', 3],
    ]);
    expect(Array.from(ds.views[0]!.present)).toEqual([0, 2, 3]);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([1, 2, 5, NaN, 7, 8]);
    expect(Array.from(ds.views[1]!.values.data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(ds.labels!.classes).toEqual([1, 2, 3]);
    expect(Array.from(ds.labels!.codes)).toEqual([2, 0, 2, 1]);
    expect(ds.provenance).toMatchObject({
      file: x0,
      format: 'npy',
      variables: ['X0.npy', 'X1.npy', 'y.npy'],
      orientation: ['n x d', 'n x d'],
      missingness: 'natural',
    });
    expect(ds.provenance.warnings).toEqual([
      `${x0}: 1 row has some NaN or empty cells (kept as NaN), the first is row 2 (0-based)`,
    ]);
  });

  it('a 1-D view is one feature; labels from CSV or from a text array', async () => {
    const x = save('x1d.npy', npy('<f4', [3], [0.5, 1, 2]));
    const csv = join(dir, 'y.csv');
    writeFileSync(csv, 'label\nb\na\nb\n');
    const ds = await loadNpyDataset([x], { labelsFile: csv });
    expect(ds.views[0]!.d).toBe(1);
    expect(ds.labels!.classes).toEqual(['a', 'b']);
    // A numpy text array '<U1' of ['b', 'a', 'b'] (not one label per sample: no label file).
    const text = npy('<u4', [3], [98, 97, 98], {
      header: `{'descr': '<U1', 'fortran_order': False, 'shape': (3,), }`,
    });
    const ds2 = await loadNpyDataset([x], { labelsFile: save('yt.npy', text) });
    expect(ds2.labels!.classes).toEqual(['a', 'b']);
  });

  it('errors: shape, row counts, labels length, text views', async () => {
    const x = save('e0.npy', npy('<f8', [3, 2], [1, 2, 3, 4, 5, 6]));
    const cube = save('e1.npy', npy('<f8', [1, 2, 3], [1, 2, 3, 4, 5, 6]));
    expect((await dataErrorAsync(loadNpyDataset([cube], {}))).message).toBe(
      `${cube}: expected a 2-D array (samples x features), found shape (1, 2, 3)`,
    );
    const short = save('e2.npy', npy('<f8', [2, 2], [1, 2, 3, 4]));
    expect((await dataErrorAsync(loadNpyDataset([x, short], {}))).message).toBe(
      `${short}: has 2 rows but ${x} has 3; every view file needs one row per sample`,
    );
    const y = save('e3.npy', npy('<i4', [4], [1, 2, 3, 4]));
    expect((await dataErrorAsync(loadNpyDataset([x], { labelsFile: y }))).message).toBe(
      `${y}: has 4 labels but the views have 3 samples (rows of ${x})`,
    );
    const nanY = save('e4.npy', npy('<f8', [3], [1, NaN, 2]));
    expect((await dataErrorAsync(loadNpyDataset([x], { labelsFile: nanY }))).message).toMatch(
      /label 1 \(0-based\) is NaN/,
    );
    const allNaN = save('e5.npy', npy('<f8', [3, 1], [NaN, NaN, NaN]));
    expect((await dataErrorAsync(loadNpyDataset([x, allNaN], {}))).message).toMatch(
      /e5\.npy: every row is empty or NaN, so view e5\.npy holds no sample/,
    );
    const text = save(
      'e6.npy',
      npy('<u4', [3], [98, 97, 99], {
        header: `{'descr': '<U1', 'fortran_order': False, 'shape': (3,), }`,
      }),
    );
    expect((await dataErrorAsync(loadNpyDataset([text], {}))).message).toMatch(
      /e6\.npy: unsupported dtype "<U1" \(text\)/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Damage

describe('damaged files read or throw DataError, nothing else', () => {
  const files = readdirSync(FIXTURES).filter((f) => /\.np[yz]$/.test(f));
  const extra: [string, Uint8Array][] = [
    [
      'zip64.npz',
      zip([{ name: 'a.npy', data: npy('<f4', [3, 2], FLOATS.slice(0, 6)), method: 8 }], true),
    ],
  ];
  const inputs: [string, Uint8Array][] = [
    ...files.map((f): [string, Uint8Array] => [f, new Uint8Array(readFileSync(join(FIXTURES, f)))]),
    ...extra,
  ];

  it.each(inputs)('%s', (name, bytes) => {
    const parse = (b: Uint8Array): unknown =>
      name.endsWith('.npz') ? parseNpz(b, name) : parseNpy(b, name);
    expect(() => parse(bytes)).not.toThrow();
    const rand = prng(bytes.length);
    const outcomes = { read: 0, refused: 0 };
    const attempt = (b: Uint8Array): void => {
      const e = catchError(() => parse(b));
      if (e === null) outcomes.read++;
      else if (e instanceof DataError) outcomes.refused++;
      else throw new Error(`${name}: not a DataError: ${String(e)}`, { cause: e });
    };
    for (let k = 0; k < 20; k++) attempt(bytes.subarray(0, Math.floor((bytes.length * k) / 20)));
    for (let k = 0; k < 60; k++) {
      const b = bytes.slice();
      const flips = 1 + Math.floor(rand() * 3);
      for (let f = 0; f < flips; f++) {
        const at = Math.floor(rand() * b.length);
        b[at] = b[at]! ^ (1 + Math.floor(rand() * 255));
      }
      attempt(b);
    }
    expect(outcomes.read + outcomes.refused).toBe(80);
    expect(outcomes.refused).toBeGreaterThanOrEqual(20);
  });
});
