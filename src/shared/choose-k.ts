/**
 * The choose-k channels' types and payload check (core/choose-k: the eigengap and the
 * silhouette/objective per k of one method over a k range, without labels). The renderer
 * starts a sweep (`runs:chooseK`), reads its state (`runs:chooseKStatus`) until it ends, and
 * may cancel it (`runs:chooseKCancel`); the sweep runs in the solver worker like a run.
 */
import type { ChooseKPoint, ChooseKResult, Eigengap } from '../core/choose-k';
import type { ParamValue } from '../core/solvers/types';
import type { RunStatus, SerializedError } from './contract';
import { expectObject, expectString, invalid, parseParams } from './requests';

export type { ChooseKPoint, ChooseKResult, Eigengap };

/** What `runs:chooseK` asks: a sweep of `method` (its raw parameters) over from..to. */
export interface ChooseKStart {
  readonly datasetId: string;
  readonly method: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly from: number;
  readonly to: number;
  readonly seed: number;
}

/** Where a sweep is: solve `index` of `count` (the graph's solve, then one per k). */
export interface ChooseKProgress {
  readonly index: number;
  readonly count: number;
  readonly k: number;
  readonly stage: string;
}

/** A sweep as the renderer sees it; `result` once done, `error` once failed. */
export interface ChooseKInfo {
  readonly id: string;
  readonly datasetId: string;
  readonly method: string;
  readonly from: number;
  readonly to: number;
  readonly status: RunStatus;
  readonly progress: ChooseKProgress | null;
  readonly result: ChooseKResult | null;
  readonly error: SerializedError | null;
}

function wholeNumber(where: string, o: Readonly<Record<string, unknown>>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw invalid(where, `'${key}' must be a non-negative integer`);
  }
  return v;
}

/** Validates a `runs:chooseK` payload's shape; the range is checked against the dataset later. */
export function parseChooseKStart(p: unknown): ChooseKStart {
  const where = 'runs:chooseK';
  const o = expectObject(where, p, ['datasetId', 'method', 'params', 'from', 'to', 'seed']);
  return {
    datasetId: expectString(where, o, 'datasetId'),
    method: expectString(where, o, 'method'),
    params: parseParams(where, o['params']),
    from: wholeNumber(where, o, 'from'),
    to: wholeNumber(where, o, 'to'),
    seed: wholeNumber(where, o, 'seed'),
  };
}
