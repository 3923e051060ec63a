/**
 * The seeded pseudo-random generator: the only source of randomness in `core` (STYLE rule 9).
 *
 * Algorithm: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 47(4), 2021; reference C at https://prng.di.unimi.it/xoshiro256starstar.c).
 * 256 bits of state s[0..3], period 2^256 − 1, one 64-bit output per step:
 *
 *   result = rotl(s1 · 5, 7) · 9            (mod 2^64)
 *   t = s1 << 17;  s2 ^= s0;  s3 ^= s1;  s1 ^= s2;  s0 ^= s3;  s2 ^= t;  s3 = rotl(s3, 45)
 *
 * JavaScript has no 64-bit integers short of BigInt (far too slow per draw), so each 64-bit word
 * is held as two 32-bit halves (hi, lo) in an Int32Array and the products by 5 and 9 are done as
 * shift-and-add with an explicit carry. A step costs ~20 32-bit operations and no allocation.
 *
 * Seeding: a 64-bit key is expanded into the four state words by four successive outputs of
 * splitmix64 (Steele, Lea & Flood, OOPSLA 2014), as the xoshiro authors recommend; the state is
 * never all zero. BigInt is used there only (four times per generator).
 *
 * Derived streams:
 * - `fork(label)` makes a child whose key is splitmix64(key XOR fnv1a64(utf8(label))). It reads
 *   only the parent's key, not its position: `createRng(s).fork('replicate 3')` is the same
 *   stream however much the parent has drawn. Use it to name streams (one per replicate/seed).
 * - `split()` consumes one 64-bit output of the parent and uses it as the child's key, like
 *   Java's SplittableRandom: order-dependent, for anonymous streams.
 *
 * Outputs (each documented at its method): `next()` 53-bit doubles in [0, 1); `int(n)` by
 * rejection (no modulo bias); `normal()` Box–Muller; `shuffle()` Fisher–Yates.
 *
 * An independent Python implementation (test/fixtures/random/make.py) produces the reference
 * outputs the tests compare with.
 */

const MASK64 = (1n << 64n) - 1n;
const TWO32 = 4294967296;
const TWO53 = 9007199254740992;
const TWO_M53 = 1 / TWO53;

/** A 64-bit seed: a non-negative safe integer, or a bigint in [0, 2^64). */
export type Seed = number | bigint;

/** The seeded generator. All methods are deterministic functions of the key and the call sequence. */
export interface Rng {
  /** The 64-bit key this stream was created from (store it with a result to reproduce it). */
  readonly key: bigint;
  /** A double uniform on [0, 1): the top 53 bits of one output, times 2^-53. */
  next(): number;
  /** The top 32 bits of one output, as an unsigned integer in [0, 2^32). */
  uint32(): number;
  /** One full 64-bit output, as a bigint in [0, 2^64) (slow; for tests and keys). */
  uint64(): bigint;
  /**
   * An integer uniform on 0..n−1, for a safe integer n ≥ 1, without modulo bias: for n ≤ 2^32 a
   * 32-bit draw r is rejected while r ≥ 2^32 − (2^32 mod n), else r mod n is returned; above
   * 2^32 the same with 53-bit draws and 2^53.
   */
  int(n: number): number;
  /**
   * A standard normal deviate by the Box–Muller transform: u1 = 1 − next() ∈ (0, 1],
   * u2 = next(), r = √(−2 ln u1); returns r·cos(2πu2), and r·sin(2πu2) on the following call.
   */
  normal(): number;
  /** Fisher–Yates shuffle in place (i from the end down to 1, swap with int(i + 1)); returns `a`. */
  shuffle<A extends { length: number; [i: number]: unknown }>(a: A): A;
  /** A child stream named by `label`, independent of how much this stream has drawn. */
  fork(label: string): Rng;
  /** A child stream keyed by this stream's next 64-bit output (advances this stream once). */
  split(): Rng;
}

/** One splitmix64 step: returns [the advanced counter, the output]. */
function splitmix64(x: bigint): [bigint, bigint] {
  const next = (x + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [next, z ^ (z >> 31n)];
}

/** FNV-1a, 64-bit, over the UTF-8 bytes of `s`. */
function fnv1a64(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(s)) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & MASK64;
  }
  return h;
}

function checkSeed(seed: Seed): bigint {
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > MASK64) throw new RangeError(`seed ${seed} is outside [0, 2^64)`);
    return seed;
  }
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a non-negative safe integer or a bigint, got ${seed}`);
  }
  return BigInt(seed);
}

class Xoshiro256 implements Rng {
  readonly key: bigint;
  /** [s0 hi, s0 lo, s1 hi, s1 lo, s2 hi, s2 lo, s3 hi, s3 lo], raw 32-bit patterns. */
  private readonly s = new Int32Array(8);
  /** The last output's halves (raw 32-bit patterns). */
  private hi = 0;
  private lo = 0;
  /** The second Box–Muller deviate, or NaN when none is pending. */
  private spare = NaN;

  constructor(key: bigint) {
    this.key = key;
    let x = key;
    for (let w = 0; w < 4; w++) {
      const [nx, z] = splitmix64(x);
      x = nx;
      this.s[2 * w] = Number(z >> 32n) | 0;
      this.s[2 * w + 1] = Number(z & 0xffffffffn) | 0;
    }
  }

  /** One xoshiro256** step: the output goes to (hi, lo), the state advances. */
  private step(): void {
    const s = this.s;
    const s0h = s[0]!,
      s0l = s[1]!,
      s1h = s[2]!,
      s1l = s[3]!;
    let s2h = s[4]!,
      s2l = s[5]!,
      s3h = s[6]!,
      s3l = s[7]!;

    // p = s1 · 5 = (s1 << 2) + s1
    let sum = ((s1l << 2) >>> 0) + (s1l >>> 0);
    let ph = (((s1h << 2) | (s1l >>> 30)) + s1h + (sum >= TWO32 ? 1 : 0)) | 0;
    const pl = sum | 0;
    // r = rotl(p, 7)
    const rh = (ph << 7) | (pl >>> 25);
    const rl = (pl << 7) | (ph >>> 25);
    // result = r · 9 = (r << 3) + r
    sum = ((rl << 3) >>> 0) + (rl >>> 0);
    ph = (((rh << 3) | (rl >>> 29)) + rh + (sum >= TWO32 ? 1 : 0)) | 0;
    this.hi = ph;
    this.lo = sum | 0;

    // t = s1 << 17
    const th = (s1h << 17) | (s1l >>> 15);
    const tl = s1l << 17;
    s2h ^= s0h;
    s2l ^= s0l;
    s3h ^= s1h;
    s3l ^= s1l;
    s[2] = s1h ^ s2h;
    s[3] = s1l ^ s2l;
    s[0] = s0h ^ s3h;
    s[1] = s0l ^ s3l;
    s[4] = s2h ^ th;
    s[5] = s2l ^ tl;
    // s3 = rotl(s3, 45) = rotl(swap halves, 13)
    s[6] = (s3l << 13) | (s3h >>> 19);
    s[7] = (s3h << 13) | (s3l >>> 19);
  }

  next(): number {
    this.step();
    return ((this.hi >>> 0) * 2097152 + (this.lo >>> 11)) * TWO_M53;
  }

  uint32(): number {
    this.step();
    return this.hi >>> 0;
  }

  uint64(): bigint {
    this.step();
    return (BigInt(this.hi >>> 0) << 32n) | BigInt(this.lo >>> 0);
  }

  int(n: number): number {
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new RangeError(`int(n) needs a safe integer n >= 1, got ${n}`);
    }
    if (n <= TWO32) {
      const limit = TWO32 - (TWO32 % n);
      for (;;) {
        const r = this.uint32();
        if (r < limit) return r % n;
      }
    }
    const limit = TWO53 - (TWO53 % n);
    for (;;) {
      this.step();
      const r = (this.hi >>> 0) * 2097152 + (this.lo >>> 11);
      if (r < limit) return r % n;
    }
  }

  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const z = this.spare;
      this.spare = NaN;
      return z;
    }
    const u1 = 1 - this.next();
    const u2 = this.next();
    const r = Math.sqrt(-2 * Math.log(u1));
    const a = 2 * Math.PI * u2;
    this.spare = r * Math.sin(a);
    return r * Math.cos(a);
  }

  shuffle<A extends { length: number; [i: number]: unknown }>(a: A): A {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  fork(label: string): Rng {
    return new Xoshiro256(splitmix64(this.key ^ fnv1a64(label))[1]);
  }

  split(): Rng {
    return new Xoshiro256(this.uint64());
  }
}

/**
 * A generator seeded with `seed` (a non-negative safe integer, or a bigint in [0, 2^64)).
 * The same seed gives the same sequence on every platform.
 */
export function createRng(seed: Seed): Rng {
  return new Xoshiro256(checkSeed(seed));
}
