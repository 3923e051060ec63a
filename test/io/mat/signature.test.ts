/**
 * The HDF5 signature test that the sniffer (io/load.ts) and the MAT v7.3 reader share: the
 * cases where the two used to disagree (the sniffer looked at 512 and 0 only, in the first
 * 1032 bytes; the reader at 512, 0, 1024 and 2048).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sniff } from '../../../src/io/load';
import {
  HDF5_HEAD_BYTES,
  HDF5_SIGNATURE,
  hdf5SignatureOffset,
  isHdf5,
} from '../../../src/io/mat/signature';
import { DATASETS } from '../../helpers/paths';

const dir = mkdtempSync(join(tmpdir(), 'mvs-hdf5-sig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `size` bytes of a user block that is not HDF5 (0x20), with the signature at `off`. */
function withSignature(off: number, size = off + 4096): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(HDF5_SIGNATURE, off);
  return bytes;
}

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('hdf5SignatureOffset', () => {
  it('finds the 512-byte user block of a MAT v7.3 file', () => {
    const head = readFileSync(join(DATASETS, 'Synthetic/synthetic_data.mat')).subarray(
      0,
      HDF5_HEAD_BYTES,
    );
    expect(new TextDecoder('latin1').decode(head.subarray(0, 6))).toBe('MATLAB');
    expect(hdf5SignatureOffset(head)).toBe(512);
  });

  it('finds a plain HDF5 signature at 0, 512, 1024 and 2048', () => {
    for (const off of [0, 512, 1024, 2048]) {
      expect(hdf5SignatureOffset(withSignature(off)), `offset ${off}`).toBe(off);
    }
  });

  it('prefers 512 when the signature is at 512 and at 0', () => {
    const bytes = withSignature(512);
    bytes.set(HDF5_SIGNATURE, 0);
    expect(hdf5SignatureOffset(bytes)).toBe(512);
  });

  it('refuses other offsets and heads shorter than the signature', () => {
    expect(hdf5SignatureOffset(withSignature(256))).toBe(-1);
    expect(hdf5SignatureOffset(withSignature(4096))).toBe(-1);
    expect(hdf5SignatureOffset(new Uint8Array(0))).toBe(-1);
    expect(hdf5SignatureOffset(Uint8Array.from(HDF5_SIGNATURE.slice(0, 7)))).toBe(-1);
    // The signature cut by the end of the head at 2048 + 7 bytes.
    expect(hdf5SignatureOffset(withSignature(2048).subarray(0, 2055))).toBe(-1);
    expect(isHdf5(Uint8Array.from(HDF5_SIGNATURE))).toBe(true);
  });
});

describe('sniff agrees with the v7.3 reader on the HDF5 signature', () => {
  it('names a MAT v7.3 file with its 512-byte user block mat-v7.3', async () => {
    expect(await sniff(join(DATASETS, 'Synthetic/synthetic_data.mat'))).toBe('mat-v7.3');
  });

  it('names a plain HDF5 file mat-v7.3 whatever the searched offset of its signature', async () => {
    for (const off of [0, 512, 1024, 2048]) {
      const bytes = withSignature(off);
      expect(hdf5SignatureOffset(bytes)).toBe(off);
      // Before the shared test, 1024 and 2048 were an 'unknown format' here.
      expect(await sniff(write(`plain-${off}.h5`, bytes)), `offset ${off}`).toBe('mat-v7.3');
    }
  });

  it('finds the signature at 2048 in a file that ends right after it', async () => {
    const bytes = withSignature(2048, 2056);
    expect(await sniff(write('end-2048.h5', bytes))).toBe('mat-v7.3');
    await expect(sniff(write('cut-2048.h5', bytes.subarray(0, 2055)))).rejects.toThrow(
      /unknown format/,
    );
  });

  it('does not take a file shorter than the signature for HDF5', async () => {
    const short = Uint8Array.from(HDF5_SIGNATURE.slice(0, 5));
    expect(hdf5SignatureOffset(short)).toBe(-1);
    await expect(sniff(write('short.h5', short))).rejects.toThrow(
      'unknown format: expected a MAT-file (v5 or v7.3), NPY, NPZ or a .csv/.tsv/.txt file',
    );
    await expect(sniff(write('short.mat', short))).rejects.toThrow(
      'not a MAT-file: no MAT v5 header and no HDF5 (v7.3) signature',
    );
  });

  it('leaves a signature at another offset to the other rules', async () => {
    await expect(sniff(write('at-256.h5', withSignature(256)))).rejects.toThrow(/unknown format/);
  });
});
