/**
 * The HDF5 signature test shared by the format sniffer (`../load.ts`) and the MAT v7.3 reader
 * (`./v73.ts`), so that a file the sniffer calls HDF5 is one the reader accepts.
 *
 * HDF5 puts its superblock at byte 0 or, after a user block, at 512·2^k; a MAT v7.3 file is
 * HDF5 with MATLAB's 128-byte header in a 512-byte user block. Offsets past 2048 are not
 * searched: no writer of the files read here uses a larger user block.
 */

/** The HDF5 format signature, `\x89HDF\r\n\x1a\n`. */
export const HDF5_SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Offsets searched for the signature, 512 first as in MAT files. */
export const HDF5_SIGNATURE_OFFSETS = [512, 0, 1024, 2048] as const;

/** Bytes of a file's head that hold the signature at every searched offset. */
export const HDF5_HEAD_BYTES = 2048 + HDF5_SIGNATURE.length;

/**
 * Offset of the HDF5 signature in `head` (the file's first bytes), trying 512, 0, 1024, 2048
 * in that order, or -1. A head too short to hold the signature at an offset fails there.
 */
export function hdf5SignatureOffset(head: Uint8Array): number {
  for (const off of HDF5_SIGNATURE_OFFSETS) {
    if (head.length < off + HDF5_SIGNATURE.length) continue;
    if (HDF5_SIGNATURE.every((b, i) => head[off + i] === b)) return off;
  }
  return -1;
}

/** True when `head` holds the HDF5 signature at byte 512 (MAT v7.3), 0, 1024 or 2048. */
export function isHdf5(head: Uint8Array): boolean {
  return hdf5SignatureOffset(head) >= 0;
}
