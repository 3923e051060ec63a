/**
 * The element layer of MAT-file Level 5 (see `./v5.ts`): storage types, the 8-byte tags (and
 * small elements that pack up to 4 bytes into the tag), a little- or big-endian cursor that
 * frames each element inside its parent, and the decoding of an element's stored numbers or
 * text. Every size is checked against the bytes at hand, and every allocation charged to the
 * file's AllocationBudget, before anything is made from it.
 */
import type { AllocationBudget } from '../limits';

// Data types (tag types).
const miINT8 = 1;
const miUINT8 = 2;
const miINT16 = 3;
const miUINT16 = 4;
export const miINT32 = 5;
export const miUINT32 = 6;
const miSINGLE = 7;
const miDOUBLE = 9;
const miINT64 = 12;
const miUINT64 = 13;
export const miMATRIX = 14;
export const miCOMPRESSED = 15;
const miUTF8 = 16;
const miUTF16 = 17;
const miUTF32 = 18;

/** Bytes per element of each storage type. */
const SIZE: Record<number, number> = {
  [miINT8]: 1,
  [miUINT8]: 1,
  [miINT16]: 2,
  [miUINT16]: 2,
  [miINT32]: 4,
  [miUINT32]: 4,
  [miSINGLE]: 4,
  [miDOUBLE]: 8,
  [miINT64]: 8,
  [miUINT64]: 8,
  [miUTF8]: 1,
  [miUTF16]: 2,
  [miUTF32]: 4,
};

/** Thrown inside the reader; caught per variable (skip) or per file (stop). */
export class Damage extends Error {}

export interface Element {
  type: number;
  /** Offset of the data within the buffer. */
  start: number;
  /** Byte count of the data. */
  length: number;
  /** Offset of the next element (data padded to 8 bytes, except small elements). */
  next: number;
}

/** A little- or big-endian cursor over one buffer (the file, or one inflated variable). */
export class Cursor {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
    /** Shared by every cursor of one file: what decoding may still allocate. */
    readonly budget: AllocationBudget,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u32(at: number): number {
    return this.view.getUint32(at, this.little);
  }

  /** Reads the tag at `at`, checking that the element fits inside `end`. */
  element(at: number, end: number): Element {
    if (at + 8 > end) throw new Damage(`element tag at byte ${at} runs past the end`);
    const first = this.u32(at);
    const small = first >>> 16;
    if (small !== 0) {
      // Small data element: type in the low 16 bits, byte count (1..4) in the high 16.
      if (small > 4) throw new Damage(`bad small element at byte ${at}`);
      return { type: first & 0xffff, start: at + 4, length: small, next: at + 8 };
    }
    const length = this.u32(at + 4);
    const start = at + 8;
    if (start + length > end) {
      throw new Damage(
        `element at byte ${at} declares ${length} bytes but only ${end - start} remain`,
      );
    }
    const padded = first === miCOMPRESSED ? length : (length + 7) & ~7;
    return { type: first, start, length, next: Math.min(start + padded, end) };
  }
}

/**
 * Decodes the storage-typed bytes of an element into a Float64Array (widening).
 * `count`, when given, must equal the number of stored values.
 */
export function numbers(c: Cursor, el: Element, what: string, count?: number): Float64Array {
  const size = SIZE[el.type];
  if (size === undefined || el.type === miUTF8 || el.type === miUTF16 || el.type === miUTF32) {
    throw new Damage(`${what}: unexpected storage type ${el.type}`);
  }
  if (el.length % size !== 0) throw new Damage(`${what}: ${el.length} bytes is not a whole count`);
  const n = el.length / size;
  if (count !== undefined && n !== count) {
    throw new Damage(`${what}: expected ${count} values, found ${n}`);
  }
  const offset = c.bytes.byteOffset + el.start;
  if (c.little && el.type === miDOUBLE && offset % 8 === 0) {
    // Already doubles and aligned (the usual case inside an inflated variable): no copy.
    return new Float64Array(c.bytes.buffer, offset, n);
  }
  // Widened to 8 bytes per value, however narrow the storage: that is what is allocated.
  c.budget.charge(8 * n, what);
  if (c.little) {
    // Copy into a fresh, aligned buffer, view it with the storage type, widen natively.
    const raw = new ArrayBuffer(el.length);
    new Uint8Array(raw).set(c.bytes.subarray(el.start, el.start + el.length));
    switch (el.type) {
      case miDOUBLE:
        return new Float64Array(raw);
      case miSINGLE:
        return Float64Array.from(new Float32Array(raw));
      case miINT8:
        return Float64Array.from(new Int8Array(raw));
      case miUINT8:
        return Float64Array.from(new Uint8Array(raw));
      case miINT16:
        return Float64Array.from(new Int16Array(raw));
      case miUINT16:
        return Float64Array.from(new Uint16Array(raw));
      case miINT32:
        return Float64Array.from(new Int32Array(raw));
      case miUINT32:
        return Float64Array.from(new Uint32Array(raw));
      case miINT64: {
        const src = new BigInt64Array(raw);
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = Number(src[i]);
        return out;
      }
      case miUINT64: {
        const src = new BigUint64Array(raw);
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = Number(src[i]);
        return out;
      }
    }
  }
  const v = c.view;
  const out = new Float64Array(n);
  const s = el.start;
  const le = c.little;
  for (let i = 0; i < n; i++) {
    const at = s + i * size;
    switch (el.type) {
      case miDOUBLE:
        out[i] = v.getFloat64(at, le);
        break;
      case miSINGLE:
        out[i] = v.getFloat32(at, le);
        break;
      case miINT8:
        out[i] = v.getInt8(at);
        break;
      case miUINT8:
        out[i] = v.getUint8(at);
        break;
      case miINT16:
        out[i] = v.getInt16(at, le);
        break;
      case miUINT16:
        out[i] = v.getUint16(at, le);
        break;
      case miINT32:
        out[i] = v.getInt32(at, le);
        break;
      case miUINT32:
        out[i] = v.getUint32(at, le);
        break;
      case miINT64:
        out[i] = Number(v.getBigInt64(at, le));
        break;
      case miUINT64:
        out[i] = Number(v.getBigUint64(at, le));
        break;
    }
  }
  return out;
}

/** Decodes integer data (dims, sparse indices) into an Int32Array. */
export function int32s(c: Cursor, el: Element, what: string): Int32Array {
  const f = numbers(c, el, what);
  c.budget.charge(4 * f.length, what);
  const out = new Int32Array(f.length);
  for (let i = 0; i < f.length; i++) {
    const x = f[i]!;
    if (!Number.isInteger(x) || x < -(2 ** 31) || x >= 2 ** 31) {
      throw new Damage(`${what}: value ${x} is not a 32-bit integer`);
    }
    out[i] = x;
  }
  return out;
}

export function text(c: Cursor, el: Element): string {
  const bytes = c.bytes.subarray(el.start, el.start + el.length);
  switch (el.type) {
    case miUTF8:
    case miINT8:
    case miUINT8:
      return new TextDecoder('utf-8').decode(bytes);
    case miUTF16:
    case miUINT16:
    case miINT16: {
      let s = '';
      for (let i = 0; i + 1 < bytes.length; i += 2) {
        s += String.fromCharCode(c.view.getUint16(el.start + i, c.little));
      }
      return s;
    }
    case miUTF32:
    case miUINT32:
    case miINT32: {
      let s = '';
      for (let i = 0; i + 3 < bytes.length; i += 4) {
        s += String.fromCodePoint(c.view.getUint32(el.start + i, c.little) & 0x10ffff);
      }
      return s;
    }
    default:
      throw new Damage(`char data of storage type ${el.type}`);
  }
}
