/**
 * The MAT v7.3 (HDF5) reader: the four shared v7.3 files against expectations computed
 * independently with h5py (test/fixtures/mat/v73-expected.py → v73-expected.json), tiny synthetic files
 * written with h5wasm for what those files lack (sparse, logical, empty, struct, complex,
 * unsupported classes, cycles, absurd sizes), and damaged copies read in a child process with a
 * per-read timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  existsSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as H5 from 'h5wasm/node';
import { isHdf5 } from '../../../src/io/mat/signature';
import { readMatV73 } from '../../../src/io/mat/v73';
import { MatReadError } from '../../../src/io/mat/types';
import type { MatFile, MatValue } from '../../../src/io/mat/types';
import { DATASETS } from '../../helpers/paths';
import { startIsolatedReader } from '../../helpers/v73-isolated';
import { prng } from '../../helpers/prng';

const HERE = dirname(fileURLToPath(import.meta.url));
const TMP = mkdtempSync(join(tmpdir(), 'mvs-v73-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const REAL_FILES = [
  'HW/Handwritten_fea.mat',
  'HW/Handwritten_numerals.mat',
  'Synthetic/synthetic_data.mat',
  'BBCSport/bbcsport4vbigRnSp_percentDel_0.1.mat',
] as const;

/** What v73-expected.py records per value. */
type Expected =
  | { type: 'cell'; dims: number[]; items: Expected[] }
  | { type: 'char'; dims: number[]; text: string }
  | {
      type: 'numeric';
      class: string;
      dims: number[];
      sum: number;
      /** 1-based [row, col, value] of the MATLAB array. */
      samples: [number, number, number][];
      counts?: Record<string, number>;
    };
const EXPECTED = JSON.parse(
  readFileSync(join(HERE, '../../fixtures/mat/v73-expected.json'), 'utf8'),
) as Record<string, { header: string; variables: Record<string, Expected> }>;

function compare(actual: MatValue | undefined, exp: Expected, where: string): void {
  expect(actual?.type, where).toBe(exp.type);
  if (!actual || actual.type !== exp.type) return;
  expect(actual.dims, `${where} dims`).toEqual(exp.dims);
  if (actual.type === 'char' && exp.type === 'char') {
    expect(actual.text, where).toBe(exp.text);
  } else if (actual.type === 'cell' && exp.type === 'cell') {
    expect(actual.items.length, where).toBe(exp.items.length);
    exp.items.forEach((e, k) => compare(actual.items[k], e, `${where}{${k + 1}}`));
  } else if (actual.type === 'numeric' && exp.type === 'numeric') {
    expect(actual.class, where).toBe(exp.class);
    expect(actual.im, where).toBeUndefined();
    const rows = actual.dims[0] as number;
    let sum = 0;
    for (const v of actual.re) sum += v;
    expect(Math.abs(sum - exp.sum) / Math.max(1, Math.abs(exp.sum)), `${where} sum`).toBeLessThan(
      1e-9,
    );
    for (const [i, j, v] of exp.samples) {
      expect(actual.re[i - 1 + (j - 1) * rows], `${where}(${i},${j})`).toBe(v);
    }
    if (exp.counts) {
      const counts: Record<string, number> = {};
      for (const v of actual.re) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
      expect(counts, `${where} class sizes`).toEqual(exp.counts);
    }
  }
}

describe('the shared MAT v7.3 files, against h5py', () => {
  it.each(REAL_FILES)('%s', async (file) => {
    const path = join(DATASETS, file);
    expect(isHdf5(readFileSync(path).subarray(0, 2056))).toBe(true);
    const m = await readMatV73(path);
    const exp = EXPECTED[file];
    if (!exp) throw new Error(`no expectations for ${file}: rerun v73-expected.py`);
    expect(m.version).toBe('v7.3');
    expect(m.path).toBe(path);
    expect(m.header).toBe(exp.header);
    expect(m.header).toMatch(/^MATLAB 7\.[03] MAT-file, .* HDF5 schema \d\.\d\d \.$/);
    expect(m.warnings).toEqual([]);
    expect([...m.variables.keys()]).toEqual(Object.keys(exp.variables));
    for (const [name, e] of Object.entries(exp.variables)) compare(m.variables.get(name), e, name);
  });

  it('Handwritten_fea.mat: views, labels and metadata as the spec describes them', async () => {
    const m = await readMatV73(join(DATASETS, 'HW/Handwritten_fea.mat'));
    const X = m.variables.get('X');
    expect(X?.type === 'cell' && X.dims).toEqual([6, 1]);
    if (X?.type !== 'cell') return;
    expect(
      X.items.map((v) => (v.type === 'numeric' ? `${v.dims.join('x')} ${v.class}` : v.type)),
    ).toEqual([
      '216x2000 double',
      '76x2000 double',
      '64x2000 double',
      '6x2000 double',
      '240x2000 double',
      '47x2000 double',
    ]);
    const dataName = m.variables.get('data_name');
    expect(dataName).toEqual({ type: 'char', dims: [1, 5], text: 'Mfeat' });
    const texts = (v: MatValue | undefined): string[] =>
      v?.type === 'cell' ? v.items.map((c) => (c.type === 'char' ? c.text : '?')) : [];
    expect(texts(m.variables.get('view_meaning'))).toEqual([
      'FAC',
      'FOU',
      'KAR',
      'MOR',
      'PIX',
      'ZER',
    ]);
    expect(texts(m.variables.get('class_meaning'))).toEqual('0123456789'.split(''));
    const Y = m.variables.get('Y');
    expect(Y?.type === 'numeric' && Y.dims).toEqual([2000, 1]);
  });

  it('the same views stored n x d (Handwritten_numerals.mat) are the transposes', async () => {
    const fea = await readMatV73(join(DATASETS, 'HW/Handwritten_fea.mat'));
    const num = await readMatV73(join(DATASETS, 'HW/Handwritten_numerals.mat'));
    const a = fea.variables.get('X');
    const b = num.variables.get('data');
    if (a?.type !== 'cell' || b?.type !== 'cell') throw new Error('cells expected');
    const v1 = a.items[1];
    const w1 = b.items[1];
    if (v1?.type !== 'numeric' || w1?.type !== 'numeric') throw new Error('numeric expected');
    const [d, n] = v1.dims as [number, number];
    expect(w1.dims).toEqual([n, d]);
    for (const [i, j] of [
      [0, 0],
      [d - 1, n - 1],
      [17, 1234],
      [50, 3],
    ] as const) {
      expect(w1.re[j + i * n]).toBe(v1.re[i + j * d]);
    }
  });

  it('releases memory and file handles between reads', async () => {
    const h5 = await import('h5wasm/node');
    const module = await h5.ready;
    const path = join(DATASETS, 'HW/Handwritten_fea.mat');
    const fds = (): number =>
      existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0;
    await readMatV73(path);
    const heap = module.HEAPU8.length;
    const open = fds();
    for (let k = 0; k < 4; k++) await readMatV73(path);
    expect(module.HEAPU8.length).toBe(heap);
    expect(fds()).toBe(open);
    const streams = (module.FS as unknown as { streams: ({ path?: string } | null)[] }).streams;
    expect(streams.filter((s) => s?.path === path)).toEqual([]);
  });
});

describe('isHdf5', () => {
  const sig = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
  const at = (offset: number, length = 4096): Uint8Array => {
    const b = new Uint8Array(length).fill(0x20);
    b.set(sig, offset);
    return b;
  };
  it('finds the signature at 512 (MAT v7.3), 0, 1024 and 2048', () => {
    for (const off of [0, 512, 1024, 2048]) expect(isHdf5(at(off)), `offset ${off}`).toBe(true);
  });
  it('rejects other offsets, short buffers and v5 files', () => {
    expect(isHdf5(at(256))).toBe(false);
    expect(isHdf5(at(513))).toBe(false);
    expect(isHdf5(new Uint8Array(0))).toBe(false);
    expect(isHdf5(at(512).subarray(0, 519))).toBe(false);
    expect(isHdf5(readFileSync(join(DATASETS, 'HW/HW.mat')).subarray(0, 4096))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Synthetic files written with h5wasm

let h5: typeof H5;
const PLAIN = join(TMP, 'synthetic.h5');
const MAT = join(TMP, 'synthetic.mat');

/** Sets `MATLAB_class` as MATLAB does: a fixed-length ASCII string. */
function setClass(obj: H5.Dataset | H5.Group, cls: string): void {
  obj.create_attribute('MATLAB_class', cls, null, `S${cls.length}`);
}

/** A MATLAB array: `data` in column-major order, `dims` MATLAB dims (HDF5 shape = reversed). */
function put(
  g: H5.Group,
  name: string,
  data: H5.GuessableDataTypes,
  dims: number[],
  cls?: string,
): H5.Dataset {
  const ds = g.create_dataset({ name, data, shape: [...dims].reverse() });
  if (cls) setClass(ds, cls);
  return ds;
}

const codes = (s: string): Uint16Array => Uint16Array.from(s, (c) => c.charCodeAt(0));

function writeSynthetic(path: string): void {
  const f = new h5.File(path, 'w');
  try {
    const refs = f.create_group('#refs#');
    const sub = f.create_group('#subsystem#');
    put(sub, 'MCOS', new Uint8Array([1, 2, 3]), [3, 1], 'FileWrapper__');

    put(f, 'dbl', new Float64Array([1, 2, 3, 4, 5, 6]), [2, 3], 'double');
    put(f, 'sgl', new Float32Array([0.5, -1.25]), [1, 2], 'single');
    put(f, 'i64', new BigInt64Array([-5n, 2n ** 53n + 1n]), [2, 1], 'int64');
    put(f, 'u16', new Uint16Array([65535]), [1, 1], 'uint16');
    put(
      f,
      'nd',
      Float64Array.from({ length: 24 }, (_, k) => k),
      [2, 3, 4],
      'double',
    );
    put(f, 'lgc', new Uint8Array([1, 0, 1]), [3, 1], 'logical');
    const cpx = f.create_dataset({
      name: 'cpx',
      data: new Map([
        ['real', new Float64Array([1, 2])],
        ['imag', new Float64Array([-1, 0.5])],
      ]),
      shape: [2, 1],
    });
    setClass(cpx, 'double');

    for (const [name, cls, dims] of [
      ['emp', 'double', [0n, 5n]],
      ['empc', 'char', [1n, 0n]],
      ['empcell', 'cell', [0n, 0n]],
      ['empl', 'logical', [3n, 0n]],
    ] as const) {
      const e = f.create_dataset({ name, data: new BigUint64Array(dims), shape: [2] });
      setClass(e, cls);
      e.create_attribute('MATLAB_empty', new Uint8Array([1]), [], '<B');
    }

    put(f, 'txt', codes('Hello µ€'), [1, 8], 'char').create_attribute('MATLAB_int_decode', 2);
    put(f, 'txt2', codes('acbd'), [2, 2], 'char'); // ['ab'; 'cd'], column-major

    const sparse = (
      name: string,
      cls: string,
      rows: number,
      jc: number[],
      ir: number[] | null,
      data: Float64Array | Uint8Array | null,
    ): void => {
      const g = f.create_group(name);
      setClass(g, cls);
      g.create_attribute('MATLAB_sparse', new BigUint64Array([BigInt(rows)]), [], '<Q');
      g.create_dataset({ name: 'jc', data: BigUint64Array.from(jc, BigInt) });
      if (ir) g.create_dataset({ name: 'ir', data: BigUint64Array.from(ir, BigInt) });
      if (data) g.create_dataset({ name: 'data', data });
    };
    // 4x3: (1,1) = 1.5, (3,1) = 2, (2,3) = -1
    sparse('sp', 'double', 4, [0, 2, 2, 3], [0, 2, 1], new Float64Array([1.5, 2, -1]));
    sparse('sp0', 'double', 5, [0, 0, 0], null, null); // all zero: no ir, no data
    sparse('spl', 'logical', 2, [0, 1, 2], [1, 0], new Uint8Array([1, 1]));
    const spc = f.create_group('spc'); // complex 2x1 sparse: (2,1) = 3 - 4i
    setClass(spc, 'double');
    spc.create_attribute('MATLAB_sparse', new BigUint64Array([2n]), [], '<Q');
    spc.create_dataset({ name: 'jc', data: new BigUint64Array([0n, 1n]) });
    spc.create_dataset({ name: 'ir', data: new BigUint64Array([1n]) });
    spc.create_dataset({
      name: 'data',
      data: new Map([
        ['real', new Float64Array([3])],
        ['imag', new Float64Array([-4])],
      ]),
    });
    sparse('spbad', 'double', 2, [0, 1, 2], [1, 7], new Float64Array([1, 1])); // row 7 of 2

    const target = (name: string, data: H5.GuessableDataTypes, dims: number[], cls: string) =>
      put(refs, name, data, dims, cls).create_reference();

    // 1x1 struct: s.a = 7, s.b = 'xy', s.c = {3}
    const s = f.create_group('s');
    setClass(s, 'struct');
    put(s, 'a', new Float64Array([7]), [1, 1], 'double');
    put(s, 'b', codes('xy'), [1, 2], 'char');
    put(s, 'c', [target('s_c1', new Float64Array([3]), [1, 1], 'double')], [1, 1], 'cell');

    // 1x2 struct array: sa(1) = {val: 1, name: 'one'}, sa(2) = {val: 2, name: 'two'}
    const sa = f.create_group('sa');
    setClass(sa, 'struct');
    sa.create_attribute('MATLAB_fields', ['val', 'name']);
    sa.create_dataset({
      name: 'name',
      data: [
        target('sa1', codes('one'), [1, 3], 'char'),
        target('sa2', codes('two'), [1, 3], 'char'),
      ],
      shape: [2, 1],
    });
    sa.create_dataset({
      name: 'val',
      data: [
        target('sa3', new Float64Array([1]), [1, 1], 'double'),
        target('sa4', new Float64Array([2]), [1, 1], 'double'),
      ],
      shape: [2, 1],
    });

    // {{1; 'a'}, [10 20]} and a cell holding the canonical empty
    const inner = [
      target('n1', new Float64Array([1]), [1, 1], 'double'),
      target('n2', codes('a'), [1, 1], 'char'),
    ];
    put(
      f,
      'nest',
      [
        put(refs, 'n3', inner, [2, 1], 'cell').create_reference(),
        target('n4', new Float64Array([10, 20]), [1, 2], 'double'),
      ],
      [1, 2],
      'cell',
    );
    const canonical = refs.create_dataset({ name: 'a', data: new BigUint64Array([0n, 0n]) });
    setClass(canonical, 'canonical empty');
    canonical.create_attribute('MATLAB_empty', new Uint8Array([1]), [], '<B');
    put(f, 'withempty', [canonical.create_reference(), inner[0] as H5.Reference], [1, 2], 'cell');

    // A cell that contains itself.
    const loop = put(refs, 'loop', [inner[0] as H5.Reference], [1, 1], 'cell');
    loop.write_slice(
      [
        [0, 1],
        [0, 1],
      ],
      [loop.create_reference()],
    );
    put(f, 'cyc', [loop.create_reference()], [1, 1], 'cell');

    // Unsupported: a function handle, a string object (MCOS), an unknown class.
    const fh = f.create_group('fh');
    setClass(fh, 'function_handle');
    put(fh, 'function_handle', codes('@sin'), [1, 4], 'char');
    const str = put(f, 'str', new Uint32Array([0xdd000000, 2, 1, 1, 1, 1]), [6, 1], 'string');
    str.create_attribute('MATLAB_object_decode', 3);
    put(f, 'odd', new Float64Array([1]), [1, 1], 'quaternion');
    put(f, 'cellfh', [fh.create_reference()], [1, 1], 'cell');

    // A dataset claiming 800 GB (chunked, never written) in a tiny file.
    const huge = f.create_dataset({
      name: 'huge',
      data: new Float64Array(4),
      shape: [2, 2],
      maxshape: [null, null],
      chunks: [2, 2],
    });
    huge.resize([100_000_000, 1000]);
    setClass(huge, 'double');

    // No MATLAB attributes at all (a file written by h5py, say).
    f.create_dataset({ name: 'plain', data: new Int16Array([-3, 4]), shape: [2] });
  } finally {
    f.close();
  }
}

/** A MAT v7.3 file: the 128-byte MAT header in a 512-byte userblock, then the HDF5 file. */
function withMatHeader(h5path: string, out: string): void {
  const head = Buffer.alloc(512);
  const text =
    'MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Jan  1 00:00:00 2026 HDF5 schema 1.00 .';
  head.write(text.padEnd(116, ' '), 0, 'latin1');
  head.writeUInt16LE(0x0200, 124);
  head.write('IM', 126, 'latin1');
  writeFileSync(out, Buffer.concat([head, readFileSync(h5path)]));
}

describe('synthetic MAT v7.3 features (written with h5wasm)', () => {
  let m: MatFile;
  const v = (name: string): MatValue | undefined => m.variables.get(name);

  beforeAll(async () => {
    h5 = await import('h5wasm/node');
    await h5.ready;
    writeSynthetic(PLAIN);
    withMatHeader(PLAIN, MAT);
    m = await readMatV73(MAT);
  });

  it('reads the header from the userblock and finds the signature at 0 or 512', async () => {
    expect(isHdf5(readFileSync(PLAIN).subarray(0, 2056))).toBe(true);
    expect(isHdf5(readFileSync(MAT).subarray(0, 2056))).toBe(true);
    expect(m.header).toBe(
      'MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Jan  1 00:00:00 2026 HDF5 schema 1.00 .',
    );
    const plain = await readMatV73(PLAIN);
    expect(plain.header).toBe('');
    expect(plain.warnings).toContain('no MAT header: plain HDF5 file without a userblock');
    expect([...plain.variables.keys()]).toEqual([...m.variables.keys()]);
  });

  it('lists variables in file order, without #refs# and #subsystem#', () => {
    expect([...m.variables.keys()]).toEqual([
      'cellfh',
      'cpx',
      'dbl',
      'emp',
      'empc',
      'empcell',
      'empl',
      'fh',
      'i64',
      'lgc',
      'nd',
      'nest',
      'odd',
      'plain',
      's',
      'sa',
      'sgl',
      'sp',
      'sp0',
      'spc',
      'spl',
      'str',
      'txt',
      'txt2',
      'u16',
      'withempty',
    ]);
  });

  it('numeric classes, widened to double, dims reversed from HDF5', () => {
    expect(v('dbl')).toEqual({
      type: 'numeric',
      class: 'double',
      dims: [2, 3],
      re: new Float64Array([1, 2, 3, 4, 5, 6]),
    });
    expect(v('sgl')).toMatchObject({
      class: 'single',
      dims: [1, 2],
      re: new Float64Array([0.5, -1.25]),
    });
    expect(v('i64')).toMatchObject({
      class: 'int64',
      dims: [2, 1],
      re: new Float64Array([-5, 2 ** 53]),
    });
    expect(v('u16')).toMatchObject({
      class: 'uint16',
      dims: [1, 1],
      re: new Float64Array([65535]),
    });
    const nd = v('nd');
    expect(nd).toMatchObject({ class: 'double', dims: [2, 3, 4] });
    // element (2, 3, 4) sits at 1 + 2*2 + 3*6 in column-major order
    expect(nd?.type === 'numeric' && nd.re[1 + 2 * 2 + 3 * 6]).toBe(23);
  });

  it('logical and complex', () => {
    expect(v('lgc')).toEqual({
      type: 'numeric',
      class: 'logical',
      dims: [3, 1],
      re: new Float64Array([1, 0, 1]),
    });
    expect(v('cpx')).toEqual({
      type: 'numeric',
      class: 'double',
      dims: [1, 2],
      re: new Float64Array([1, 2]),
      im: new Float64Array([-1, 0.5]),
    });
  });

  it('empty arrays (MATLAB_empty): dims from the data, no elements', () => {
    expect(v('emp')).toEqual({
      type: 'numeric',
      class: 'double',
      dims: [0, 5],
      re: new Float64Array(0),
    });
    expect(v('empc')).toEqual({ type: 'char', dims: [1, 0], text: '' });
    expect(v('empcell')).toEqual({ type: 'cell', dims: [0, 0], items: [] });
    expect(v('empl')).toMatchObject({ type: 'numeric', class: 'logical', dims: [3, 0] });
  });

  it('char, column-major, UTF-16 code units', () => {
    expect(v('txt')).toEqual({ type: 'char', dims: [1, 8], text: 'Hello µ€' });
    expect(v('txt2')).toEqual({ type: 'char', dims: [2, 2], text: 'acbd' });
  });

  it('sparse groups, with and without data', () => {
    expect(v('sp')).toEqual({
      type: 'sparse',
      class: 'double',
      dims: [4, 3],
      ir: new Int32Array([0, 2, 1]),
      jc: new Int32Array([0, 2, 2, 3]),
      pr: new Float64Array([1.5, 2, -1]),
    });
    expect(v('sp0')).toEqual({
      type: 'sparse',
      class: 'double',
      dims: [5, 2],
      ir: new Int32Array(0),
      jc: new Int32Array([0, 0, 0]),
      pr: new Float64Array(0),
    });
    expect(v('spl')).toMatchObject({
      class: 'logical',
      dims: [2, 2],
      pr: new Float64Array([1, 1]),
    });
    expect(v('spc')).toEqual({
      type: 'sparse',
      class: 'double',
      dims: [2, 1],
      ir: new Int32Array([1]),
      jc: new Int32Array([0, 1]),
      pr: new Float64Array([3]),
      pi: new Float64Array([-4]),
    });
    expect(v('spbad')).toBeUndefined();
    expect(m.warnings).toContain(
      "variable 'spbad' could not be read: sparse row index 7 >= 2 rows",
    );
  });

  it('a 1x1 struct and a struct array', () => {
    expect(v('s')).toEqual({
      type: 'struct',
      dims: [1, 1],
      fields: ['a', 'b', 'c'],
      items: [
        {
          a: { type: 'numeric', class: 'double', dims: [1, 1], re: new Float64Array([7]) },
          b: { type: 'char', dims: [1, 2], text: 'xy' },
          c: {
            type: 'cell',
            dims: [1, 1],
            items: [{ type: 'numeric', class: 'double', dims: [1, 1], re: new Float64Array([3]) }],
          },
        },
      ],
    });
    const sa = v('sa');
    expect(sa).toMatchObject({ type: 'struct', dims: [1, 2], fields: ['val', 'name'] });
    if (sa?.type !== 'struct') return;
    expect(sa.items.map((r) => [r['val'], r['name']])).toEqual([
      [
        { type: 'numeric', class: 'double', dims: [1, 1], re: new Float64Array([1]) },
        { type: 'char', dims: [1, 3], text: 'one' },
      ],
      [
        { type: 'numeric', class: 'double', dims: [1, 1], re: new Float64Array([2]) },
        { type: 'char', dims: [1, 3], text: 'two' },
      ],
    ]);
  });

  it('nested cells through #refs#, and the canonical empty', () => {
    expect(v('nest')).toEqual({
      type: 'cell',
      dims: [1, 2],
      items: [
        {
          type: 'cell',
          dims: [2, 1],
          items: [
            { type: 'numeric', class: 'double', dims: [1, 1], re: new Float64Array([1]) },
            { type: 'char', dims: [1, 1], text: 'a' },
          ],
        },
        { type: 'numeric', class: 'double', dims: [1, 2], re: new Float64Array([10, 20]) },
      ],
    });
    expect(v('withempty')).toMatchObject({
      type: 'cell',
      items: [
        { type: 'numeric', dims: [0, 0] },
        { type: 'numeric', dims: [1, 1] },
      ],
    });
  });

  it('unsupported classes become "unsupported" with a warning naming them', () => {
    expect(v('fh')).toEqual({ type: 'unsupported', what: 'function handle' });
    expect(v('str')).toEqual({ type: 'unsupported', what: "object (MCOS) of class 'string'" });
    expect(v('odd')).toEqual({ type: 'unsupported', what: "MATLAB class 'quaternion'" });
    expect(v('cellfh')).toEqual({
      type: 'cell',
      dims: [1, 1],
      items: [{ type: 'unsupported', what: 'function handle' }],
    });
    for (const name of ["'fh'", "'str'", "'odd'", "'cellfh{1}'"]) {
      expect(
        m.warnings.some((w) => w.startsWith(`${name} is not supported`)),
        name,
      ).toBe(true);
    }
  });

  it('a dataset without MATLAB_class is read from its storage type, with a warning', () => {
    expect(v('plain')).toEqual({
      type: 'numeric',
      class: 'int16',
      dims: [2, 1],
      re: new Float64Array([-3, 4]),
    });
    expect(m.warnings).toContain("'plain' has no MATLAB_class; read as int16 from its storage");
  });

  it('reference cycles and absurd sizes drop the variable with a warning', () => {
    expect(v('cyc')).toBeUndefined();
    expect(m.warnings).toContain(
      "variable 'cyc' could not be read: reference cycle through /#refs#/loop",
    );
    expect(v('huge')).toBeUndefined();
    expect(m.warnings.find((w) => w.startsWith("variable 'huge'"))).toMatch(
      /dataset \/huge claims 800000000000 bytes, implausible for a file of \d+ bytes/,
    );
  });

  it('only the expected warnings, each naming its variable', () => {
    expect(m.warnings).toHaveLength(8);
    for (const w of m.warnings) expect(w).toMatch(/^(variable )?'[a-z0-9{}]+'/);
  });

  it('recovers a fresh h5wasm instance after a WASM runtime failure', async () => {
    const module = await h5.ready;
    const open = module.open;
    module.open = () => {
      throw Object.assign(new Error('unreachable executed (simulated trap)'), {
        name: 'RuntimeError',
      });
    };
    try {
      await expect(readMatV73(MAT)).rejects.toThrow(
        /synthetic\.mat: the HDF5 library could not open it: unreachable executed/,
      );
      // The next read must not touch the broken instance (its open still throws).
      const again = await readMatV73(MAT);
      expect(again.variables.get('dbl')).toEqual(v('dbl'));
    } finally {
      module.open = open;
    }
  });
});

describe('files that are not readable MAT v7.3', () => {
  it('a missing file, a folder, an empty file and a v5 file', async () => {
    const empty = join(TMP, 'empty.mat');
    writeFileSync(empty, new Uint8Array(0));
    const v5 = join(DATASETS, 'HW/HW.mat');
    const missing = join(TMP, 'missing.mat');
    const cases: [string, RegExp][] = [
      [missing, /cannot read the file: ENOENT/],
      [TMP, /cannot read the file: not a regular file/],
      [empty, /not an HDF5 file \(the file is empty\)/],
      [v5, /not an HDF5 file \(no HDF5 signature/],
    ];
    for (const [path, message] of cases) {
      const err = await readMatV73(path).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(MatReadError);
      expect((err as MatReadError).message).toContain(path);
      expect((err as MatReadError).message).toMatch(message);
    }
  });

  it('an HDF5 signature followed by garbage', async () => {
    const path = join(TMP, 'garbage.mat');
    const bytes = new Uint8Array(4096).fill(0xa5);
    bytes.set([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a], 512);
    writeFileSync(path, bytes);
    await expect(readMatV73(path)).rejects.toThrow(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the HDF5 library could not open it: .+`,
      ),
    );
  });
});

describe('damaged copies of the shared v7.3 files (read in a child process)', () => {
  const dir = mkdtempSync(join(TMP, 'isolated-'));
  let reader: Awaited<ReturnType<typeof startIsolatedReader>>;
  beforeAll(async () => {
    reader = await startIsolatedReader(dir);
  });
  afterAll(() => reader.close());

  /** Per read; normal reads take well under a second, even on a busy 2-core machine. */
  const TIMEOUT_MS = 20_000;

  it.each(REAL_FILES)('%s: 10 truncations and 10 copies with flipped bytes', async (file) => {
    const bytes = readFileSync(join(DATASETS, file));
    const rand = prng(bytes.length);
    const outcomes: string[] = [];
    for (let k = 0; k < 20; k++) {
      const truncated = k < 10;
      let copy: Uint8Array;
      if (truncated) {
        copy = bytes.subarray(0, Math.floor((bytes.length * k) / 10));
      } else {
        copy = Uint8Array.from(bytes);
        const flips = 1 + Math.floor(rand() * 20);
        for (let f = 0; f < flips; f++) {
          // Half of the damage lands in the first 16 KiB, where the HDF5 metadata sits.
          const span = rand() < 0.5 ? Math.min(copy.length, 16384) : copy.length;
          const at = Math.floor(rand() * span);
          copy[at] = (copy[at] as number) ^ (1 + Math.floor(rand() * 255));
        }
      }
      const path = join(dir, `${basename(file)}.${truncated ? 'cut' : 'flip'}${k}`);
      writeFileSync(path, copy);
      const out = await reader.read(path, TIMEOUT_MS);
      rmSync(path);
      if (out.kind === 'error') {
        expect(out.name, `${path}: ${out.message}`).toBe('MatReadError');
        expect(out.message).toContain(path);
        expect(out.message.length).toBeGreaterThan(path.length + 10);
        if (truncated) {
          expect(out.message).toMatch(/: (the file is truncated|not an HDF5 file)/);
        }
      } else {
        expect(truncated, `${path} was read although truncated`).toBe(false);
        for (const w of out.warnings) expect(w).toMatch(/'[^']+'/);
      }
      outcomes.push(out.kind);
    }
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill('error'));
    // h5wasm's diagnostics are captured, not printed.
    expect(reader.stderr()).toBe('');
  });

  it('an undamaged copy still reads after all that', async () => {
    const path = join(dir, 'intact.mat');
    copyFileSync(join(DATASETS, 'Synthetic/synthetic_data.mat'), path);
    const out = await reader.read(path, TIMEOUT_MS);
    expect(out).toEqual({ kind: 'ok', variables: ['X', 'Y'], warnings: [] });
  });
});
