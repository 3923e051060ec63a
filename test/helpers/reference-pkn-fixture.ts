/** test/fixtures/graph/reference_pkn.json (written by reference_pkn.py beside it). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ReferencePknFixture {
  pkn: {
    n: number;
    d: number;
    k: number;
    X: number[];
    W: { indptr: number[]; indices: number[]; data: number[] };
  };
  zscore: { n: number; d: number; Y: number[]; Z: number[] };
}

export function referencePknFixture(): ReferencePknFixture {
  const url = new URL('../fixtures/graph/reference_pkn.json', import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as ReferencePknFixture;
}
