/**
 * The evaluation protocol with toy solvers defined here: single and paper protocols, a
 * deterministic solver solved once, mean ± std checked by hand, metrics equal to
 * clusteringMetrics, the silhouette without labels, determinism per seed, step stages.
 */
import { describe, expect, it } from 'vitest';
import { makeLabels, type MultiViewDataset } from '../../src/core/dataset';
import { clusteringMetrics, silhouette } from '../../src/core/metrics';
import { evaluate, summarizeMetrics, type ProtocolStep } from '../../src/core/protocol';
import { kmeansOctaveSteps } from '../../src/core/cluster/kmeans-octave';
import { createRng } from '../../src/core/random';
import { MAX_SEEDS } from '../../src/core/limits';
import { NumericalError } from '../../src/core/linalg/errors';
import { ParamError, SolverInputError } from '../../src/core/solvers/params';
import type { Solver, SolverOutput, SolverStep } from '../../src/core/solvers/types';

/** 6 samples in two 2-D groups: {0, 1, 2} near (0, 0), {3, 4, 5} near (10, 10). */
const POINTS = [0, 0, 1, 0, 0, 1, 10, 10, 11, 10, 10, 11];
const TRUTH = [0, 0, 0, 1, 1, 1];

function toyDataset(labelled = true, points: readonly number[] = POINTS): MultiViewDataset {
  return {
    n: 6,
    views: [
      {
        name: 'a',
        d: 2,
        values: { kind: 'dense', rows: 6, cols: 2, data: Float64Array.from(points) },
        present: Int32Array.from([0, 1, 2, 3, 4, 5]),
      },
    ],
    labels: labelled ? makeLabels('Y', TRUTH) : null,
    sampleIds: null,
    provenance: {
      file: '(toy)',
      format: 'synthetic',
      variables: [],
      orientation: ['n x d'],
      missingness: 'complete',
      decisions: [],
      warnings: [],
    },
  };
}

const embedding = { rows: 6, cols: 2, data: Float64Array.from(POINTS) };

/**
 * A solver whose embedding is the view itself (k-means decides), two 'solve' iterations with
 * objectives 2 and 1. Counts its runs in `calls`.
 */
function embeddingSolver(deterministic: boolean): Solver & { calls: number } {
  const solver = {
    name: 'toy-embed',
    title: 'toy',
    description: 'the view as embedding',
    schema: { scale: { type: 'number', min: 0, max: 10, default: 1, doc: 'unused' } },
    deterministic,
    input: 'incomplete' as const,
    monotone: false,
    iterationCap: () => null,
    cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
    footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
    calls: 0,
    *run(): Generator<SolverStep, SolverOutput, void> {
      solver.calls++;
      yield { stage: 'solve', iteration: 1, objective: 2 };
      yield { stage: 'solve', iteration: 2, objective: 1 };
      return {
        embedding,
        objective: [2, 1],
        converged: true,
        iterations: 2,
        notes: ['toy note'],
      };
    },
  } satisfies Solver & { calls: number };
  return solver;
}

/**
 * A solver that labels by itself, from the seed: an even seed gives the true partition, an
 * odd one moves sample 2 to the other group (ACC 5/6). rng = createRng(seed), so key = seed.
 */
const seedLabeller: Solver = {
  name: 'toy-labels',
  title: 'toy',
  description: 'labels from the seed parity',
  schema: {},
  deterministic: false,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
  footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
  *run(_ds, _params, _k, rng) {
    const labels = Int32Array.from(TRUTH);
    if (rng.key % 2n === 1n) labels[2] = 1;
    yield { stage: 'solve', iteration: 1, objective: null };
    return { embedding, labels, objective: [], converged: true, iterations: 1, notes: [] };
  },
};

/** Drives the generator to the end: every step and the result. */
function drain<T>(gen: Generator<ProtocolStep, T, void>): { steps: ProtocolStep[]; result: T } {
  const steps: ProtocolStep[] = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return { steps, result: r.value };
    steps.push(r.value);
  }
}

describe('evaluate', () => {
  it('single protocol: one seed, k-means on the embedding, metrics of clusteringMetrics', () => {
    const solver = embeddingSolver(false);
    const { steps, result } = drain(
      evaluate(toyDataset(), solver, {}, 2, { protocol: 'single', seed: 4 }),
    );
    expect(solver.calls).toBe(1);
    expect(result.seeds).toEqual([4]);
    expect(result.perSeed).toHaveLength(1);
    expect(result.metrics['ACC']).toEqual({ mean: 1, std: 0 });
    expect(result.perSeed[0]!.metrics).toEqual({ ...clusteringMetrics(TRUTH, result.labels) });
    expect(result.objective).toEqual([2, 1]);
    expect(result).toMatchObject({ iterations: 2, converged: true, notes: ['toy note'] });
    // Stages in order: the solver's, its closing step, k-means iterations and close, metrics.
    const stages = steps.map((s) => s.step.stage);
    expect(stages.slice(0, 3)).toEqual(['solve', 'solve', 'solve']);
    expect(steps[2]!.step.values).toEqual({ end: 1 });
    expect(stages.at(-1)).toBe('metrics');
    expect(stages.at(-2)).toBe('kmeans');
    expect(stages.filter((s) => s === 'kmeans').length).toBeGreaterThan(1);
    expect(steps.every((s) => s.seedIndex === 1 && s.seedCount === 1)).toBe(true);
  });

  it('paper protocol: mean and N−1 std over the seeds, checked by hand', () => {
    const { result } = drain(
      evaluate(toyDataset(), seedLabeller, {}, 2, { protocol: 'paper', seed: 0, seeds: 3 }),
    );
    expect(result.seeds).toEqual([0, 1, 2]);
    expect(result.perSeed.map((r) => r.metrics['ACC'])).toEqual([1, 5 / 6, 1]);
    // ACC: 1, 5/6, 1 -> mean 17/18; deviations 1/18, −2/18, 1/18 -> std √(6/324 / 2) = √3/18.
    expect(result.metrics['ACC']!.mean).toBeCloseTo(17 / 18, 14);
    expect(result.metrics['ACC']!.std).toBeCloseTo(Math.sqrt(3) / 18, 14);
    // The returned labels are the first seed's.
    expect(Array.from(result.labels)).toEqual(TRUTH);
  });

  it('summarizeMetrics: sample std with N − 1, 0 for one value', () => {
    const s = summarizeMetrics([{ metrics: { x: 1 } }, { metrics: { x: 3 } }]);
    expect(s['x']).toEqual({ mean: 2, std: Math.SQRT2 });
    expect(summarizeMetrics([{ metrics: { x: 5 } }])['x']).toEqual({ mean: 5, std: 0 });
  });

  it('a deterministic solver is solved once; a random one once per seed', () => {
    const det = embeddingSolver(true);
    const { steps, result } = drain(
      evaluate(toyDataset(), det, {}, 2, { protocol: 'paper', seed: 10, seeds: 4, replicates: 2 }),
    );
    expect(det.calls).toBe(1);
    expect(result.perSeed).toHaveLength(4);
    expect(steps.filter((s) => s.step.stage === 'solve')).toHaveLength(3);
    expect(new Set(steps.map((s) => s.seedIndex))).toEqual(new Set([1, 2, 3, 4]));
    expect(result.notes).toEqual(['toy note', expect.stringMatching(/solved once/)]);
    const random = embeddingSolver(false);
    drain(evaluate(toyDataset(), random, {}, 2, { protocol: 'paper', seed: 10, seeds: 4 }));
    expect(random.calls).toBe(4);
  });

  it('the same seed gives the same labels', () => {
    const run = (seed: number): number[] =>
      Array.from(
        drain(evaluate(toyDataset(), embeddingSolver(false), {}, 3, { protocol: 'single', seed }))
          .result.labels,
      );
    expect(run(42)).toEqual(run(42));
  });

  it("returns every seed's labels: seed s of a paper run labels as a single run with seed s", () => {
    const options = { protocol: 'paper', seed: 3, seeds: 3, replicates: 2 } as const;
    const { result } = drain(evaluate(toyDataset(), seedLabeller, {}, 2, options));
    expect(result.seedLabels).toHaveLength(3);
    expect(result.seedLabels[0]).toBe(result.labels);
    for (const [i, seed] of [3, 4, 5].entries()) {
      const single = drain(
        evaluate(toyDataset(), seedLabeller, {}, 2, { protocol: 'single', seed, replicates: 2 }),
      ).result;
      expect(Array.from(result.seedLabels[i]!)).toEqual(Array.from(single.labels));
      expect(result.perSeed[i]!.metrics).toEqual(single.perSeed[0]!.metrics);
    }
    // Odd seeds move sample 2: the labels of seeds 3 and 4 differ.
    expect(Array.from(result.seedLabels[0]!)).not.toEqual(Array.from(result.seedLabels[1]!));
  });

  it('without labels: the silhouette of the labels on the embedding', () => {
    const { result } = drain(
      evaluate(toyDataset(false), embeddingSolver(false), {}, 2, { protocol: 'single', seed: 1 }),
    );
    const expected = silhouette(embedding, result.labels, createRng(0)).score;
    expect(Object.keys(result.metrics)).toEqual(['Silhouette']);
    expect(result.metrics['Silhouette']!.mean).toBeCloseTo(expected, 14);
  });

  it('refuses bad parameters, k and seeds before solving', () => {
    const solver = embeddingSolver(false);
    const opts = { protocol: 'single', seed: 0 } as const;
    expect(() => drain(evaluate(toyDataset(), solver, { scale: 11 }, 2, opts))).toThrow(ParamError);
    expect(() => drain(evaluate(toyDataset(), solver, { bogus: 1 }, 2, opts))).toThrow(
      /unknown parameter 'bogus'/,
    );
    expect(() => drain(evaluate(toyDataset(), solver, {}, 7, opts))).toThrow(/k must be .* 2 to 6/);
    expect(() =>
      drain(evaluate(toyDataset(), solver, {}, 2, { protocol: 'paper', seed: 0, seeds: 0 })),
    ).toThrow(/seeds must be/);
    expect(() => drain(evaluate(toyDataset(), solver, {}, 2, { ...opts, seed: -1 }))).toThrow(
      /seed must be/,
    );
    expect(solver.calls).toBe(0);
  });

  it('refuses k = 1 and more seeds than MAX_SEEDS', () => {
    const solver = embeddingSolver(false);
    expect(() =>
      drain(evaluate(toyDataset(), solver, {}, 1, { protocol: 'single', seed: 0 })),
    ).toThrow(/k must be a whole number from 2 to 6 \(the samples\), got 1/);
    expect(() =>
      drain(
        evaluate(toyDataset(), solver, {}, 2, {
          protocol: 'paper',
          seed: 0,
          seeds: MAX_SEEDS + 1,
        }),
      ),
    ).toThrow(
      new SolverInputError(
        `seeds must be a whole number from 1 to ${MAX_SEEDS}, got ${MAX_SEEDS + 1}`,
      ),
    );
    expect(solver.calls).toBe(0);
  });
});

/** The view itself as the embedding (as kmeans-concat without normalisation). */
const viewSolver: Solver = {
  name: 'toy-view',
  title: 'toy',
  description: 'the first view as embedding',
  schema: {},
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
  footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
  *run(ds) {
    yield { stage: 'solve', iteration: 1, objective: null };
    const v = ds.views[0]!.values;
    if (v.kind !== 'dense') throw new Error('dense only');
    return { embedding: v, objective: [], converged: true, iterations: 1, notes: [] };
  },
};

/** A solver returning `output` as its result (embedding the toy points unless given). */
function fixedSolver(output: Partial<SolverOutput>, fail?: Error): Solver {
  return {
    name: 'toy-fixed',
    title: 'toy',
    description: 'a fixed output',
    schema: {},
    deterministic: false,
    input: 'incomplete',
    monotone: false,
    iterationCap: () => null,
    cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
    footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
    // eslint-disable-next-line require-yield
    *run() {
      if (fail) throw fail;
      return { embedding, objective: [], converged: true, iterations: 1, notes: [], ...output };
    },
  };
}

describe('evaluate: results that cannot be trusted', () => {
  const single = { protocol: 'single', seed: 0 } as const;

  it('fails a run whose distances overflow (1e200), naming the view and its magnitude', () => {
    const points = [...POINTS];
    points[3] = 1e200;
    const run = (): unknown => drain(evaluate(toyDataset(true, points), viewSolver, {}, 2, single));
    expect(run).toThrow(SolverInputError);
    expect(run).toThrow(
      "toy-view: the k-means objective (SSE) is Infinity: the distances overflow (view 'a' holds values up to 1e200): rescale the data",
    );
  });

  it('refuses NaN and Inf in a view, naming the view, sample and feature', () => {
    for (const bad of [NaN, -Infinity]) {
      const points = [...POINTS];
      points[5] = bad; // sample 3, feature 2
      expect(() => drain(evaluate(toyDataset(true, points), viewSolver, {}, 2, single))).toThrow(
        `toy-view: view 'a' holds ${bad} at sample 3, feature 2 (1-based); runs refuse NaN and Inf values`,
      );
    }
  });

  it('refuses NaN in a sparse view, naming the original sample of a partial view', () => {
    const ds = toyDataset();
    const csr = {
      kind: 'csr' as const,
      rows: 3,
      cols: 4,
      indptr: Int32Array.from([0, 1, 1, 3]),
      indices: Int32Array.from([2, 0, 3]),
      data: Float64Array.from([1, 2, NaN]),
    };
    const withSparse = {
      ...ds,
      views: [...ds.views, { name: 'b', d: 4, values: csr, present: Int32Array.from([0, 2, 5]) }],
    };
    expect(() => drain(evaluate(withSparse, viewSolver, {}, 2, single))).toThrow(
      "toy-view: view 'b' holds NaN at sample 6, feature 4 (1-based)",
    );
  });

  it("fails a run whose embedding is not finite, with the views' magnitudes", () => {
    const bad = { rows: 6, cols: 2, data: Float64Array.from(POINTS) };
    bad.data[4] = Infinity;
    expect(() =>
      drain(evaluate(toyDataset(), fixedSolver({ embedding: bad }), {}, 2, single)),
    ).toThrow(
      "toy-fixed: the embedding is not finite (Infinity at sample 3): the data do not overflow (largest values: 'a' up to 11), so the method broke down on them numerically",
    );
  });

  it('turns a numerical failure of the solver into bad input naming the method', () => {
    const solver = fixedSolver(
      {},
      new NumericalError('symEig: QL did not converge for eigenvalue 3'),
    );
    const run = (): unknown => drain(evaluate(toyDataset(), solver, {}, 2, single));
    expect(run).toThrow(SolverInputError);
    expect(run).toThrow(
      /^toy-fixed: a numerical step failed \(symEig: QL did not converge for eigenvalue 3\): /,
    );
  });

  it('notes fewer non-empty clusters than k, and leaves out a silhouette of one cluster', () => {
    const one = fixedSolver({ labels: new Int32Array(6) });
    const labelled = drain(evaluate(toyDataset(), one, {}, 2, single)).result;
    expect(labelled.notes[0]).toMatch(/^only 1 of the k = 2 clusters are non-empty \(seed 0\)/);
    expect(labelled.metrics['ACC']!.mean).toBeCloseTo(0.5, 15);
    const unlabelled = drain(
      evaluate(toyDataset(false), one, {}, 2, { protocol: 'paper', seed: 0, seeds: 2 }),
    ).result;
    expect(unlabelled.metrics).toEqual({});
    expect(unlabelled.notes).toEqual([
      'only 1 of the k = 2 clusters are non-empty (seed 0; 2 of 2 seeds had empty clusters): the data may hold fewer than k distinct points, or the method merged clusters',
      'silhouette left out: it needs 2 to n − 1 = 5 clusters, the labels have 1',
    ]);
  });
});

describe("evaluate: kmeansRule 'octave-1.5.3'", () => {
  const options = {
    protocol: 'paper',
    seed: 3,
    seeds: 2,
    replicates: 4,
    kmeansMaxIterations: 50,
  } as const;

  it('clusters with the Octave-rule k-means on each seed’s k-means stream, and says so', () => {
    const { result } = drain(
      evaluate(toyDataset(), embeddingSolver(true), {}, 2, {
        ...options,
        kmeansRule: 'octave-1.5.3',
      }),
    );
    expect(result.seeds).toEqual([3, 4]);
    result.seeds.forEach((seed, i) => {
      const g = kmeansOctaveSteps(
        embedding,
        2,
        { replicates: 4, maxIterations: 50 },
        createRng(seed).fork('kmeans'),
      );
      let r = g.next();
      while (!r.done) r = g.next();
      expect(Array.from(result.seedLabels[i]!)).toEqual(Array.from(r.value.labels));
    });
    expect(result.metrics['ACC']!.mean).toBe(1);
    expect(result.notes.some((n) => n.includes('GNU Octave statistics 1.5.3'))).toBe(true);
  });

  it("the default stays 'matlab', with no such note", () => {
    const { result } = drain(evaluate(toyDataset(), embeddingSolver(true), {}, 2, options));
    expect(result.notes.some((n) => n.includes('Octave'))).toBe(false);
  });

  it('refuses an unknown rule, naming the field', () => {
    const bad = { ...options, kmeansRule: 'sklearn' } as unknown as Parameters<typeof evaluate>[4];
    expect(() => drain(evaluate(toyDataset(), embeddingSolver(true), {}, 2, bad))).toThrow(
      /kmeansRule must be 'matlab' or 'octave-1.5.3', got 'sklearn'/,
    );
  });
});
