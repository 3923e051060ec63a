/**
 * Writes MAT-files version 5 (what MATLAB's `save -v6` writes, read by MATLAB's `load`,
 * Octave and scipy.io.loadmat): double matrices, char row vectors and cells of them,
 * uncompressed, little-endian.
 *
 * Layout (MATLAB's "MAT-File Format", level 5): a 128-byte header (116 bytes of text, an
 * 8-byte subsystem offset left zero, version 0x0100, the endian indicator "IM"), then one
 * miMATRIX element per variable. An element is an 8-byte tag (data type, byte count) and its
 * data padded to a multiple of 8 bytes. An miMATRIX holds array flags (miUINT32: the class in
 * the low byte), dimensions (miINT32), the name (miINT8), then the class's parts: a double's
 * real part (miDOUBLE, column-major), a char's code units (miUTF16), a cell's items (one
 * unnamed miMATRIX each, column-major). No miCOMPRESSED: every size is known before writing,
 * so a variable is written as its values are produced, one matrix at a time.
 *
 * Byte counts are uint32: a variable of 4 GiB or more is refused with its name.
 * The file is written to a temporary file and renamed (io/atomic.ts).
 */
import { endianness } from 'node:os';
import { writeFileAtomicWith } from '../atomic';

/** A value to write. Dense data is column-major, as MATLAB stores it. */
export type MatWriteValue =
  | {
      readonly type: 'double';
      readonly rows: number;
      readonly cols: number;
      /** (rows · cols,) column-major, or a function producing it when the matrix is written. */
      readonly data: Float64Array | (() => Float64Array);
    }
  | { readonly type: 'char'; readonly text: string }
  | {
      readonly type: 'cell';
      readonly rows: number;
      readonly cols: number;
      /** rows · cols items, column-major. */
      readonly items: readonly MatWriteValue[];
    };

export interface MatWriteVariable {
  /** A MATLAB identifier: a letter, then letters, digits or underscores (at most 63). */
  readonly name: string;
  readonly value: MatWriteValue;
}

const miINT8 = 1;
const miINT32 = 5;
const miUINT32 = 6;
const miDOUBLE = 9;
const miMATRIX = 14;
const miUTF16 = 17;
const mxCELL = 1;
const mxCHAR = 4;
const mxDOUBLE = 6;
const UINT32_LIMIT = 0xffffffff;

// Arithmetic, not bit operations: sizes may pass 2^31 and are checked against 2^32 after.
const pad8 = (n: number): number => Math.ceil(n / 8) * 8;
/** Bytes of an element with `n` data bytes: its tag and its padded data. */
const element = (n: number): number => 8 + pad8(n);

function dimsOf(v: MatWriteValue): [number, number] {
  return v.type === 'char' ? [1, v.text.length] : [v.rows, v.cols];
}

/** Bytes of an miMATRIX's data (what its tag counts), the tag itself excluded. */
function matrixBytes(v: MatWriteValue, name: string): number {
  let n = element(8) + element(8) + element(name.length);
  if (v.type === 'double') n += element(8 * v.rows * v.cols);
  else if (v.type === 'char') n += element(2 * v.text.length);
  else for (const item of v.items) n += 8 + matrixBytes(item, '');
  return n;
}

function check(v: MatWriteValue, where: string): void {
  if (v.type === 'char') return;
  if (!Number.isSafeInteger(v.rows) || !Number.isSafeInteger(v.cols) || v.rows < 0 || v.cols < 0) {
    throw new RangeError(`writeMatV5: ${where} has bad dimensions ${v.rows}×${v.cols}`);
  }
  if (v.type === 'double' && typeof v.data !== 'function' && v.data.length !== v.rows * v.cols) {
    throw new RangeError(
      `writeMatV5: ${where} has ${v.data.length} values, not ${v.rows}×${v.cols}`,
    );
  }
  if (v.type === 'cell') {
    if (v.items.length !== v.rows * v.cols) {
      throw new RangeError(
        `writeMatV5: ${where} has ${v.items.length} items, not ${v.rows}×${v.cols}`,
      );
    }
    v.items.forEach((item, i) => check(item, `${where}{${i + 1}}`));
  }
}

/** Writes `variables` to `path` as a MAT v5 file, atomically. */
export async function writeMatV5(
  path: string,
  variables: readonly MatWriteVariable[],
): Promise<void> {
  if (endianness() !== 'LE') throw new Error('writeMatV5: a little-endian machine is required');
  const names = new Set<string>();
  for (const { name, value } of variables) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,62}$/.test(name) || names.has(name)) {
      throw new Error(`writeMatV5: bad or repeated variable name '${name}'`);
    }
    names.add(name);
    check(value, `'${name}'`);
    if (matrixBytes(value, name) > UINT32_LIMIT) {
      throw new RangeError(
        `writeMatV5: '${name}' would take 4 GiB or more (MAT v5 cannot hold it)`,
      );
    }
  }
  await writeFileAtomicWith(path, async (fh) => {
    const write = async (b: Uint8Array): Promise<void> => {
      await fh.write(b);
    };
    const header = new Uint8Array(128);
    const text = `MATLAB 5.0 MAT-file, Platform: ${process.platform}, Created by: Multiview Studio`;
    header.fill(0x20, 0, 116);
    for (let i = 0; i < Math.min(116, text.length); i++) header[i] = text.charCodeAt(i) & 0x7f;
    new DataView(header.buffer).setUint16(124, 0x0100, true);
    header[126] = 0x49; // 'I'
    header[127] = 0x4d; // 'M'
    await write(header);
    for (const { name, value } of variables) await writeMatrix(write, value, name);
  });
}

/** A tag, plus small data with its padding. */
function tagged(type: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(element(data.length));
  const dv = new DataView(out.buffer);
  dv.setUint32(0, type, true);
  dv.setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

async function writeMatrix(
  write: (b: Uint8Array) => Promise<void>,
  v: MatWriteValue,
  name: string,
): Promise<void> {
  const head = new Uint8Array(8);
  const hv = new DataView(head.buffer);
  hv.setUint32(0, miMATRIX, true);
  hv.setUint32(4, matrixBytes(v, name), true);
  const flags = new Uint8Array(8);
  flags[0] = v.type === 'double' ? mxDOUBLE : v.type === 'char' ? mxCHAR : mxCELL;
  const [rows, cols] = dimsOf(v);
  const dims = new Uint8Array(8);
  new DataView(dims.buffer).setInt32(0, rows, true);
  new DataView(dims.buffer).setInt32(4, cols, true);
  const nameBytes = Uint8Array.from(name, (c) => c.charCodeAt(0));
  await write(head);
  await write(tagged(miUINT32, flags));
  await write(tagged(miINT32, dims));
  await write(tagged(miINT8, nameBytes));
  if (v.type === 'char') {
    const units = new Uint8Array(2 * v.text.length);
    const uv = new DataView(units.buffer);
    for (let i = 0; i < v.text.length; i++) uv.setUint16(2 * i, v.text.charCodeAt(i), true);
    await write(tagged(miUTF16, units));
  } else if (v.type === 'double') {
    const data = typeof v.data === 'function' ? v.data() : v.data;
    if (data.length !== rows * cols) {
      throw new RangeError(
        `writeMatV5: '${name}' produced ${data.length} values, not ${rows}×${cols}`,
      );
    }
    const tag = new Uint8Array(8);
    new DataView(tag.buffer).setUint32(0, miDOUBLE, true);
    new DataView(tag.buffer).setUint32(4, 8 * data.length, true);
    await write(tag);
    const body = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    // Large matrices go in slices: one write call per 64 MiB. Doubles need no padding.
    for (let o = 0; o < body.length; o += 1 << 26) {
      await write(body.subarray(o, Math.min(body.length, o + (1 << 26))));
    }
  } else {
    for (const item of v.items) await writeMatrix(write, item, '');
  }
}
