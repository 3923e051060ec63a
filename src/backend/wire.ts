/**
 * The web host's side of shared/wire.ts: the same tagged JSON, its base64 done by Node's
 * Buffer rather than the portable loop the renderer falls back to; and `hostWireParts`, the
 * same text in pieces, encoded a slice at a time between turns of the event loop so that a
 * 10^6-sample result (≈ 11 MB of arrays) never blocks the host for long.
 */
import { toWireJson } from '../shared/wire';

const nodeBase64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** A value as the web host sends it (typed arrays as tagged base64), in one string. */
export function hostWireJson(value: unknown): string {
  return toWireJson(value, nodeBase64);
}

/** Bytes of a typed array encoded per turn of the event loop (a multiple of 3: no padding inside). */
const SLICE_BYTES = 3 * 256 * 1024;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `hostWireJson(value)` as pieces whose concatenation is that text (for `res.write` one by
 * one), each typed array's base64 made SLICE_BYTES at a time with a turn of the event loop
 * between slices.
 */
export async function hostWireParts(value: unknown): Promise<string[]> {
  const arrays: Uint8Array[] = [];
  // The skeleton, with each typed array's base64 left empty and remembered in order.
  const skeleton = toWireJson(value, (bytes) => {
    arrays.push(bytes);
    return '';
  });
  if (arrays.length === 0) return [skeleton];
  const empty = '"base64":""';
  const pieces = skeleton.split(empty);
  if (pieces.length !== arrays.length + 1) return [hostWireJson(value)];
  const parts: string[] = [pieces[0]!];
  for (let i = 0; i < arrays.length; i++) {
    const bytes = arrays[i]!;
    parts.push('"base64":"');
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      await turn();
      parts.push(nodeBase64(bytes.subarray(at, Math.min(bytes.length, at + SLICE_BYTES))));
    }
    parts.push('"', pieces[i + 1]!);
  }
  return parts;
}
