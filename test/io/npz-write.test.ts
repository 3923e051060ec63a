/**
 * writeNpz: archives read back by `readNpz` (itself tested against numpy-written files in
 * npy.test.ts) with the same names, shapes, dtypes and values; 64-byte aligned data; the ZIP's
 * CRC-32s as zlib computes them; atomic (a failed write leaves no file); bad names refused.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatNumeric } from '../../src/io/mat/types';
import { readNpz } from '../../src/io/npz';
import { writeNpz } from '../../src/io/npz-write';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'npz-write-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeNpz', () => {
  it('round-trips float64 matrices with NaN and int32 vectors', async () => {
    const X = Float64Array.from({ length: 35 }, (_, i) => (i % 6 === 0 ? NaN : i / 7 - 2));
    const Y = Int32Array.from([3, -1, 2147483647, 0, 5]);
    const path = join(dir, 'a.npz');
    await writeNpz(path, [
      { name: 'X1', shape: [5, 7], data: X },
      { name: 'Y', shape: [5], data: Y },
      { name: 'empty', shape: [0, 3], data: new Float64Array(0) },
    ]);
    const f = await readNpz(path);
    expect([...f.variables.keys()]).toEqual(['X1', 'Y', 'empty']);
    const x = f.variables.get('X1') as MatNumeric;
    expect([x.class, ...x.dims]).toEqual(['double', 5, 7]);
    // Column-major in the tree: element (i, j) at i + 5j.
    const colMajor = Array.from({ length: 35 }, (_, t) => X[(t % 5) * 7 + Math.floor(t / 5)]!);
    expect(Array.from(x.re)).toEqual(colMajor);
    const y = f.variables.get('Y') as MatNumeric;
    expect(y.class).toBe('int32');
    expect(Array.from(y.re)).toEqual(Array.from(Y));
    expect((f.variables.get('empty') as MatNumeric).dims).toEqual([0, 3]);
    // Member data offsets are multiples of 64 and the stored CRC-32 is zlib's.
    const bytes = new Uint8Array(await readFile(path));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    const nameLen = view.getUint16(26, true);
    const size = view.getUint32(18, true);
    const member = bytes.subarray(30 + nameLen, 30 + nameLen + size);
    expect(view.getUint32(14, true)).toBe(crc32(member));
    const headerLen = new DataView(member.buffer, member.byteOffset).getUint16(8, true);
    expect((10 + headerLen) % 64).toBe(0);
    expect(new TextDecoder().decode(member.subarray(10, 10 + headerLen))).toBe(
      "{'descr': '<f8', 'fortran_order': False, 'shape': (5, 7), }".padEnd(headerLen - 1) + '\n',
    );
  });

  it('refuses bad or repeated names and wrong sizes, leaving no file', async () => {
    const path = join(dir, 'bad.npz');
    const a = { name: 'A', shape: [2], data: new Float64Array(2) };
    await expect(writeNpz(path, [a, a])).rejects.toThrow("bad or repeated array name 'A'");
    await expect(writeNpz(path, [{ ...a, name: '1x' }])).rejects.toThrow("array name '1x'");
    await expect(writeNpz(path, [{ ...a, shape: [3] }])).rejects.toThrow(
      "'A' has 2 values, not shape 3",
    );
    expect((await readdir(dir)).filter((f) => f.includes('bad'))).toEqual([]);
  });
});
