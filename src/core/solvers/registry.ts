/**
 * Solver name -> solver: the one list every host reads (CLI `methods`, the worker, the
 * renderer's method picker through the backend). Registration is static: each solver module is
 * imported here.
 */
import { amgl } from './amgl';
import { apmc } from './apmc';
import { bsv } from './bsv';
import { bsvKmeans } from './bsv-kmeans';
import { cgl, cgmvcNc } from './cgl';
import { eeimvc } from './eeimvc';
import { daimc } from './daimc';
import { flsd } from './flsd';
import { imvcCbg } from './imvc-cbg';
import { kmeansConcat } from './kmeans-concat';
import { mic } from './mic';
import { mkkmIk } from './mkkm-ik';
import { kmlrsscCentroid, kmlrsscPairwise, mlrsscCentroid, mlrsscPairwise } from './mlrssc';
import { mvgl } from './mvgl';
import { ueaf } from './ueaf';
import type { Solver } from './types';

const SOLVERS: Solver[] = [];

/** Adds solvers to the registry (called below, at module load). */
function register(...solvers: Solver[]): void {
  for (const s of solvers) {
    if (SOLVERS.some((t) => t.name === s.name))
      throw new Error(`solver '${s.name}' registered twice`);
    SOLVERS.push(s);
  }
}

/** Every registered solver, in registration order. */
export function listSolvers(): readonly Solver[] {
  return SOLVERS;
}

/** The solver called `name`; throws an error naming the known solvers otherwise. */
export function getSolver(name: string): Solver {
  const s = SOLVERS.find((t) => t.name === name);
  if (!s) {
    throw new Error(
      `unknown method '${name}'; methods: ${SOLVERS.map((t) => t.name).join(', ') || '(none)'}`,
    );
  }
  return s;
}

register(kmeansConcat, bsv, bsvKmeans);
register(imvcCbg);
register(cgl, cgmvcNc);
register(amgl);
register(mvgl);
register(mlrsscPairwise, mlrsscCentroid, kmlrsscPairwise, kmlrsscCentroid);
register(ueaf);
register(eeimvc);
register(apmc);
register(daimc);
register(flsd);
register(mic);
register(mkkmIk);
