/**
 * UEAF's cases of the baselines-incomplete benchmark: every recorded 'UEAF' run of
 * `shared/reference/baselines-incomplete.json` (NGs Per0.1, Per0.5, Per0.9), mapped key by key
 * so a new or renamed key fails loudly: lambda1..3 and r as they are, knn → knn, max_iter →
 * iterations, dim → dim (0 = k when it equals the run's k). Time: timings_s.graphs +
 * timings_s.solver (the feature graphs, then UEAF.m), the span our solve covers. Target: faster
 * than the reference (issue 21). UEAF holds dense n × n arrays, so it has no scale case.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParamValue } from '../../../src/core/solvers/types';
import { SHARED } from '../../helpers/paths';
import type { IncompleteBenchCase } from './types';

interface Run {
  readonly file: string;
  readonly method: string;
  readonly k: number;
  readonly params: Readonly<Record<string, number>>;
  readonly timings_s: Readonly<Record<string, number>>;
}

const KEYS = ['lambda1', 'lambda2', 'lambda3', 'r', 'knn', 'max_iter', 'dim'];

function params(run: Run): Readonly<Record<string, ParamValue>> {
  const extra = Object.keys(run.params).filter((key) => !KEYS.includes(key));
  if (extra.length > 0) throw new Error(`ueaf bench: unmapped keys in ${run.file}: ${extra}`);
  const p = run.params;
  return {
    lambda1: p['lambda1']!,
    lambda2: p['lambda2']!,
    lambda3: p['lambda3']!,
    r: p['r']!,
    knn: p['knn']!,
    iterations: p['max_iter']!,
    dim: p['dim'] === run.k ? 0 : p['dim']!,
  };
}

const runs = (
  JSON.parse(readFileSync(join(SHARED, 'reference', 'baselines-incomplete.json'), 'utf8')) as {
    runs: Run[];
  }
).runs.filter((r) => r.method === 'UEAF');

export const cases: IncompleteBenchCase[] = runs.map((run) => ({
  name: run.file.replace(/^.*\/(\w+)_(Per[\d.]+)\.mat$/, '$1 $2'),
  method: 'ueaf',
  params: params(run),
  file: run.file,
  referenceSeconds: run.timings_s['graphs']! + run.timings_s['solver']!,
  definition: 'feature graphs + solve',
  target: 1,
}));

export const scale = false;
