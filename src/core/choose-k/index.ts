/**
 * Help choosing k for data without labels, over a range from..to (Orange's "Optimized From–To"):
 * 1. the eigengap (eigengap.ts) of the method's own graph when it declares one
 *    (`SolverDefinition.graph`), learnt in one extra solve at k = to + 1 so that the gap after
 *    the to-th eigenvalue exists (an anchor graph with m = k anchors has only k of them); for a
 *    method without a graph, of the views' kNN graph (no solve);
 * 2. for each k in from..to: the method under the single protocol (its parameters, one seed),
 *    then the presence-weighted silhouette of its labels in the views' own spaces
 *    (view-silhouette.ts: the same distances for every k, never the k-dependent embedding) and
 *    the method's final objective.
 * The silhouette's best k and the eigengap's are both reported; no label is read.
 *
 * A generator like the protocol's: it re-yields every protocol step with its place in the
 * sweep, so a host reports progress per k and cancels between steps. Pure: randomness only from
 * the seed (the silhouette's sample of a large view from createRng(seed).fork('choose-k')).
 */
import type { MultiViewDataset } from '../dataset';
import { evaluate, type ProtocolStep } from '../protocol';
import { createRng } from '../random';
import { SolverInputError } from '../solvers/params';
import type { Params, Solver, SolverGraph } from '../solvers/types';
import { eigengap, viewsKnnGraph, KNN_NEIGHBOURS, type Eigengap } from './eigengap';
import {
  MAX_SILHOUETTE_SAMPLES,
  viewDistance,
  viewSilhouette,
  type ViewDistances,
} from './view-silhouette';

export { MAX_SILHOUETTE_SAMPLES } from './view-silhouette';
export type { Eigengap } from './eigengap';

/** Most values of k one sweep tries. */
export const MAX_K_VALUES = 50;

export interface ChooseKOptions {
  readonly from: number;
  readonly to: number;
  readonly seed: number;
}

/** One k of the sweep. */
export interface ChooseKPoint {
  readonly k: number;
  /** Presence-weighted silhouette in the views' spaces; null when undefined (one cluster). */
  readonly silhouette: number | null;
  /** The method's final objective; null for a method without one. */
  readonly objective: number | null;
  /** Non-empty clusters of the labels (may be below k). */
  readonly clusters: number;
}

export interface ChooseKResult {
  readonly method: string;
  readonly from: number;
  readonly to: number;
  readonly seed: number;
  readonly points: readonly ChooseKPoint[];
  readonly eigengap: Eigengap;
  /** The k with the highest silhouette (the smallest on a tie); null when none is defined. */
  readonly silhouetteK: number | null;
  /** What the silhouette was computed on, in words (the views, a sample of a large view). */
  readonly silhouetteNote: string;
}

/** A step of the sweep: a protocol step of solve `index` (1-based) of `count`, at k. */
export interface ChooseKStep {
  readonly index: number;
  readonly count: number;
  readonly k: number;
  /**
   * 'graph': the extra solve for the method's graph; 'views': the views' distances for the
   * silhouette (one step per view, between the solves); 'sweep': a k of the range.
   */
  readonly phase: 'graph' | 'views' | 'sweep';
  readonly step: ProtocolStep;
}

/** "2..15" (or "2-15", or one number) to a range; throws a message naming the text. */
export function parseKRange(text: string): { from: number; to: number } {
  const m = /^\s*(\d+)\s*(?:(?:\.\.|-|–)\s*(\d+))?\s*$/.exec(text);
  if (!m) throw new SolverInputError(`k range '${text}': expected FROM..TO, e.g. 2..15`);
  const from = Number(m[1]);
  return { from, to: m[2] === undefined ? from : Number(m[2]) };
}

/** Checks a range against the dataset (2 ≤ from ≤ to ≤ n − 1, at most MAX_K_VALUES values). */
export function checkKRange(n: number, from: number, to: number): void {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 2 || to < from) {
    throw new SolverInputError(`k range ${from}..${to}: expected whole numbers with 2 ≤ from ≤ to`);
  }
  if (to > n - 1) {
    throw new SolverInputError(
      `k range ${from}..${to}: k can be at most n − 1 = ${n - 1} (the silhouette needs a sample ` +
        'left in some cluster)',
    );
  }
  if (to - from + 1 > MAX_K_VALUES) {
    throw new SolverInputError(
      `k range ${from}..${to}: ${to - from + 1} values; at most ${MAX_K_VALUES} per sweep`,
    );
  }
}

/** The sweep (see the file comment). `params` are validated by the protocol. */
export function* chooseK(
  ds: MultiViewDataset,
  solver: Solver,
  params: Params,
  options: ChooseKOptions,
): Generator<ChooseKStep, ChooseKResult, void> {
  const { from, to, seed } = options;
  checkKRange(ds.n, from, to);
  const graphK = to + 1;
  const count = to - from + 1 + (solver.graph !== undefined ? 1 : 0);
  let index = 0;
  const caught: { graph: SolverGraph | null } = { graph: null };
  const watched: Solver = {
    ...solver,
    run: function* (input, p, k, rng) {
      const out = yield* solver.run(input, p, k, rng);
      caught.graph ??= out.graph ?? null;
      return out;
    },
  };
  const single = { protocol: 'single', seed } as const;

  let gap: Eigengap;
  if (solver.graph !== undefined) {
    index = 1;
    const k = graphK;
    const gen = evaluate(ds, watched, params, k, single);
    for (let r = gen.next(); !r.done; r = gen.next()) {
      yield { index, count, k, phase: 'graph', step: r.value };
    }
    if (caught.graph === null) {
      throw new Error(`${solver.name} declares a graph but its output holds none`);
    }
    gap = eigengap(caught.graph, `${solver.graph}, learnt at k = ${graphK}`, from, to);
  } else {
    gap = eigengap(
      { kind: 'affinity', W: viewsKnnGraph(ds.n, ds.views) },
      `the views' ${KNN_NEIGHBOURS}-neighbour graphs, summed (the method learns no graph)`,
      from,
      to,
    );
  }

  // One view's distances per step, so that a host can cancel between them.
  const distances: ViewDistances[] = [];
  const rng = createRng(seed).fork('choose-k');
  for (const [v, view] of ds.views.entries()) {
    const d = viewDistance(view, v, rng);
    if (d) distances.push(d);
    const step = { stage: 'silhouette', iteration: v + 1, objective: null };
    yield { index, count, k: from, phase: 'views', step: { seedIndex: 1, seedCount: 1, step } };
  }
  const points: ChooseKPoint[] = [];
  for (let k = from; k <= to; k++) {
    index++;
    const gen = evaluate(ds, solver, params, k, single);
    let r = gen.next();
    for (; !r.done; r = gen.next()) yield { index, count, k, phase: 'sweep', step: r.value };
    const { labels, objective } = r.value;
    const seen = new Set<number>();
    for (const l of labels) seen.add(l);
    points.push({
      k,
      silhouette: viewSilhouette(distances, labels).score,
      objective: objective.length > 0 ? objective[objective.length - 1]! : null,
      clusters: seen.size,
    });
  }
  let silhouetteK: number | null = null;
  let best = -Infinity;
  for (const p of points) {
    if (p.silhouette !== null && p.silhouette > best) {
      best = p.silhouette;
      silhouetteK = p.k;
    }
  }
  const sampled = distances.filter((d) => d.samples.length < d.present);
  const silhouetteNote =
    `silhouette of the labels in each view's own features over its present samples, ` +
    `weighted by their number (${distances.length} view(s))` +
    (sampled.length > 0
      ? `; ${sampled.map((d) => `'${d.name}'`).join(', ')}: a seeded sample of ` +
        `${MAX_SILHOUETTE_SAMPLES} of its present samples, the same for every k`
      : '');
  return {
    method: solver.name,
    from,
    to,
    seed,
    points,
    eigengap: gap,
    silhouetteK,
    silhouetteNote,
  };
}
