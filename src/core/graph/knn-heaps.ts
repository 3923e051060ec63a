/**
 * The bounded max-heaps of the k nearest neighbours (knn.ts): every candidate pair is offered
 * here, and the heaps are sorted into the result at the end.
 */
import type { Knn } from './knn';

/**
 * n bounded max-heaps of (distance, index) pairs under lexicographic order, k slots each,
 * stored in two (n, k) arrays. `worst[r]` caches the root of a full heap (else +∞) so that a
 * rejected candidate costs one comparison.
 */
export class Heaps {
  private readonly dist: Float64Array;
  private readonly idx: Int32Array;
  private readonly size: Int32Array;
  /** Read by the sweeps' fast rejection; written only here. */
  readonly worst: Float64Array;

  constructor(
    private readonly n: number,
    private readonly k: number,
  ) {
    this.dist = new Float64Array(n * k);
    this.idx = new Int32Array(n * k);
    this.size = new Int32Array(n);
    this.worst = new Float64Array(n).fill(Infinity);
  }

  /** Offers candidate j at distance d to row r. */
  offer(r: number, j: number, d: number): void {
    const w = this.worst[r]!;
    if (d > w) return;
    const o = r * this.k;
    if (d === w && j > this.idx[o]!) return;
    const s = this.size[r]!;
    if (s < this.k) {
      this.siftUp(o, s, d, j);
      this.size[r] = s + 1;
      if (s + 1 === this.k) this.worst[r] = this.dist[o]!;
    } else {
      this.siftDown(o, this.k, d, j);
      this.worst[r] = this.dist[o]!;
    }
  }

  private siftUp(o: number, pos: number, d: number, j: number): void {
    let p = pos;
    while (p > 0) {
      const parent = (p - 1) >> 1;
      if (!this.less(o + parent, d, j)) break;
      this.dist[o + p] = this.dist[o + parent]!;
      this.idx[o + p] = this.idx[o + parent]!;
      p = parent;
    }
    this.dist[o + p] = d;
    this.idx[o + p] = j;
  }

  /** Replaces the root of a heap of `size` entries by (d, j) and restores the heap order. */
  private siftDown(o: number, size: number, d: number, j: number): void {
    const k = size;
    let p = 0;
    for (;;) {
      let ch = 2 * p + 1;
      if (ch >= k) break;
      if (ch + 1 < k && this.less(o + ch, this.dist[o + ch + 1]!, this.idx[o + ch + 1]!)) ch++;
      if (this.less(o + ch, d, j)) break; // (pairs are distinct: no equality case)
      this.dist[o + p] = this.dist[o + ch]!;
      this.idx[o + p] = this.idx[o + ch]!;
      p = ch;
    }
    this.dist[o + p] = d;
    this.idx[o + p] = j;
  }

  /** Entry at q is lexicographically smaller than (d, j). */
  private less(q: number, d: number, j: number): boolean {
    const dq = this.dist[q]!;
    return dq < d || (dq === d && this.idx[q]! < j);
  }

  /**
   * The heaps as sorted (n, k) rows (ascending distance, then index): heap q is the row
   * order[q] of the result (order null: q). Heapsort: the root (the largest) goes last, the
   * heap shrinks by one; O(n·k log k). Every heap is full by then (each row was offered, or
   * provably did not need, every other row). Empties the heaps.
   */
  sorted(order: Int32Array | null): Knn {
    const { n, k } = this;
    const indices = new Int32Array(n * k);
    const distances = new Float64Array(n * k);
    for (let q = 0; q < n; q++) {
      const o = q * k;
      const r = (order === null ? q : order[q]!) * k;
      for (let end = k - 1; end >= 0; end--) {
        indices[r + end] = this.idx[o]!;
        distances[r + end] = this.dist[o]!;
        this.siftDown(o, end, this.dist[o + end]!, this.idx[o + end]!);
      }
    }
    return { n, k, indices, distances };
  }
}
