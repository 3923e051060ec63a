/**
 * What a data file may make the loaders allocate. A file is untrusted input: its declared
 * sizes, its compression ratio and its shapes are checked against these bounds before the
 * memory is taken, and a file beyond them is refused with a DataError that states the bound.
 *
 * The bounds are generous for every dataset in ../shared/datasets (the largest decodes to a
 * small fraction of the budget) and tight enough that a whole load, views copied by the mapper
 * included, stays well under 1.5 GB.
 */
import { DataError } from './errors';

/** Every file may decode to at least this much, however small it is. */
export const DECODE_FLOOR_BYTES = 64 * 2 ** 20;
/** ... and to this multiple of its size on disk, ... */
export const DECODE_RATIO = 200;
/** ... but never to more than this, ... */
export const DECODE_CAP_BYTES = 512 * 2 ** 20;
/**
 * ... unless the file is large itself: stored (uncompressed) data widened to 8-byte values and
 * reordered may take this multiple of its size, which no small file can turn into a bomb.
 */
export const STORED_RATIO = 16;

/** At most this many samples (n) in a dataset: n-length arrays are allocated per view. */
export const MAX_SAMPLES = 10_000_000;
/** At most this many features in a sparse view (dense views hold all their values). */
export const MAX_SPARSE_FEATURES = 10_000_000;
/** At most this many members in an NPZ archive. */
export const MAX_ZIP_ENTRIES = 10_000;

/** `816 KB`, `64 MiB`: a byte count for a message. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${+(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${+(bytes / 2 ** 20).toFixed(1)} MiB`;
  if (bytes >= 1000) return `${Math.round(bytes / 1000)} KB`;
  return `${bytes} bytes`;
}

/**
 * The decode budget of a file of `fileBytes` bytes: max(floor, ratio × size) capped, or
 * STORED_RATIO × size when that is more.
 */
export function decodeBudget(fileBytes: number): number {
  const compressed = Math.min(
    DECODE_CAP_BYTES,
    Math.max(DECODE_FLOOR_BYTES, DECODE_RATIO * fileBytes),
  );
  return Math.max(compressed, STORED_RATIO * fileBytes);
}

/**
 * The bytes one file's readers may still allocate, across all its variables: every inflated
 * buffer and every widened array is charged before it is made, so a decompression bomb (one
 * huge variable, or many moderate ones) is refused before it takes the memory.
 */
export class AllocationBudget {
  private used = 0;
  /** The total this file may allocate. */
  readonly limit: number;

  constructor(
    /** The file, for messages. */
    readonly file: string,
    /** Its size on disk. */
    readonly fileBytes: number,
  ) {
    this.limit = decodeBudget(fileBytes);
  }

  /** What is left. */
  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** Takes `bytes` from the budget, or throws the refusal naming `variable`. */
  charge(bytes: number, variable?: string): void {
    this.used += bytes;
    if (this.used > this.limit) throw this.exceeded(variable);
  }

  /** The refusal: what was exceeded, and both parts of the bound. */
  exceeded(variable?: string): DataError {
    return new DataError(
      this.file,
      `the data decode to more than ${formatBytes(this.limit)} ` +
        `(at most max(${formatBytes(DECODE_FLOOR_BYTES)}, ${DECODE_RATIO} × the file's ` +
        `${formatBytes(this.fileBytes)}), capped at ${formatBytes(DECODE_CAP_BYTES)} unless ` +
        `${STORED_RATIO} × the file's size is more): ` +
        `refusing a decompression bomb`,
      variable === undefined ? {} : { variable },
    );
  }
}
