/**
 * The MAT v5 reader against an independent implementation (scipy.io, via
 * test/fixtures/mat/make.py) and against hand-built files for what scipy cannot write
 * (big-endian files, function handles, trailing bytes).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMatV5, readMatV5 } from '../../../src/io/mat/v5';
import type { MatFile, MatNumeric, MatSparse, MatValue } from '../../../src/io/mat/types';
import { MatReadError } from '../../../src/io/mat/types';
import { DATASETS, REPO, allMatFiles } from '../../helpers/paths';

const FIXTURES = join(REPO, 'test/fixtures/mat');

interface NumericSum {
  kind: 'numeric';
  dims: number[];
  nan: number;
  sum: number;
  sumsq: number;
  first: number | null;
  last: number | null;
}
interface SparseSum {
  kind: 'sparse';
  dims: number[];
  nnz: number;
  sum: number;
  sumsq: number;
}
const checksums = JSON.parse(readFileSync(join(FIXTURES, 'checksums.json'), 'utf8')) as Record<
  string,
  Record<string, NumericSum | SparseSum>
>;

/** Every numeric/sparse array reachable through cells, by path, as make.py names them. */
function flatten(file: MatFile): Map<string, MatValue> {
  const out = new Map<string, MatValue>();
  const walk = (v: MatValue, path: string): void => {
    if (v.type === 'cell') v.items.forEach((item, k) => walk(item, `${path}{${k + 1}}`));
    else if (v.type === 'numeric' || v.type === 'sparse') out.set(path, v);
  };
  for (const [name, v] of file.variables) walk(v, name);
  return out;
}

function close(actual: number, expected: number): void {
  const scale = Math.max(1, Math.abs(expected));
  expect(Math.abs(actual - expected) / scale).toBeLessThan(1e-12);
}

describe('MAT v5 reader against scipy.io.loadmat', () => {
  const v5files = allMatFiles().filter((f) => checksums[f] !== undefined);

  it('covers every v5 file of the shared data', () => {
    expect(v5files.length).toBe(59);
  });

  it.each(v5files)('%s: classes, dims and values', async (file) => {
    const mat = await readMatV5(join(DATASETS, file));
    expect(mat.version).toBe('v5');
    expect(mat.warnings).toEqual([]);
    const arrays = flatten(mat);
    const expected = checksums[file]!;
    expect([...arrays.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [path, exp] of Object.entries(expected)) {
      const v = arrays.get(path) as MatNumeric | MatSparse;
      expect(v.dims, path).toEqual(exp.dims);
      const values = v.type === 'sparse' ? v.pr : v.type === 'numeric' ? v.re : null;
      expect(values, path).not.toBeNull();
      let nan = 0;
      let sum = 0;
      let sumsq = 0;
      for (const x of values!) {
        if (Number.isNaN(x)) nan++;
        else if (Number.isFinite(x)) {
          sum += x;
          sumsq += x * x;
        }
      }
      close(sum, exp.sum);
      close(sumsq, exp.sumsq);
      if (exp.kind === 'numeric') {
        expect(nan, path).toBe(exp.nan);
        if (exp.first !== null) expect(values![0]).toBe(exp.first);
        if (exp.last !== null) expect(values!.at(-1)).toBe(exp.last);
      } else {
        expect(v.type).toBe('sparse');
        expect(values!.length).toBe(exp.nnz);
      }
    }
  });
});

describe('MAT v5 reader on scipy-written synthetic files', () => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, 'synthetic.json'), 'utf8')) as Record<
    string,
    {
      dims?: number[];
      re?: (number | string | null)[];
      im?: number[];
      text?: string;
      ir?: number[];
      jc?: number[];
      pr?: number[];
    }
  >;
  const decode = (x: number | string | null): number =>
    x === null ? NaN : typeof x === 'string' ? Number(x.replace('inf', 'Infinity')) : x;

  it.each(['synthetic.mat', 'synthetic_z.mat'])('%s', async (name) => {
    const mat = await readMatV5(join(FIXTURES, name));
    expect(mat.warnings).toEqual([]);
    const classes: Record<string, string> = {
      d: 'double',
      s: 'single',
      i8: 'int8',
      u8: 'uint8',
      i16: 'int16',
      u16: 'uint16',
      i32: 'int32',
      u32: 'uint32',
      i64: 'int64',
      u64: 'uint64',
      b: 'logical',
      z: 'double',
      nd: 'double',
      empty: 'double',
    };
    for (const [k, exp] of Object.entries(expected)) {
      const v = mat.variables.get(k)!;
      if (exp.text !== undefined) {
        expect(v).toMatchObject({ type: 'char', text: exp.text });
      } else if (exp.ir !== undefined) {
        expect(v.type).toBe('sparse');
        if (v.type !== 'sparse') continue;
        expect(v.dims).toEqual(exp.dims);
        expect(Array.from(v.ir)).toEqual(exp.ir);
        expect(Array.from(v.jc)).toEqual(exp.jc);
        expect(Array.from(v.pr)).toEqual(exp.pr);
      } else {
        expect(v.type, k).toBe('numeric');
        if (v.type !== 'numeric') continue;
        expect(v.class, k).toBe(classes[k]);
        expect(v.dims, k).toEqual(exp.dims);
        expect(Array.from(v.re), k).toEqual(exp.re!.map(decode));
        if (exp.im) expect(Array.from(v.im!), k).toEqual(exp.im);
      }
    }
    // Nested cells and structs, as make.py built them.
    const c = mat.variables.get('c')!;
    expect(c.type === 'cell' && c.dims).toEqual([1, 3]);
    if (c.type !== 'cell') return;
    expect(c.items[0]).toMatchObject({ type: 'numeric', dims: [2, 3] });
    expect(Array.from((c.items[0] as { re: Float64Array }).re)).toEqual([0, 3, 1, 4, 2, 5]);
    const inner = c.items[1]!;
    expect(inner.type === 'cell' && inner.dims).toEqual([2, 1]);
    if (inner.type === 'cell') {
      expect(inner.items[0]).toMatchObject({ type: 'numeric', dims: [1, 1] });
      expect(inner.items[1]).toMatchObject({ type: 'char', text: 'hi' });
    }
    expect(c.items[2]).toMatchObject({ type: 'numeric', class: 'logical', dims: [1, 2] });
    const st = mat.variables.get('st')!;
    expect(st.type).toBe('struct');
    if (st.type === 'struct') {
      expect([...st.fields].sort()).toEqual(['alpha', 'name']);
      expect(st.items[0]!['name']).toMatchObject({ type: 'char', text: 'abc' });
      expect(Array.from((st.items[0]!['alpha'] as { re: Float64Array }).re)).toEqual([1, 2]);
    }
  });
});

/**
 * A minimal MAT v5 writer for cases scipy cannot produce. Elements are written with full
 * (8-byte) tags unless `small` is set; `little` picks the byte order.
 */
class Writer {
  private chunks: number[] = [];
  constructor(private readonly little: boolean) {}

  private u32(x: number): number[] {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, x, this.little);
    return [...b];
  }

  element(type: number, data: number[], small = false): number[] {
    if (small && data.length <= 4) {
      const tag = this.u32(((data.length << 16) | type) >>> 0);
      return [...tag, ...data, ...new Array<number>(4 - data.length).fill(0)];
    }
    const pad = (8 - (data.length % 8)) % 8;
    return [
      ...this.u32(type),
      ...this.u32(data.length),
      ...data,
      ...new Array<number>(pad).fill(0),
    ];
  }

  doubles(xs: number[]): number[] {
    const b = new Uint8Array(xs.length * 8);
    const v = new DataView(b.buffer);
    xs.forEach((x, i) => v.setFloat64(i * 8, x, this.little));
    return [...b];
  }

  int32s(xs: number[]): number[] {
    const b = new Uint8Array(xs.length * 4);
    const v = new DataView(b.buffer);
    xs.forEach((x, i) => v.setInt32(i * 4, x, this.little));
    return [...b];
  }

  uint16s(xs: number[]): number[] {
    const b = new Uint8Array(xs.length * 2);
    const v = new DataView(b.buffer);
    xs.forEach((x, i) => v.setUint16(i * 2, x, this.little));
    return [...b];
  }

  /** An miMATRIX variable of the given class with the given parts after flags, dims, name. */
  matrix(cls: number, dims: number[], name: string, parts: number[][], small = true): void {
    const flags = this.element(6, [...this.u32(cls), ...this.u32(0)]);
    const d = this.element(5, this.int32s(dims), small);
    const n = this.element(1, [...new TextEncoder().encode(name)], small);
    const body = [...flags, ...d, ...n, ...parts.flat()];
    this.chunks.push(...this.element(14, body));
  }

  raw(bytes: number[]): void {
    this.chunks.push(...bytes);
  }

  bytes(): Uint8Array {
    const header = new Uint8Array(128).fill(0x20);
    header.set(
      new TextEncoder().encode('MATLAB 5.0 MAT-file, written by the Multiview Studio tests'),
    );
    const v = new DataView(header.buffer);
    v.setUint16(124, 0x0100, this.little);
    header.set(new TextEncoder().encode(this.little ? 'IM' : 'MI'), 126);
    return new Uint8Array([...header, ...this.chunks]);
  }
}

describe('MAT v5 reader on hand-built files', () => {
  it.each([true, false])('reads little-endian=%s files with full and small tags', (little) => {
    const w = new Writer(little);
    w.matrix(6, [2, 2], 'A', [w.element(9, w.doubles([1, 2, 3, 4.5]))], false);
    w.matrix(6, [1, 3], 'B', [w.element(4, w.uint16s([7, 65535, 0]))]);
    w.matrix(12, [1, 2], 'I', [w.element(5, w.int32s([-5, 6]))]);
    w.matrix(4, [1, 3], 'T', [w.element(4, w.uint16s([0x48, 0x69, 0x21]))]);
    const mat = parseMatV5(w.bytes(), 'mem.mat');
    expect(mat.warnings).toEqual([]);
    expect(mat.header).toBe('MATLAB 5.0 MAT-file, written by the Multiview Studio tests');
    expect(mat.variables.get('A')).toMatchObject({
      type: 'numeric',
      class: 'double',
      dims: [2, 2],
    });
    expect(Array.from((mat.variables.get('A') as { re: Float64Array }).re)).toEqual([1, 2, 3, 4.5]);
    expect(Array.from((mat.variables.get('B') as { re: Float64Array }).re)).toEqual([7, 65535, 0]);
    expect(mat.variables.get('I')).toMatchObject({ class: 'int32' });
    expect(Array.from((mat.variables.get('I') as { re: Float64Array }).re)).toEqual([-5, 6]);
    expect(mat.variables.get('T')).toMatchObject({ type: 'char', text: 'Hi!' });
  });

  it('reports a function handle by name and keeps the other variables', () => {
    const w = new Writer(true);
    w.matrix(16, [1, 1], 'f', [w.element(9, w.doubles([0]))]);
    w.matrix(6, [1, 1], 'x', [w.element(9, w.doubles([3]))]);
    const mat = parseMatV5(w.bytes(), 'mem.mat');
    expect(mat.variables.get('f')).toEqual({ type: 'unsupported', what: 'function handle' });
    expect(mat.warnings).toEqual([
      "variable 'f' is a function handle, which is not supported; it was skipped",
    ]);
    expect(Array.from((mat.variables.get('x') as { re: Float64Array }).re)).toEqual([3]);
  });

  it('stops at trailing bytes with a warning that lists the variables read', () => {
    const w = new Writer(true);
    w.matrix(6, [1, 1], 'x', [w.element(9, w.doubles([3]))]);
    w.matrix(6, [1, 1], 'y', [w.element(9, w.doubles([4]))]);
    w.raw([0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]);
    const mat = parseMatV5(w.bytes(), 'mem.mat');
    expect([...mat.variables.keys()]).toEqual(['x', 'y']);
    expect(mat.warnings).toHaveLength(1);
    expect(mat.warnings[0]).toMatch(/^stopped reading at byte \d+ of \d+: .*variables read: x, y$/);
  });

  it('skips a variable whose values do not fill its dims, naming it', () => {
    const w = new Writer(true);
    w.matrix(6, [2, 2], 'short', [w.element(9, w.doubles([1, 2, 3]))]);
    w.matrix(6, [1, 1], 'ok', [w.element(9, w.doubles([5]))]);
    const mat = parseMatV5(w.bytes(), 'mem.mat');
    expect([...mat.variables.keys()]).toEqual(['ok']);
    expect(mat.warnings[0]).toMatch(
      /variable 'short' could not be read.*expected 4 values, found 3/,
    );
  });

  it('refuses what is not a MAT v5 file with the path in the message', () => {
    expect(() => parseMatV5(new Uint8Array(10), 'tiny.mat')).toThrow(MatReadError);
    expect(() => parseMatV5(new Uint8Array(10), 'tiny.mat')).toThrow(/^tiny\.mat: too short/);
    expect(() => parseMatV5(new Uint8Array(200), 'zeros.mat')).toThrow(/endian indicator/);
  });
});
