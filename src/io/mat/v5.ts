/**
 * MAT-file Level 5 reader (MATLAB v5, v6 and v7 files: everything but v7.3/HDF5).
 *
 * Layout (MathWorks, "MAT-File Format", 2023): a 128-byte header (116 bytes of text, 8 bytes
 * of subsystem offset, a 2-byte version, a 2-byte endian indicator 'IM' for little-endian
 * writers or 'MI' for big-endian ones), then data elements. Each element is an 8-byte tag
 * (uint32 type, uint32 byte count) and its data padded to 8 bytes, or a "small" element whose
 * tag packs the byte count into the upper 16 bits and up to 4 data bytes into the next 4.
 * A top-level element is an miMATRIX (one variable) or an miCOMPRESSED zlib stream wrapping
 * one miMATRIX. Inside an miMATRIX come array flags, dims, the name, then the class's parts.
 * Tags, the cursor and the decoding of stored numbers and text live in `./v5-elements.ts`.
 *
 * Numeric data are often stored narrower than their class (a double array stored as miUINT8):
 * values are widened to the array's class, and always returned as Float64Array.
 *
 * Damage policy: a variable that cannot be decoded but whose element is framed correctly is
 * skipped with a warning naming it; a region that cannot even be framed (truncated, trailing
 * bytes, a size beyond the end) stops reading with a warning listing the variables read so far.
 * A file with no readable header throws MatReadError.
 */
import { constants, inflateSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import type { MatCell, MatFile, MatStruct, MatValue, NumericClass } from './types';
import { MatReadError, numel } from './types';
import { AllocationBudget } from '../limits';
import {
  Cursor,
  Damage,
  int32s,
  miCOMPRESSED,
  miINT32,
  miMATRIX,
  miUINT32,
  numbers,
  text,
  type Element,
} from './v5-elements';

// Array classes (mxCLASS).
const mxCELL = 1;
const mxSTRUCT = 2;
const mxOBJECT = 3;
const mxCHAR = 4;
const mxSPARSE = 5;
const mxFUNCTION = 16;
const mxOPAQUE = 17;
const NUMERIC_CLASS: Record<number, NumericClass> = {
  6: 'double',
  7: 'single',
  8: 'int8',
  9: 'uint8',
  10: 'int16',
  11: 'uint16',
  12: 'int32',
  13: 'uint32',
  14: 'int64',
  15: 'uint64',
};

/** Upper bound on one decompressed variable (a JS typed array cannot hold more anyway). */
const MAX_INFLATED = 2 ** 31 - 1;
/** What one cell element or struct record is charged: the slot and the object around it. */
const ITEM_BYTES = 64;

interface Parsed {
  name: string;
  value: MatValue;
}

/** Context for warnings about variables nested in containers. */
interface Ctx {
  warnings: string[];
  /** Path of the value being decoded, e.g. `X{3}` or `s.field`. */
  path: string;
}

/**
 * Parses the data of an miMATRIX element occupying [start, end) of the cursor's buffer.
 * An empty miMATRIX (length 0) is MATLAB's `[]`.
 */
function parseMatrix(c: Cursor, start: number, end: number, ctx: Ctx, depth: number): Parsed {
  if (depth > 64) throw new Damage('containers nested more than 64 deep');
  if (start === end)
    return {
      name: '',
      value: { type: 'numeric', class: 'double', dims: [0, 0], re: new Float64Array(0) },
    };
  const flagsEl = c.element(start, end);
  if (flagsEl.length < 8 || (flagsEl.type !== miUINT32 && flagsEl.type !== miINT32)) {
    throw new Damage('array flags missing');
  }
  const flagWord = c.u32(flagsEl.start);
  const cls = flagWord & 0xff;
  const complex = (flagWord & 0x0800) !== 0;
  const logical = (flagWord & 0x0200) !== 0;

  if (cls === mxOPAQUE) {
    // Opaque (MCOS objects: string, table, datetime, ...): name, class name, then data.
    // Only the name is needed to report it.
    const nameEl = c.element(flagsEl.next, end);
    return { name: text(c, nameEl), value: { type: 'unsupported', what: 'object (opaque/MCOS)' } };
  }

  const dimsEl = c.element(flagsEl.next, end);
  const dims = Array.from(int32s(c, dimsEl, 'dimensions'));
  if (dims.length < 2 || dims.some((d) => d < 0))
    throw new Damage(`bad dimensions [${dims.join(', ')}]`);
  const nameEl = c.element(dimsEl.next, end);
  const name = text(c, nameEl);
  const count = numel(dims);
  let at = nameEl.next;
  const here = ctx.path || name;

  if (NUMERIC_CLASS[cls] !== undefined) {
    const reEl = c.element(at, end);
    const re = numbers(c, reEl, `${here}: real part`, count);
    const klass = logical ? 'logical' : NUMERIC_CLASS[cls]!;
    if (complex) {
      const imEl = c.element(reEl.next, end);
      const im = numbers(c, imEl, `${here}: imaginary part`, count);
      return { name, value: { type: 'numeric', class: klass, dims, re, im } };
    }
    return { name, value: { type: 'numeric', class: klass, dims, re } };
  }

  switch (cls) {
    case mxCHAR: {
      if (count === 0) return { name, value: { type: 'char', dims, text: '' } };
      const el = c.element(at, end);
      c.budget.charge(2 * el.length, here);
      return { name, value: { type: 'char', dims, text: text(c, el) } };
    }
    case mxCELL: {
      const items: MatValue[] = [];
      for (let i = 0; i < count; i++) {
        c.budget.charge(ITEM_BYTES, here);
        const el = c.element(at, end);
        if (el.type !== miMATRIX)
          throw new Damage(`${here}: cell element ${i + 1} is not a matrix`);
        const inner = parseMatrix(
          c,
          el.start,
          el.start + el.length,
          { ...ctx, path: `${here}{${i + 1}}` },
          depth + 1,
        );
        items.push(inner.value);
        at = el.next;
      }
      const cell: MatCell = { type: 'cell', dims, items };
      return { name, value: cell };
    }
    case mxSTRUCT:
    case mxOBJECT: {
      if (cls === mxOBJECT) {
        const classEl = c.element(at, end);
        at = classEl.next;
      }
      const lenEl = c.element(at, end);
      const fieldLen = c.view.getInt32(lenEl.start, c.little);
      const namesEl = c.element(lenEl.next, end);
      at = namesEl.next;
      if (fieldLen <= 0 || namesEl.length % fieldLen !== 0)
        throw new Damage(`${here}: bad field names`);
      const nFields = namesEl.length / fieldLen;
      const fields: string[] = [];
      for (let f = 0; f < nFields; f++) {
        const raw = c.bytes.subarray(
          namesEl.start + f * fieldLen,
          namesEl.start + (f + 1) * fieldLen,
        );
        const zero = raw.indexOf(0);
        fields.push(new TextDecoder().decode(zero < 0 ? raw : raw.subarray(0, zero)));
      }
      const items: Record<string, MatValue>[] = [];
      for (let i = 0; i < count; i++) {
        // A struct without fields frames no element per record: only this bounds its count.
        c.budget.charge(ITEM_BYTES * (1 + nFields), here);
        const rec: Record<string, MatValue> = {};
        for (const f of fields) {
          const el = c.element(at, end);
          if (el.type !== miMATRIX) throw new Damage(`${here}.${f}: not a matrix`);
          rec[f] = parseMatrix(
            c,
            el.start,
            el.start + el.length,
            { ...ctx, path: `${here}.${f}` },
            depth + 1,
          ).value;
          at = el.next;
        }
        items.push(rec);
      }
      if (cls === mxOBJECT) {
        return { name, value: { type: 'unsupported', what: 'object (class instance)' } };
      }
      const struct: MatStruct = { type: 'struct', dims, fields, items };
      return { name, value: struct };
    }
    case mxSPARSE: {
      const [rows, cols] = dims as [number, number];
      if (dims.length !== 2) throw new Damage(`${here}: sparse array with ${dims.length} dims`);
      const irEl = c.element(at, end);
      const ir = int32s(c, irEl, `${here}: row indices`);
      const jcEl = c.element(irEl.next, end);
      const jc = int32s(c, jcEl, `${here}: column pointers`);
      if (jc.length !== cols + 1)
        throw new Damage(`${here}: ${jc.length} column pointers for ${cols} columns`);
      const nz = jc[cols]!;
      if (nz < 0 || nz > ir.length)
        throw new Damage(`${here}: ${nz} non-zeros but ${ir.length} row indices`);
      for (let j = 0; j < cols; j++) {
        if (jc[j]! > jc[j + 1]! || jc[j]! < 0)
          throw new Damage(`${here}: column pointers decrease`);
      }
      for (let p = 0; p < nz; p++) {
        const r = ir[p]!;
        if (r < 0 || r >= rows) throw new Damage(`${here}: row index ${r} outside 0..${rows - 1}`);
      }
      let pr: Float64Array;
      let pi: Float64Array | undefined;
      if (jcEl.next < end) {
        const prEl = c.element(jcEl.next, end);
        pr = numbers(c, prEl, `${here}: values`).subarray(0, nz);
        if (complex && prEl.next < end) {
          pi = numbers(c, c.element(prEl.next, end), `${here}: imaginary values`).subarray(0, nz);
        }
      } else if (logical) {
        c.budget.charge(8 * nz, `${here}: values`);
        pr = new Float64Array(nz).fill(1);
      } else {
        throw new Damage(`${here}: sparse values missing`);
      }
      if (pr.length < nz) {
        if (logical) {
          c.budget.charge(8 * nz, `${here}: values`);
          pr = new Float64Array(nz).fill(1);
        } else throw new Damage(`${here}: ${pr.length} values for ${nz} non-zeros`);
      }
      const sparse = {
        type: 'sparse' as const,
        class: logical ? ('logical' as const) : ('double' as const),
        dims: [rows, cols] as const,
        ir: ir.subarray(0, nz),
        jc,
        pr,
      };
      return { name, value: pi ? { ...sparse, pi } : sparse };
    }
    case mxFUNCTION:
      return { name, value: { type: 'unsupported', what: 'function handle' } };
    default:
      return { name, value: { type: 'unsupported', what: `array class ${cls}` } };
  }
}

/** Reads the name of a (possibly damaged) miMATRIX, for warnings. */
function peekName(c: Cursor, start: number, end: number): string | null {
  try {
    const flags = c.element(start, end);
    const dims = c.element(flags.next, end);
    const name = c.element(dims.next, end);
    return text(c, name) || null;
  } catch {
    return null;
  }
}

/** The name of a compressed variable from the start of its stream, for messages; or null. */
function peekCompressedName(bytes: Uint8Array, el: Element, little: boolean): string | null {
  let head: Uint8Array;
  try {
    // A variable's name lies within its first bytes; 256 compressed bytes inflate to at most
    // about 264 KB, so the limit below is never reached.
    head = inflateSync(bytes.subarray(el.start, Math.min(el.start + 256, el.start + el.length)), {
      finishFlush: constants.Z_SYNC_FLUSH,
      maxOutputLength: 1 << 20,
    });
  } catch {
    return null;
  }
  const c = new Cursor(head, little, new AllocationBudget('', 0));
  if (head.length < 8 || c.u32(0) !== miMATRIX) return null;
  return peekName(c, 8, head.length);
}

/** Parses a whole MAT v5 file held in memory. `path` is used in messages only. */
export function parseMatV5(bytes: Uint8Array, path: string): MatFile {
  if (bytes.length < 128) {
    throw new MatReadError(
      path,
      `too short for a MAT-file (${bytes.length} bytes; the header alone is 128)`,
    );
  }
  const endian = String.fromCharCode(bytes[126]!, bytes[127]!);
  if (endian !== 'IM' && endian !== 'MI') {
    throw new MatReadError(
      path,
      `not a MAT v5 file (endian indicator '${endian}' at byte 126, expected 'IM' or 'MI')`,
    );
  }
  const little = endian === 'IM';
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, 116)).replace(/[\s\0]+$/, '');
  const budget = new AllocationBudget(path, bytes.length);
  const c = new Cursor(bytes, little, budget);
  const variables = new Map<string, MatValue>();
  const warnings: string[] = [];
  const end = bytes.length;
  let at = 128;
  let unnamed = 0;

  const stop = (why: string): void => {
    const read = [...variables.keys()];
    warnings.push(
      `stopped reading at byte ${at} of ${end}: ${why}; ` +
        (read.length ? `variables read: ${read.join(', ')}` : 'no variable was read'),
    );
  };

  while (at < end) {
    // Trailing zero padding after the last variable is harmless.
    if (end - at < 8 && bytes.subarray(at).every((b) => b === 0)) break;
    let el: Element;
    try {
      el = c.element(at, end);
    } catch (e) {
      stop(e instanceof Error ? e.message : String(e));
      break;
    }
    if (el.type !== miMATRIX && el.type !== miCOMPRESSED) {
      if (el.type === 0 && el.length === 0 && bytes.subarray(at).every((b) => b === 0)) break;
      stop(`unexpected element type ${el.type} at top level (trailing or damaged bytes)`);
      break;
    }
    let cursor = c;
    let start = el.start;
    let stopAt = el.start + el.length;
    let label: string | null = null;
    try {
      if (el.type === miCOMPRESSED) {
        let inflated: Uint8Array;
        // The file's remaining budget bounds the output, so a bomb stops inflating early.
        const limit = Math.max(1, Math.min(MAX_INFLATED, budget.remaining));
        try {
          inflated = inflateSync(bytes.subarray(el.start, el.start + el.length), {
            maxOutputLength: limit,
            // 1 MiB output chunks: ~25 % faster than the default 16 KiB on a 35 MB variable.
            chunkSize: 1 << 20,
          });
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ERR_BUFFER_TOO_LARGE' && limit < MAX_INFLATED) {
            throw budget.exceeded(peekCompressedName(bytes, el, little) ?? undefined);
          }
          throw new Damage(`compressed data is damaged (${(e as Error).message})`);
        }
        budget.charge(inflated.length);
        cursor = new Cursor(inflated, little, budget);
        const inner = cursor.element(0, inflated.length);
        if (inner.type !== miMATRIX)
          throw new Damage(`compressed element holds type ${inner.type}, not a matrix`);
        start = inner.start;
        stopAt = inner.start + inner.length;
      }
      label = peekName(cursor, start, stopAt);
      const parsed = parseMatrix(cursor, start, stopAt, { warnings, path: '' }, 0);
      const name = parsed.name || `unnamed_${++unnamed}`;
      if (parsed.value.type === 'unsupported') {
        warnings.push(
          `variable '${name}' is a ${parsed.value.what}, which is not supported; it was skipped`,
        );
      }
      variables.set(name, parsed.value);
    } catch (e) {
      if (!(e instanceof Damage) && !(e instanceof RangeError)) throw e;
      warnings.push(
        `variable ${label ? `'${label}'` : `at byte ${at}`} could not be read and was skipped: ${e.message}`,
      );
    }
    at = el.next;
  }
  return { path, version: 'v5', header, variables, warnings };
}

/** Reads a MAT v5 file from disk. */
export async function readMatV5(path: string): Promise<MatFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new MatReadError(path, `cannot read the file (${(e as Error).message})`);
  }
  return parseMatV5(bytes, path);
}
