/**
 * Connected components of an undirected graph by depth-first search with an explicit stack.
 * S: (n, n) CSR, symmetric (an edge is stored both ways); an entry joins i and j when its weight
 * is > 0, so stored zeros (and negative weights) do not connect, or with `join` 'nonzero' when it
 * is ≠ 0 (the components of the nonzero pattern, over which a signed graph's Laplacian splits). Labels are numbered in order of
 * each component's smallest sample: sample 0 is in component 0, the first sample not reached from
 * it starts component 1, and so on. O(n + nnz) time, O(n) memory.
 */
import type { Csr } from '../linalg/types';

export interface Components {
  readonly count: number;
  /** (n,) component of each sample, 0 … count − 1. */
  readonly labels: Int32Array;
}

/** The connected components of the symmetric CSR graph S (see the module comment). */
export function connectedComponents(S: Csr, join: 'positive' | 'nonzero' = 'positive'): Components {
  const n = S.rows;
  const any = join === 'nonzero';
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let count = 0;
  for (let s = 0; s < n; s++) {
    if (labels[s] !== -1) continue;
    let top = 0;
    stack[top++] = s;
    labels[s] = count;
    while (top > 0) {
      const i = stack[--top]!;
      for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
        const j = S.indices[p]!;
        const w = S.data[p]!;
        if ((w > 0 || (any && w !== 0)) && labels[j] === -1) {
          labels[j] = count;
          stack[top++] = j;
        }
      }
    }
    count++;
  }
  return { count, labels };
}
