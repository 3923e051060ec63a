/**
 * shared/wire.ts: typed arrays through the web host's JSON as tagged base64, bit for bit, in
 * both directions, with the platform's base64 as the reference; bad tags refused by name.
 */
import { describe, expect, it } from 'vitest';
import { hostWireJson, hostWireParts } from '../../src/backend/wire';
import {
  fromBase64,
  fromWireJson,
  toBase64,
  toWireJson,
  wireReplacer,
} from '../../src/shared/wire';

describe('wire', () => {
  it('base64 agrees with Node’s for every length mod 3, both ways', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 255);
      const reference = Buffer.from(bytes).toString('base64');
      expect(toBase64(bytes)).toBe(reference);
      expect(Array.from(fromBase64(reference))).toEqual(Array.from(bytes));
    }
    expect(() => fromBase64('ab$d')).toThrow('base64: unexpected character at 2');
  });

  it('round-trips every typed array kind, views into larger buffers included', () => {
    const big = new Float64Array(10).map((_, i) => i / 3 - 1);
    const value = {
      f64: Float64Array.from([Math.PI, -0, Number.MAX_VALUE, NaN, Infinity]),
      f32: Float32Array.from([1.5, -2.25]),
      i32: Int32Array.from([-1, 2 ** 31 - 1]),
      u32: Uint32Array.from([2 ** 32 - 1]),
      i16: Int16Array.from([-32768]),
      u16: Uint16Array.from([65535]),
      i8: Int8Array.from([-128, 127]),
      u8: Uint8Array.from([0, 255, 7]),
      view: big.subarray(3, 7),
      empty: new Int32Array(0),
      nested: [{ a: Uint8Array.from([1]) }],
      plain: [1, 'x', null],
    };
    const text = toWireJson(value);
    expect(JSON.parse(text).u8).toEqual({ $typed: 'Uint8Array', base64: 'AP8H' });
    const back = fromWireJson(text) as typeof value;
    expect(back).toStrictEqual(value);
    expect(Array.from(back.view)).toEqual(Array.from(big.subarray(3, 7)));
  });

  it('a projection is a fraction of its decimal JSON: 4/3 of its bytes', () => {
    const x = Float32Array.from({ length: 100_000 }, (_, i) => Math.sin(i) * 1e3);
    const tagged = toWireJson({ x }).length;
    expect(tagged).toBeLessThan(0.54e6);
    expect(tagged).toBeLessThan(JSON.stringify({ x: Array.from(x) }).length / 3);
  });

  it('splices base64 into the skeleton: the same text as the replacer, whatever the data holds', () => {
    const value = {
      a: Float64Array.from([1, 2]),
      tricky: ['\u0000', '"base64":"\u0000"', { base64: '\u0000' }],
      b: [Uint16Array.from([7])],
    };
    expect(toWireJson(value)).toBe(JSON.stringify(value, wireReplacer));
    expect(hostWireJson(value)).toBe(toWireJson(value));
    expect(fromWireJson(hostWireJson(value))).toStrictEqual(value);
  });

  it('gives the same text in pieces, a slice of each array per turn', async () => {
    const value = {
      big: Float64Array.from({ length: 300_000 }, (_, i) => i / 7),
      small: Uint8Array.from([1, 2]),
      forged: { base64: '' },
    };
    expect((await hostWireParts(value)).join('')).toBe(hostWireJson(value));
    const { forged, ...plain } = value;
    void forged;
    const parts = await hostWireParts(plain);
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.join('')).toBe(hostWireJson(plain));
    expect(await hostWireParts({ a: 1 })).toEqual(['{"a":1}']);
  });

  it('refuses unknown tags and ragged bytes, naming them', () => {
    expect(() => fromWireJson('{"a":{"$typed":"BigInt64Array","base64":""}}')).toThrow(
      "wire: '$typed' must name a typed array and carry base64, got BigInt64Array",
    );
    expect(() => fromWireJson('{"a":{"$typed":"Float64Array","base64":"AAAA"}}')).toThrow(
      'wire: Float64Array of 3 bytes is not a whole number of 8-byte elements',
    );
  });
});
