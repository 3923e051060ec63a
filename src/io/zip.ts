/**
 * A ZIP reader for NPZ archives, over the archive's bytes in memory: the central directory
 * (ZIP64 sizes and offsets included), then members stored (method 0) or deflated (method 8).
 *
 * Nothing is allocated from a declared size before it is checked against the bytes at hand: the
 * directory must lie inside the archive, members may not share bytes, and a member must inflate
 * to its declared size, within deflate's best ratio, with its declared CRC-32. Every problem is a
 * DataError naming the file and, for a member, the member (as its `variable`). The messages
 * speak of .npz files because NPZ is the only archive read.
 */
import { constants as bufferConstants } from 'node:buffer';
import { crc32, inflateRawSync } from 'node:zlib';
import { DataError, quoteText } from './errors';
import { MAX_ZIP_ENTRIES } from './limits';

/** One member as the central directory describes it. */
export interface ZipEntry {
  /** The member's path in the archive, e.g. 'X0.npy' (UTF-8 when flag bit 11 says so). */
  readonly name: string;
  /** General purpose flags: bit 0 = encrypted, bit 11 = UTF-8 name. */
  readonly flags: number;
  /** Compression method: 0 stored, 8 deflate (others are refused on extraction). */
  readonly method: number;
  /** CRC-32 of the uncompressed bytes. */
  readonly crc: number;
  readonly compressedSize: number;
  /** Uncompressed size in bytes. */
  readonly size: number;
  /** Offset of the member's local header in the archive. */
  readonly localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
/** Deflate cannot compress better than about 1032:1. */
const MAX_DEFLATE_RATIO = 1032;

/** Reads the central directory of a ZIP archive. */
export function listZip(bytes: Uint8Array, file: string): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.length;
  const damaged = (what: string): DataError =>
    new DataError(file, `the ZIP archive is damaged or truncated: ${what}`);
  const u64 = (at: number, what: string): number => {
    const v = view.getBigUint64(at, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged(`${what} is too large`);
    return Number(v);
  };

  // End of central directory: the last signature whose comment fits in the file.
  let eocd = -1;
  for (let p = len - 22; p >= 0 && p >= len - 22 - 0xffff; p--) {
    if (view.getUint32(p, true) === EOCD_SIG && p + 22 + view.getUint16(p + 20, true) <= len) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) {
    throw new DataError(
      file,
      'not a ZIP archive, or truncated (no end-of-central-directory record); expected an .npz file (a ZIP of .npy arrays)',
    );
  }
  let total = view.getUint16(eocd + 10, true);
  let cdSize = view.getUint32(eocd + 12, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  let cdLimit = eocd;
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR_SIG) {
    const z = u64(locator + 8, 'ZIP64 record offset');
    if (z + 56 > locator || view.getUint32(z, true) !== ZIP64_EOCD_SIG) {
      throw damaged('bad ZIP64 end-of-central-directory record');
    }
    total = u64(z + 32, 'entry count');
    cdSize = u64(z + 40, 'central directory size');
    cdOffset = u64(z + 48, 'central directory offset');
    cdLimit = z;
  }
  if (cdOffset + cdSize > cdLimit) throw damaged('the central directory lies outside the file');
  if (total > MAX_ZIP_ENTRIES) {
    throw new DataError(
      file,
      `the ZIP archive declares ${total} members; an .npz file may hold at most ${MAX_ZIP_ENTRIES}`,
    );
  }

  const entries: ZipEntry[] = [];
  const end = cdOffset + cdSize;
  let p = cdOffset;
  for (let k = 0; k < total; k++) {
    if (p + 46 > end || view.getUint32(p, true) !== CENTRAL_SIG) {
      throw damaged(`central directory entry ${k + 1} of ${total}`);
    }
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    let localOffset = view.getUint32(p + 42, true);
    const next = p + 46 + nameLength + extraLength + commentLength;
    if (next > end) throw damaged(`central directory entry ${k + 1} of ${total}`);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLength);
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    // ZIP64 extra field: the 64-bit values of the fields saturated at 0xffffffff, in order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = view.getUint16(e, true);
      const fieldEnd = e + 4 + view.getUint16(e + 2, true);
      if (fieldEnd > extraEnd) throw damaged(`extra field of ${quoteText(name)}`);
      if (id === 1) {
        let q = e + 4;
        const take = (what: string): number => {
          if (q + 8 > fieldEnd) throw damaged(`ZIP64 field of ${quoteText(name)}`);
          const v = u64(q, what);
          q += 8;
          return v;
        };
        if (size === 0xffffffff) size = take('size');
        if (compressedSize === 0xffffffff) compressedSize = take('compressed size');
        if (localOffset === 0xffffffff) localOffset = take('offset');
      }
      e = fieldEnd;
    }
    entries.push({ name, flags, method, crc, compressedSize, size, localOffset });
    p = next;
  }
  return entries;
}

/**
 * Refuses an archive whose members share bytes: a real ZIP stores each member once, while a
 * crafted one points many directory entries at one compressed member to multiply it.
 */
export function refuseOverlaps(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  file: string,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans = entries.map((e) => {
    const p = e.localOffset;
    // The local header's own name and extra lengths, when it is there to read.
    const header =
      p + 30 <= bytes.length
        ? 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true)
        : 30;
    return { name: e.name, start: p, end: p + header + e.compressedSize };
  });
  spans.sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    const prev = spans[k - 1]!;
    const cur = spans[k]!;
    if (cur.start < prev.end) {
      throw new DataError(
        file,
        `the ZIP members ${quoteText(prev.name)} and ${quoteText(cur.name)} share bytes of the archive ` +
          `(a crafted archive repeats one member to multiply it): refusing a decompression bomb`,
      );
    }
  }
}

/** The uncompressed bytes of one member, checked against its declared size and CRC-32. */
export function extractZip(bytes: Uint8Array, entry: ZipEntry, file: string): Uint8Array {
  const at = { variable: entry.name };
  const damaged = (what: string): DataError =>
    new DataError(file, `the ZIP member is damaged or truncated: ${what}`, at);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = entry.localOffset;
  if (p + 30 > bytes.length || view.getUint32(p, true) !== LOCAL_SIG) {
    throw damaged('no local header where the central directory points');
  }
  if (entry.flags & 1) throw new DataError(file, 'the ZIP member is encrypted', at);
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) {
    throw damaged(
      `${entry.compressedSize} bytes declared, ${Math.max(0, bytes.length - start)} present`,
    );
  }
  const packed = bytes.subarray(start, stop);
  let out: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw damaged('stored sizes disagree');
    out = packed;
  } else if (entry.method === 8) {
    if (
      entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 1024 ||
      entry.size > bufferConstants.MAX_LENGTH
    ) {
      throw damaged(`implausible size ${entry.size} for ${entry.compressedSize} compressed bytes`);
    }
    try {
      out = inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.size) });
    } catch (e) {
      throw damaged(`deflate data (${(e as Error).message})`);
    }
    if (out.length !== entry.size)
      throw damaged(`inflates to ${out.length} bytes, not ${entry.size}`);
  } else {
    throw new DataError(
      file,
      `unsupported ZIP compression method ${entry.method}; expected stored (0) or deflate (8)`,
      at,
    );
  }
  if (crc32(out) >>> 0 !== entry.crc >>> 0) throw damaged('CRC-32 mismatch');
  return out;
}
