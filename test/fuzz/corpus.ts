/**
 * The fuzz corpus: a seeded generator of damaged and hostile data files, one family per kind of
 * attack in issue 16. Case i is a pure function of (seed, i): its family comes from a fixed
 * cycle (so a few hundred files hold every family), its recipe from a rotation inside the family
 * (so every recipe appears), and its parameters from a PRNG keyed by (seed, i). Files are small
 * on disk: the bombs are a few hundred KB that inflate to GBs.
 *
 *   const bases = await prepareBases(dir);           // real + crafted originals, made once
 *   const c = await makeCase(dir, bases, seed, i);   // writes c.path, describes it in c.recipe
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { writeNpz } from '../../src/io/npz-write';
import { prng } from '../helpers/prng';
import {
  compressElement,
  compressedTag,
  f64Bytes,
  matFile,
  matHeader,
  matrixElement,
  npyDict,
  npyFile,
  rawDeflatePrefixZeros,
  zlibPrefixZeros,
} from './formats';
import type { MatValue } from './formats';

export const FAMILIES = [
  'valid',
  'truncate',
  'flip',
  'header',
  'dims',
  'mat-bomb',
  'npz-bomb',
  'special',
  'csv',
  'npy',
  'npz',
  'junk',
] as const;
export type Family = (typeof FAMILIES)[number];

/** How often each family comes up in one cycle of 40 cases. */
const WEIGHTS: Readonly<Record<Family, number>> = {
  valid: 2,
  truncate: 7,
  flip: 7,
  header: 5,
  dims: 2,
  'mat-bomb': 1,
  'npz-bomb': 1,
  special: 1,
  csv: 6,
  npy: 4,
  npz: 3,
  junk: 1,
};

/** The cycle, families interleaved so that any prefix of a few dozen cases mixes them. */
const CYCLE: readonly Family[] = (() => {
  const out: Family[] = [];
  const left = { ...WEIGHTS };
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  for (let slot = 0; slot < total; slot++) {
    // Largest remaining share first; ties in FAMILIES order (deterministic).
    let best: Family = FAMILIES[0];
    for (const f of FAMILIES) {
      if (left[f] / WEIGHTS[f] > left[best] / WEIGHTS[best]) best = f;
    }
    out.push(best);
    left[best]--;
  }
  return out;
})();

/** The family of case i, and how many cases of that family come before it. */
export function familyOf(i: number): { family: Family; ordinal: number } {
  const cycle = Math.floor(i / CYCLE.length);
  const pos = i % CYCLE.length;
  const family = CYCLE[pos]!;
  const before = CYCLE.slice(0, pos).filter((f) => f === family).length;
  return { family, ordinal: cycle * WEIGHTS[family] + before };
}

/**
 * How many cases of each slow family (a minute of CPU or a hang each on a loader without
 * bounds) the `npm test` selection keeps: enough for every recipe of `dims` and the first
 * five of `special` (both FIFOs, /dev/zero, /etc/passwd, a folder), two of each bomb.
 */
const TEST_CAPS: Readonly<Partial<Record<Family, number>>> = {
  dims: 9,
  'mat-bomb': 2,
  'npz-bomb': 2,
  special: 5,
};

/** The indices `npm test` runs: cases 0..span−1 with the slow families capped as above. */
export function testSelection(span: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < span; i++) {
    const { family, ordinal } = familyOf(i);
    const cap = TEST_CAPS[family];
    if (cap === undefined || ordinal < cap) out.push(i);
  }
  return out;
}

/** One generated file. */
export interface FuzzCase {
  readonly index: number;
  readonly family: Family;
  /** How the file was made, enough to make it again by hand. */
  readonly recipe: string;
  readonly path: string;
  /** Text of the file that no error message may quote (issue 16, point 2). */
  readonly secret?: string;
}

/** An original file the mutations start from. */
export interface Base {
  readonly name: string;
  readonly ext: string;
  readonly bytes: Uint8Array;
}

const SHARED = fileURLToPath(new URL('../../../shared/datasets', import.meta.url));
/** Small real files of each format in ../shared/datasets. */
const REAL = [
  'Synthetic/TwoMoon.mat', // MAT v5
  'Synthetic/ThreeRing.mat',
  'WebKB/Texas.mat',
  '3Sources/3sources3vbigRnSp_percentDel_0.1.mat', // a 710-byte folds file
  'Synthetic/synthetic_data.mat', // MAT v7.3 (HDF5)
];

/** A small two-view dataset made from scratch: views (30×3, 30×2) and labels 1..2. */
function scratchViews(): { x1: Float64Array; x2: Float64Array; y: Float64Array; n: number } {
  const r = prng(16);
  const n = 30;
  const y = Float64Array.from({ length: n }, (_, i) => (i < n / 2 ? 1 : 2));
  const blob = (d: number): Float64Array =>
    Float64Array.from({ length: n * d }, (_, k) => (y[k % n]! === 1 ? 0 : 4) + r() - 0.5);
  return { x1: blob(3), x2: blob(2), y, n };
}

function scratchMatVars(): [string, MatValue][] {
  const { x1, x2, y, n } = scratchViews();
  return [
    [
      'X',
      {
        kind: 'cell',
        dims: [1, 2],
        items: [
          { kind: 'double', dims: [n, 3], data: x1 },
          { kind: 'double', dims: [n, 2], data: x2 },
        ],
      },
    ],
    ['Y', { kind: 'double', dims: [n, 1], data: y }],
  ];
}

function scratchCsv(): string {
  const { x1, n } = scratchViews();
  const rows: string[] = [];
  for (let i = 0; i < n; i++) rows.push([0, 1, 2].map((j) => x1[j * n + i]!.toFixed(4)).join(','));
  return rows.join('\n') + '\n';
}

/** Row-major bytes of a column-major n×d block. */
function rowMajor(cm: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) out[i * d + j] = cm[j * n + i]!;
  return out;
}

/** Writes the crafted originals into `dir` and reads the real ones; call once per corpus. */
export async function prepareBases(dir: string): Promise<Base[]> {
  mkdirSync(dir, { recursive: true });
  const bases: Base[] = REAL.map((f) => ({
    name: f,
    ext: '.mat',
    bytes: readFileSync(join(SHARED, f)),
  }));
  const { x1, x2, y, n } = scratchViews();
  bases.push({ name: 'scratch-mat-plain', ext: '.mat', bytes: matFile(scratchMatVars(), false) });
  bases.push({ name: 'scratch-mat-z', ext: '.mat', bytes: matFile(scratchMatVars(), true) });
  bases.push({ name: 'scratch-csv', ext: '.csv', bytes: Buffer.from(scratchCsv()) });
  bases.push({
    name: 'scratch-npy',
    ext: '.npy',
    bytes: npyFile(npyDict('<f8', [n, 3]), f64Bytes(rowMajor(x1, n, 3))),
  });
  const npz = join(dir, 'base.npz');
  await writeNpz(npz, [
    { name: 'X1', shape: [n, 3], data: rowMajor(x1, n, 3) },
    { name: 'X2', shape: [n, 2], data: rowMajor(x2, n, 2) },
    { name: 'Y', shape: [n], data: y },
  ]);
  bases.push({ name: 'scratch-npz (io/npz-write)', ext: '.npz', bytes: readFileSync(npz) });
  return bases;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

function u32le(...xs: number[]): Uint8Array {
  const b = new Uint8Array(xs.length * 4);
  const v = new DataView(b.buffer);
  xs.forEach((x, i) => v.setUint32(i * 4, x >>> 0, true));
  return b;
}

/** What a recipe produces: bytes to write, or a special file made by `make`. */
type Made =
  | { recipe: string; ext: string; bytes: Uint8Array; secret?: string }
  | { recipe: string; ext: string; make: (path: string) => void; secret?: string };

// ---------------------------------------------------------------------------------------------
// Families

function truncate(r: Rand, bases: readonly Base[]): Made {
  const b = pick(r, bases);
  // Half the cuts inside the first 600 bytes, where the headers are.
  const cut =
    r() < 0.5 ? int(r, 0, Math.min(600, b.bytes.length - 1)) : int(r, 0, b.bytes.length - 1);
  return {
    recipe: `${b.name} truncated to ${cut} of ${b.bytes.length} bytes`,
    ext: b.ext,
    bytes: b.bytes.subarray(0, cut),
  };
}

function flip(r: Rand, bases: readonly Base[]): Made {
  const b = pick(r, bases);
  const copy = Uint8Array.from(b.bytes);
  const flips = int(r, 1, 8);
  const at: string[] = [];
  for (let f = 0; f < flips; f++) {
    const p = r() < 0.3 ? int(r, 0, Math.min(700, copy.length - 1)) : int(r, 0, copy.length - 1);
    const x = int(r, 1, 255);
    copy[p] = copy[p]! ^ x;
    at.push(`@${p}^0x${x.toString(16)}`);
  }
  return { recipe: `${b.name} with bytes xored ${at.join(' ')}`, ext: b.ext, bytes: copy };
}

const NASTY = [0, 1, 2, 7, 8, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0, 0x10000, 3000000];

function header(r: Rand): Made {
  const vars = scratchMatVars();
  const v = int(r, 0, vars.length - 1);
  const [name, value] = vars[v]!;
  const el = matrixElement(name, value);
  const fields = Object.keys(el.fields);
  const field = pick(r, fields);
  const bytes = Uint8Array.from(el.bytes);
  const orig = new DataView(bytes.buffer).getUint32(el.fields[field]!, true);
  const nasty =
    r() < 0.2
      ? int(r, 0, 0xffffffff)
      : r() < 0.2
        ? (orig + pick(r, [1, -1, 8, -8])) >>> 0
        : pick(r, NASTY);
  new DataView(bytes.buffer).setUint32(el.fields[field]!, nasty, true);
  const compress = r() < 0.5;
  const parts: Uint8Array[] = [matHeader()];
  vars.forEach(([nm, val], k) => {
    const b = k === v ? bytes : matrixElement(nm, val).bytes;
    parts.push(compress ? compressElement(b) : b);
  });
  let extra = '';
  if (compress && r() < 0.25) {
    // Then lie in the miCOMPRESSED tag of the first variable as well.
    const first = parts[1]!;
    const lie = pick(r, [0, 1, 0xffffffff, first.length, 14]);
    const field2 = r() < 0.5 ? 'type' : 'nbytes';
    new DataView(first.buffer, first.byteOffset).setUint32(field2 === 'type' ? 0 : 4, lie, true);
    extra = `, and miCOMPRESSED ${field2} of '${vars[0]![0]}' set to 0x${lie.toString(16)}`;
  }
  return {
    recipe: `scratch MAT v5 (X cell 30x3/30x2, Y 30x1, ${compress ? 'compressed' : 'plain'}): '${name}' field ${field} 0x${orig.toString(16)} -> 0x${nasty.toString(16)}${extra}`,
    ext: '.mat',
    bytes: Buffer.concat(parts),
  };
}

function dims(r: Rand, ordinal: number): Made {
  const big = 2 ** 31 - 1;
  const sparse = (rows: number): MatValue => ({
    kind: 'sparse',
    dims: [rows, 1],
    ir: Int32Array.of(0),
    jc: Int32Array.of(0, 1),
    pr: Float64Array.of(1),
  });
  const recipes: (() => Made)[] = [
    () => ({
      recipe: 'MAT v5, plain: X = cell {sparse (2^31-1)x1, sparse (2^31-1)x1}, one nonzero each',
      ext: '.mat',
      bytes: matFile(
        [['X', { kind: 'cell', dims: [1, 2], items: [sparse(big), sparse(big)] }]],
        false,
      ),
    }),
    () => ({
      recipe: 'MAT v5, compressed: X = 1e9 x 1e9 double holding 1 value',
      ext: '.mat',
      bytes: matFile([['X', { kind: 'double', dims: [1e9, 1e9], data: Float64Array.of(1) }]], true),
    }),
    () => ({
      recipe: 'MAT v5, plain: V1 and V2 (2^31-1)x0 double (empty, huge n), Y (2^31-1)x0',
      ext: '.mat',
      bytes: matFile(
        [
          ['V1', { kind: 'double', dims: [big, 0], data: new Float64Array(0) }],
          ['V2', { kind: 'double', dims: [big, 0], data: new Float64Array(0) }],
          ['Y', { kind: 'double', dims: [big, 0], data: new Float64Array(0) }],
        ],
        false,
      ),
    }),
    () => ({
      recipe: 'MAT v5, plain: X = cell declared (2^31-1)x1 holding 2 items',
      ext: '.mat',
      bytes: matFile(
        [
          [
            'X',
            {
              kind: 'cell',
              dims: [big, 1],
              items: [
                { kind: 'double', dims: [2, 2], data: Float64Array.of(1, 2, 3, 4) },
                { kind: 'double', dims: [2, 2], data: Float64Array.of(1, 2, 3, 4) },
              ],
            },
          ],
        ],
        false,
      ),
    }),
    () => ({
      recipe: 'MAT v5, plain: X double with 64 dims of 2 (2^64 elements), 1 value',
      ext: '.mat',
      bytes: matFile(
        [['X', { kind: 'double', dims: new Array<number>(64).fill(2), data: Float64Array.of(1) }]],
        false,
      ),
    }),
    () => ({
      recipe:
        'MAT v5, plain: X = cell {sparse 1000x(2^31-1)... as (2^31-1)x(2^31-1) with nzmax 0x7fffffff, 1 value}',
      ext: '.mat',
      bytes: (() => {
        const el = matrixElement('X', {
          kind: 'sparse',
          dims: [big, big],
          ir: Int32Array.of(0),
          jc: Int32Array.of(0, 1),
          pr: Float64Array.of(1),
        });
        const b = Uint8Array.from(el.bytes);
        new DataView(b.buffer).setUint32(el.fields['flags.nzmax']!, big, true);
        return Buffer.concat([matHeader(), b]);
      })(),
    }),
    () => ({
      recipe: "NPY '<f8' shape (2147483647, 1) with 8 bytes of data",
      ext: '.npy',
      bytes: npyFile(npyDict('<f8', [big, 1]), new Uint8Array(8)),
    }),
    () => ({
      recipe: "NPY '<f8' shape (4294967296, 4294967296) with 16 bytes of data",
      ext: '.npy',
      bytes: npyFile(npyDict('<f8', [2 ** 32, 2 ** 32]), new Uint8Array(16)),
    }),
    () => ({
      recipe: "NPY '<f8' shape (0, 2147483647) (empty, huge d)",
      ext: '.npy',
      bytes: npyFile(npyDict('<f8', [0, big]), new Uint8Array(0)),
    }),
  ];
  void r;
  return recipes[ordinal % recipes.length]!();
}

/**
 * Many compressed variables, each far under the per-variable inflate cap, stored as miUINT8
 * (each inflated byte becomes an 8-byte double), sharing one deflated run of zeros.
 */
function matBomb(r: Rand): Made {
  const mib = pick(r, [16, 32]);
  const n = mib * 2 ** 20;
  const count = int(r, 10, 24);
  const parts: Uint8Array[] = [matHeader()];
  for (let v = 0; v < count; v++) {
    const el = matrixElement(`V${v + 1}`, {
      kind: 'double',
      dims: [n, 1],
      data: new Float64Array(0),
      storage: 'uint8',
    });
    const prefix = Uint8Array.from(el.bytes);
    const dv = new DataView(prefix.buffer);
    dv.setUint32(el.fields['real.nbytes']!, n, true);
    dv.setUint32(
      el.fields['matrix.nbytes']!,
      dv.getUint32(el.fields['matrix.nbytes']!, true) + n,
      true,
    );
    parts.push(compressedTag(zlibPrefixZeros(prefix, n)));
  }
  const total = count * n;
  return {
    recipe: `MAT v5 total-inflate bomb: ${count} compressed variables V1..V${count}, each ${n}x1 double stored as miUINT8 zeros (${mib} MiB inflated, ${8 * mib} MiB as doubles; ${(total / 2 ** 30).toFixed(2)} GiB inflated in all)`,
    ext: '.mat',
    bytes: Buffer.concat(parts),
  };
}

const crcCache = new Map<string, number>();

/** A ZIP whose `count` central-directory entries all point at one deflated member. */
function npzBomb(r: Rand): Made {
  const mib = pick(r, [8, 16, 32]);
  const dtype = pick(r, ['<f8', '|u1']);
  const count = int(r, 64, 200);
  const itemSize = dtype === '<f8' ? 8 : 1;
  const zeros = mib * 2 ** 20;
  const head = npyFile(npyDict(dtype, [zeros / itemSize]), new Uint8Array(0));
  const size = head.length + zeros;
  const key = `${dtype}:${zeros}`;
  let crc = crcCache.get(key);
  if (crc === undefined) {
    crc = crc32(Buffer.alloc(zeros), crc32(head)) >>> 0;
    crcCache.set(key, crc);
  }
  const packed = rawDeflatePrefixZeros(head, zeros);
  const member = 'X0.npy';
  const entries: Uint8Array[] = [];
  const local = zipLocal(member, 8, crc, packed.length, size);
  entries.push(local, packed);
  const cdStart = local.length + packed.length;
  const central: Uint8Array[] = [];
  for (let k = 0; k < count; k++)
    central.push(zipCentral(`X${k}.npy`, 8, crc, packed.length, size, 0));
  const cd = Buffer.concat(central);
  return {
    recipe: `NPZ overlap bomb: ${count} central-directory entries X0..X${count - 1}.npy all pointing at one deflated '${dtype}' member of ${mib} MiB zeros (${((count * size) / 2 ** 30).toFixed(2)} GiB inflated in all)`,
    ext: '.npz',
    bytes: Buffer.concat([...entries, cd, zipEnd(count, cd.length, cdStart)]),
  };
}

function zipLocal(
  name: string,
  method: number,
  crc: number,
  csize: number,
  size: number,
): Uint8Array {
  const n = Buffer.from(name);
  const b = Buffer.alloc(30 + n.length);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(20, 4);
  b.writeUInt16LE(method, 8);
  b.writeUInt32LE(crc >>> 0, 14);
  b.writeUInt32LE(csize >>> 0, 18);
  b.writeUInt32LE(size >>> 0, 22);
  b.writeUInt16LE(n.length, 26);
  n.copy(b, 30);
  return b;
}

function zipCentral(
  name: string,
  method: number,
  crc: number,
  csize: number,
  size: number,
  offset: number,
): Uint8Array {
  const n = Buffer.from(name);
  const b = Buffer.alloc(46 + n.length);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(20, 4);
  b.writeUInt16LE(20, 6);
  b.writeUInt16LE(method, 10);
  b.writeUInt32LE(crc >>> 0, 16);
  b.writeUInt32LE(csize >>> 0, 20);
  b.writeUInt32LE(size >>> 0, 24);
  b.writeUInt16LE(n.length, 28);
  b.writeUInt32LE(offset >>> 0, 42);
  n.copy(b, 46);
  return b;
}

function zipEnd(count: number, cdSize: number, cdOffset: number): Uint8Array {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(Math.min(count, 0xffff), 8);
  b.writeUInt16LE(Math.min(count, 0xffff), 10);
  b.writeUInt32LE(cdSize >>> 0, 12);
  b.writeUInt32LE(cdOffset >>> 0, 16);
  return b;
}

/** FIFOs, devices, folders and a system file behind a data file's name. */
function special(ordinal: number): Made {
  const fifo = (ext: string): Made => ({
    recipe: `a FIFO (mkfifo) named *${ext}, no writer`,
    ext,
    make: (p) => execFileSync('mkfifo', [p]),
  });
  const link = (target: string, ext: string, secret?: string): Made => ({
    recipe: `a symlink *${ext} -> ${target}`,
    ext,
    make: (p) => symlinkSync(target, p),
    ...(secret !== undefined ? { secret } : {}),
  });
  const passwdLine = (() => {
    try {
      return readFileSync('/etc/passwd', 'utf8').split('\n')[0] ?? '';
    } catch {
      return '';
    }
  })();
  const recipes: (() => Made)[] = [
    () => fifo('.csv'),
    () => fifo('.mat'),
    () => link('/dev/zero', '.csv'),
    () => link('/etc/passwd', '.csv', passwdLine.length > 8 ? passwdLine : undefined),
    () => ({ recipe: 'a folder named *.mat', ext: '.mat', make: (p) => mkdirSync(p) }),
    () => link('/dev/urandom', '.npy'),
    () => fifo('.npz'),
  ];
  return recipes[ordinal % recipes.length]!();
}

function csv(r: Rand, ordinal: number): Made {
  const base = scratchCsv();
  const lines = base.trimEnd().split('\n');
  const row = int(r, 0, lines.length - 1);
  const setCell = (text: string): string => {
    const copy = lines.slice();
    const cells = copy[row]!.split(',');
    cells[int(r, 0, cells.length - 1)] = text;
    copy[row] = cells.join(',');
    return copy.join('\n') + '\n';
  };
  const junk = (): Uint8Array => Uint8Array.from({ length: int(r, 16, 400) }, () => int(r, 0, 255));
  const recipes: [string, () => string | Uint8Array][] = [
    ['only empty cells (",,\\n,,\\n")', () => ',,\n,,\n'.repeat(int(r, 1, 5))],
    ['a lone double quote in a cell', () => setCell('"12')],
    ['one cell 1e200', () => setCell('1e200')],
    ['one cell 1e999', () => setCell('1e999')],
    ['one cell NaN (text)', () => setCell('NaN')],
    [
      'ragged rows',
      () => lines.map((l, i) => (i % 3 === 1 ? l.split(',').slice(0, 2).join(',') : l)).join('\n'),
    ],
    ['UTF-8 BOM in front', () => '\ufeff' + base],
    ['binary junk appended', () => Buffer.concat([Buffer.from(base), junk()])],
    ['pure binary junk', () => junk()],
    ['a header row only', () => 'a,b,c\n'],
    ['one cell', () => '5\n'],
    ['CRLF line ends and a trailing blank line', () => base.replace(/\n/g, '\r\n') + '\r\n'],
    ['NUL bytes in a cell', () => setCell('1\u0000\u00002')],
    ['a quoted cell with a newline', () => setCell('"1\n2"')],
    [
      'one row of 50000 columns',
      () => Array.from({ length: 50000 }, (_, k) => k % 7).join(',') + '\n',
    ],
    [
      'one column of 20000 rows',
      () => Array.from({ length: 20000 }, (_, k) => k % 11).join('\n') + '\n',
    ],
    ['one cell Infinity', () => setCell('Infinity')],
    ['one cell "-"', () => setCell('-')],
    ['one cell " 5 " and one 0x10', () => setCell(' 5 ').replace(/^([^,\n]+)/, '0x10')],
    ['every row identical', () => (lines[0]! + '\n').repeat(30)],
    [
      'UTF-16LE with BOM',
      () => Buffer.concat([Uint8Array.of(0xff, 0xfe), Buffer.from(base, 'utf16le')]),
    ],
    [
      'a header row then numbers, semicolons as separators',
      () => 'a;b;c\n' + base.replace(/,/g, ';'),
    ],
    ['all NaN cells', () => lines.map((l) => l.replace(/[^,]+/g, 'NaN')).join('\n')],
    ['an unterminated quote at the start', () => '"' + base],
  ];
  const [what, make] = recipes[ordinal % recipes.length]!;
  const out = make();
  return {
    recipe: `CSV (30x3 from scratch): ${what}`,
    ext: '.csv',
    bytes: typeof out === 'string' ? Buffer.from(out) : out,
  };
}

function npy(r: Rand, ordinal: number): Made {
  const n = 30;
  const d = 3;
  const data = f64Bytes(Float64Array.from({ length: n * d }, () => r() * 4));
  const withLen = (file: Uint8Array, len: number): Uint8Array => {
    const b = Uint8Array.from(file);
    new DataView(b.buffer).setUint16(8, len & 0xffff, true);
    return b;
  };
  const nanData = (): Uint8Array => {
    const a = Float64Array.from({ length: n * d }, () => r());
    a[int(r, 0, a.length - 1)] = pick(r, [NaN, Infinity, -Infinity, 1e300]);
    return f64Bytes(a);
  };
  const recipes: [string, () => Uint8Array][] = [
    [
      'header length says 65535 in a 800-byte file',
      () => withLen(npyFile(npyDict('<f8', [n, d]), data), 0xffff),
    ],
    ['header length 0', () => withLen(npyFile(npyDict('<f8', [n, d]), data), 0)],
    ["dtype lie: '<f4' over 30x3 doubles", () => npyFile(npyDict('<f4', [n, d]), data)],
    [
      "dtype lie: '<f8' shape (30, 3) over 30x3 float32",
      () => npyFile(npyDict('<f8', [n, d]), data.subarray(0, n * d * 4)),
    ],
    ['shape (60, 3) over 30x3 doubles', () => npyFile(npyDict('<f8', [2 * n, d]), data)],
    ['shape (10, 3) over 30x3 doubles', () => npyFile(npyDict('<f8', [10, d]), data)],
    ['shape (-30, 3)', () => npyFile(npyDict('<f8', [-n, d]), data)],
    ["dtype '|O' (object)", () => npyFile(npyDict('|O', [n, d]), data)],
    ["dtype '<c16'", () => npyFile(npyDict('<c16', [n, d / 3]), data.subarray(0, n * 16))],
    ["big-endian '>f8' (valid)", () => npyFile(npyDict('>f8', [n, d]), data)],
    [
      'fortran_order True (valid)',
      () => npyFile(npyDict('<f8', [n, d]).replace('False', 'True'), data),
    ],
    [
      'version 3.0 header length 0xffffffff',
      () => {
        const b = npyFile(npyDict('<f8', [n, d]), data, 3);
        new DataView(b.buffer).setUint32(8, 0xffffffff, true);
        return b;
      },
    ],
    ["no 'shape' key", () => npyFile("{'descr': '<f8', 'fortran_order': False, }", data)],
    [
      'shape is a Python expression',
      () =>
        npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (__import__('os'), 3), }", data),
    ],
    ['a NaN/Inf/1e300 value (valid file)', () => npyFile(npyDict('<f8', [n, d]), nanData())],
    [
      "'|u1' data (valid)",
      () =>
        npyFile(
          npyDict('|u1', [n, d]),
          Uint8Array.from({ length: n * d }, () => int(r, 0, 255)),
        ),
    ],
    ['3-D shape (5, 6, 3)', () => npyFile(npyDict('<f8', [5, 6, 3]), data)],
    [
      'non-ASCII bytes in the header',
      () => npyFile(npyDict('<f8', [n, d]).replace('descr', 'd\u00e9scr'), data),
    ],
    [
      'header with no closing brace or newline',
      () => {
        const b = npyFile(npyDict('<f8', [n, d]), data);
        b[10 + new DataView(b.buffer).getUint16(8, true) - 1] = 0x20;
        return b;
      },
    ],
    [
      "dtype '<f8' shape (30, 3) with one byte missing",
      () => npyFile(npyDict('<f8', [n, d]), data.subarray(0, data.length - 1)),
    ],
    [
      "dtype '<i8' 30x3 of 2^62",
      () =>
        npyFile(
          npyDict('<i8', [n, d]),
          (() => {
            const a = new BigInt64Array(n * d).fill(2n ** 62n);
            return new Uint8Array(a.buffer);
          })(),
        ),
    ],
  ];
  const [what, make] = recipes[ordinal % recipes.length]!;
  return { recipe: `NPY (30x3 from scratch): ${what}`, ext: '.npy', bytes: make() };
}

function npz(r: Rand, ordinal: number, bases: readonly Base[]): Made {
  const base = bases.find((b) => b.ext === '.npz')!.bytes;
  const b = Buffer.from(base);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const cdOffset = b.readUInt32LE(eocd + 16);
  const set32 = (at: number, x: number): void => {
    b.writeUInt32LE(x >>> 0, at);
  };
  const set16 = (at: number, x: number): void => {
    b.writeUInt16LE(x & 0xffff, at);
  };
  const recipes: [string, () => Uint8Array][] = [
    ['central-directory offset past the end', () => (set32(eocd + 16, b.length + 100), b)],
    ['central-directory offset 0', () => (set32(eocd + 16, 0), b)],
    ['entry count 65535', () => (set16(eocd + 8, 0xffff), set16(eocd + 10, 0xffff), b)],
    [
      "first entry's local-header offset past the end",
      () => (set32(cdOffset + 42, b.length + 4096), b),
    ],
    ["first entry's compressed size 0xffffffff", () => (set32(cdOffset + 20, 0xffffffff), b)],
    ["first entry's size 0xfffffff0 (stored)", () => (set32(cdOffset + 24, 0xfffffff0), b)],
    ['first entry method 8 over stored data', () => (set16(cdOffset + 10, 8), b)],
    ['first entry method 12 (bzip2)', () => (set16(cdOffset + 10, 12), b)],
    ["first entry's name length 65535", () => (set16(cdOffset + 28, 0xffff), b)],
    ['first entry CRC wrong', () => (set32(cdOffset + 16, 0xdeadbeef), b)],
    [
      'the first entry repeated (two X1.npy)',
      () => {
        const n1 = b.readUInt16LE(cdOffset + 28);
        const e1 = b.subarray(cdOffset, cdOffset + 46 + n1);
        const cd = Buffer.concat([b.subarray(cdOffset, eocd), e1]);
        const end = Buffer.from(b.subarray(eocd));
        end.writeUInt16LE(end.readUInt16LE(8) + 1, 8);
        end.writeUInt16LE(end.readUInt16LE(10) + 1, 10);
        end.writeUInt32LE(cd.length, 12);
        return Buffer.concat([b.subarray(0, cdOffset), cd, end]);
      },
    ],
    [
      'a member that is text, not .npy',
      () => {
        const text = Buffer.from('hello,world\n');
        const crc = crc32(text) >>> 0;
        const local = zipLocal('X1.npy', 0, crc, text.length, text.length);
        const cd = zipCentral('X1.npy', 0, crc, text.length, text.length, 0);
        return Buffer.concat([local, text, cd, zipEnd(1, cd.length, local.length + text.length)]);
      },
    ],
    ['an empty archive (end record only)', () => zipEnd(0, 0, 0)],
    [
      'a deflated member declaring 2^32-1 bytes from 20',
      () => {
        const junk = Buffer.alloc(20, 0x33);
        const local = zipLocal('X1.npy', 8, 0, junk.length, 0xffffffff);
        const cd = zipCentral('X1.npy', 8, 0, junk.length, 0xffffffff, 0);
        return Buffer.concat([local, junk, cd, zipEnd(1, cd.length, local.length + junk.length)]);
      },
    ],
    [
      'ZIP64 end record with absurd sizes',
      () => {
        const z64 = Buffer.alloc(56);
        z64.writeUInt32LE(0x06064b50, 0);
        z64.writeBigUInt64LE(44n, 4);
        z64.writeBigUInt64LE(2n ** 40n, 24);
        z64.writeBigUInt64LE(2n ** 40n, 32);
        z64.writeBigUInt64LE(2n ** 50n, 40);
        z64.writeBigUInt64LE(0n, 48);
        const loc = Buffer.alloc(20);
        loc.writeUInt32LE(0x07064b50, 0);
        loc.writeBigUInt64LE(BigInt(cdOffset), 8);
        const end = Buffer.from(b.subarray(eocd));
        end.writeUInt16LE(0xffff, 8);
        end.writeUInt16LE(0xffff, 10);
        end.writeUInt32LE(0xffffffff, 12);
        end.writeUInt32LE(0xffffffff, 16);
        return Buffer.concat([b.subarray(0, eocd), z64, loc, end]);
      },
    ],
    ['local header name length lie (65535)', () => (set16(28, 0xffff), b)],
  ];
  void r;
  const [what, make] = recipes[ordinal % recipes.length]!;
  return {
    recipe: `NPZ (X1 30x3, X2 30x2, Y 30, io/npz-write): ${what}`,
    ext: '.npz',
    bytes: make(),
  };
}

function junk(r: Rand, ordinal: number): Made {
  const body = (): Uint8Array =>
    Uint8Array.from({ length: int(r, 64, 4096) }, () => int(r, 0, 255));
  const recipes: [string, string, () => Uint8Array][] = [
    ['a MAT v5 header then random bytes', '.mat', () => Buffer.concat([matHeader(), body()])],
    [
      '512 random bytes, the HDF5 signature, random bytes',
      '.mat',
      () => {
        const b = Buffer.concat([
          body().subarray(0, 0),
          Buffer.alloc(512),
          Uint8Array.of(0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a),
          body(),
        ]);
        return b;
      },
    ],
    [
      'the NPY magic then random bytes',
      '.npy',
      () => Buffer.concat([Uint8Array.of(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0), body()]),
    ],
    [
      'PK\\x03\\x04 then random bytes',
      '.npz',
      () => Buffer.concat([Uint8Array.of(0x50, 0x4b, 0x03, 0x04), body()]),
    ],
    ['random bytes', '.mat', () => body()],
    [
      'a MAT v5 header then a u32 tag of 14 declaring 0xfffffff0 bytes',
      '.mat',
      () => Buffer.concat([matHeader(), u32le(14, 0xfffffff0), new Uint8Array(64)]),
    ],
    ['a MAT v5 header only (128 bytes)', '.mat', () => matHeader()],
  ];
  const [what, ext, make] = recipes[ordinal % recipes.length]!;
  return { recipe: `from scratch: ${what}`, ext, bytes: make() };
}

function valid(ordinal: number, bases: readonly Base[]): Made {
  const b = bases[ordinal % bases.length]!;
  return { recipe: `${b.name} unchanged`, ext: b.ext, bytes: b.bytes };
}

/** Writes case `index` of the corpus for `seed` into `dir`. */
export function makeCase(
  dir: string,
  bases: readonly Base[],
  seed: number,
  index: number,
): FuzzCase {
  const { family, ordinal } = familyOf(index);
  const r = prng((seed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0);
  let made: Made;
  switch (family) {
    case 'valid':
      made = valid(ordinal, bases);
      break;
    case 'truncate':
      made = truncate(r, bases);
      break;
    case 'flip':
      made = flip(r, bases);
      break;
    case 'header':
      made = header(r);
      break;
    case 'dims':
      made = dims(r, ordinal);
      break;
    case 'mat-bomb':
      made = matBomb(r);
      break;
    case 'npz-bomb':
      made = npzBomb(r);
      break;
    case 'special':
      made = special(ordinal);
      break;
    case 'csv':
      made = csv(r, ordinal);
      break;
    case 'npy':
      made = npy(r, ordinal);
      break;
    case 'npz':
      made = npz(r, ordinal, bases);
      break;
    case 'junk':
      made = junk(r, ordinal);
      break;
  }
  const path = join(dir, `${String(index).padStart(5, '0')}-${family}${made.ext}`);
  if ('bytes' in made) writeFileSync(path, made.bytes);
  else made.make(path);
  return {
    index,
    family,
    recipe: made.recipe,
    path,
    ...(made.secret !== undefined ? { secret: made.secret } : {}),
  };
}
