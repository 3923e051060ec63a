/**
 * The seeded PRNG against an independent Python implementation
 * (test/fixtures/random/make.py -> rng.json), plus determinism, uniformity and bias checks.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/random';

interface Fixture {
  seed1: {
    uint64: string[];
    next: number[];
    uint32: number[];
    int10: number[];
    int3x2p30: number[];
    int3x2p51: number[];
    normal: number[];
    shuffle10: number[];
    after: number[];
  };
  seed0_uint64: string[];
  seedMax_uint64: string[];
  fork: { label: string; key: string; next: number[]; nested_key: string };
  split: { child_key: string; child_next: number[]; parent_next: number[] };
}

const here = dirname(fileURLToPath(import.meta.url));
const ref = JSON.parse(
  readFileSync(join(here, '../../fixtures/random/rng.json'), 'utf8'),
) as Fixture;

describe('xoshiro256** against the Python reference (seed 1)', () => {
  it('reproduces the draw sequence of every method, in order', () => {
    const r = createRng(1);
    const s = ref.seed1;
    expect(Array.from({ length: 8 }, () => r.uint64().toString())).toEqual(s.uint64);
    expect(Array.from({ length: 8 }, () => r.next())).toEqual(s.next);
    expect(Array.from({ length: 4 }, () => r.uint32())).toEqual(s.uint32);
    expect(Array.from({ length: 16 }, () => r.int(10))).toEqual(s.int10);
    expect(Array.from({ length: 4 }, () => r.int(3 * 2 ** 30))).toEqual(s.int3x2p30);
    expect(Array.from({ length: 4 }, () => r.int(3 * 2 ** 51))).toEqual(s.int3x2p51);
    // Math.log/sin/cos (V8's fdlibm) and glibc's libm may differ in the last ulp.
    const normals = Array.from({ length: 7 }, () => r.normal());
    normals.forEach((z, i) => expect(z).toBeCloseTo(s.normal[i]!, 14));
    expect(r.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual(s.shuffle10);
    expect([r.next(), r.next()]).toEqual(s.after);
  });

  it('seeds 0 and 2^64 − 1 (bigint) match too', () => {
    const zero = createRng(0);
    expect(ref.seed0_uint64.map(() => zero.uint64().toString())).toEqual(ref.seed0_uint64);
    const top = createRng((1n << 64n) - 1n);
    expect(ref.seedMax_uint64.map(() => top.uint64().toString())).toEqual(ref.seedMax_uint64);
    expect(createRng(7n).uint64()).toBe(createRng(7).uint64());
  });

  it('fork(label) and split() derive the reference streams', () => {
    const parent = createRng(1);
    parent.next(); // fork ignores the parent's position
    const f = parent.fork(ref.fork.label);
    expect(f.key.toString()).toBe(ref.fork.key);
    expect(ref.fork.next.map(() => f.next())).toEqual(ref.fork.next);
    expect(createRng(1).fork('a').fork('é/β').key.toString()).toBe(ref.fork.nested_key);

    const p = createRng(1);
    const c = p.split();
    expect(c.key.toString()).toBe(ref.split.child_key);
    expect(ref.split.child_next.map(() => c.next())).toEqual(ref.split.child_next);
    expect(ref.split.parent_next.map(() => p.next())).toEqual(ref.split.parent_next);
  });
});

describe('properties', () => {
  it('is deterministic per seed and differs across seeds and labels', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(xs);
    expect(createRng(43).next()).not.toBe(xs[0]);
    expect(createRng(42).fork('x').next()).not.toBe(createRng(42).fork('y').next());
  });

  it('next() is uniform on [0, 1): chi-square over 20 bins', () => {
    const r = createRng(2024);
    const bins = new Float64Array(20);
    const N = 200_000;
    let outside = 0;
    for (let i = 0; i < N; i++) {
      const u = r.next();
      if (!(u >= 0 && u < 1)) outside++;
      else bins[Math.floor(u * 20)]! += 1;
    }
    expect(outside).toBe(0);
    const e = N / 20;
    const chi2 = bins.reduce((s, o) => s + (o - e) ** 2 / e, 0);
    // 19 degrees of freedom: P(chi2 > 43.82) = 0.001.
    expect(chi2).toBeLessThan(43.82);
  });

  it('int(n) is free of modulo bias for n near 2^32 and 2^53', () => {
    // With r mod n on 32-bit draws, n = 3·2^30 would put half the mass below 2^30, not a third.
    const r = createRng(5);
    const N = 30_000;
    let low32 = 0;
    let low53 = 0;
    for (let i = 0; i < N; i++) {
      if (r.int(3 * 2 ** 30) < 2 ** 30) low32++;
      if (r.int(3 * 2 ** 51) < 2 ** 51) low53++;
    }
    // Binomial(N, 1/3): sd = 82; 5 sd either side.
    expect(Math.abs(low32 - N / 3)).toBeLessThan(410);
    expect(Math.abs(low53 - N / 3)).toBeLessThan(410);
  });

  it('int(n) covers 0..n−1 uniformly (chi-square, n = 7)', () => {
    const r = createRng(9);
    const counts = new Float64Array(7);
    const N = 70_000;
    for (let i = 0; i < N; i++) counts[r.int(7)]! += 1;
    const chi2 = counts.reduce((s, o) => s + (o - N / 7) ** 2 / (N / 7), 0);
    expect(chi2).toBeLessThan(22.46); // 6 dof, p = 0.001
    expect(createRng(1).int(1)).toBe(0);
  });

  it('normal() has mean 0 and variance 1', () => {
    const r = createRng(11);
    const N = 100_000;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < N; i++) {
      const z = r.normal();
      s += z;
      s2 += z * z;
    }
    expect(Math.abs(s / N)).toBeLessThan(0.02); // sd of the mean: 0.0032
    expect(Math.abs(s2 / N - 1)).toBeLessThan(0.03); // sd of the variance: 0.0045
  });

  it('shuffle() permutes in place, typed arrays too', () => {
    const a = Int32Array.from({ length: 50 }, (_, i) => i);
    const out = createRng(3).shuffle(a);
    expect(out).toBe(a);
    expect(Array.from(a).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(Array.from(a)).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('rejects invalid seeds and bounds with clear messages', () => {
    expect(() => createRng(-1)).toThrow(/non-negative safe integer/);
    expect(() => createRng(1.5)).toThrow(/non-negative safe integer/);
    expect(() => createRng(1n << 64n)).toThrow(/outside \[0, 2\^64\)/);
    expect(() => createRng(1).int(0)).toThrow(/safe integer n >= 1/);
    expect(() => createRng(1).int(2 ** 53)).toThrow(/safe integer n >= 1/);
  });
});
