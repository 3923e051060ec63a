/** What the MLRSSC reference tests share: the captured solves, the flags of a run, the checks. */
import { expect } from 'vitest';
import {
  kmlrsscCentroid,
  kmlrsscPairwise,
  mlrsscCentroid,
  mlrsscPairwise,
} from '../../../../src/core/solvers/mlrssc';
import type { Solver, SolverOutput } from '../../../../src/core/solvers/types';
import { type MetricSummary, readReference, type ReferenceRun } from '../../../helpers/reference';

interface KernelCheck {
  K_trace: number[];
  K_fro: number[];
  K_sum: number[];
}
interface FinalCheck {
  C2_fro_per_view: number[];
  C2_nnz_per_view: number[];
  C1_rank_per_view: number[];
  affinity_sum: number;
  affinity_fro: number;
  affinity_nnz: number;
  C_trace: number;
  LapN_fro: number;
  smallest_c_plus_1_singular_values_of_LapN: number[];
}
interface IndependentCheck {
  max_rel_residual_diff_first_10: number;
  max_rel_residual_diff_all: number;
}
interface Diagnostics {
  sigma: number[] | null;
  optSigma: number[] | null;
  kernelChecks: { trace: number; sum: number; fro: number }[];
  mu: number[];
  residuals: [number, number, number, number][];
  C2: { fro: number; nnz: number }[];
  rankC1: number[];
  cTrace: number;
  affinity: { sum: number; fro: number; nnz: number };
  lapFro: number;
  smallestEigenvalues: number[];
}

const METRICS = ['ACC', 'NMI', 'Purity'] as const;
const band = (ref: MetricSummary): number => Math.max(0.02, 2 * ref.std * Math.sqrt(2 / 20));
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
const RESIDUAL_KEYS = [
  'max_abs_A_minus_C1',
  'max_abs_A_minus_C2',
  'max_abs_A_minus_C3',
  'max_abs_A_minus_Aprev',
] as const;

const SOLVERS: Record<string, Solver> = {
  'MLRSSC-pairwise': mlrsscPairwise,
  'MLRSSC-centroid': mlrsscCentroid,
  'KMLRSSC-pairwise': kmlrsscPairwise,
  'KMLRSSC-centroid': kmlrsscCentroid,
};
const outputs = new Map<string, SolverOutput>();
const key = (run: ReferenceRun): string => `${run.method} ${run.file}`;

/** The run's solver, keeping its output (deterministic: the protocol solves once). */
export function capturing(run: ReferenceRun): Solver {
  const s = SOLVERS[run.method]!;
  return {
    ...s,
    *run(input, params, k, rng) {
      const out = yield* s.run(input, params, k, rng);
      outputs.set(key(run), out);
      return out;
    },
  };
}

const published = (run: ReferenceRun): boolean =>
  String(run.raw['setting']).startsWith('published');

/**
 * The flags a user passes: none for a code-default run; the 3Sources published settings by
 * name (λ, μ0, err_thr, and the kernel variants' absolute widths σ_v).
 */
export function flags(run: ReferenceRun): Record<string, number | number[] | string> {
  if (!published(run)) return {};
  const p = run.params as {
    lambda: number[];
    mu0: number;
    max_mu: number;
    rho: number;
    num_iter: number;
    err_thr: number;
    sigma?: number[];
  };
  return {
    lambda1: p.lambda[0]!,
    lambda2: p.lambda[1]!,
    lambda3: p.lambda[2]!,
    mu0: p.mu0,
    maxMu: p.max_mu,
    rho: p.rho,
    iterations: p.num_iter,
    tolerance: p.err_thr,
    ...(p.sigma ? { sigma: p.sigma.join(',') } : {}),
  };
}

/** Every check of the header on one run's captured solve; returns the worst errors, for the log. */
export function checkRun(run: ReferenceRun): string {
  const out = outputs.get(key(run));
  expect(out, `${key(run)}: no solve captured`).toBeDefined();
  const d = out!.diagnostics as unknown as Diagnostics;
  const name = key(run);
  const kc = run.checks['kernel_check'] as KernelCheck;
  const f = run.checks['final_check'] as FinalCheck;
  const ic = run.checks['independent_check'] as IndependentCheck | null | undefined;
  const p = run.params as { sigma?: number[]; opt_sigma?: number[] };
  d.kernelChecks.forEach((k, v) => {
    expect(rel(k.trace, kc.K_trace[v]!), `${name} K_trace[${v}]`).toBeLessThan(1e-12);
    expect(rel(k.sum, kc.K_sum[v]!), `${name} K_sum[${v}]`).toBeLessThan(1e-10);
    expect(rel(k.fro, kc.K_fro[v]!), `${name} K_fro[${v}]`).toBeLessThan(1e-10);
  });
  if (p.sigma) {
    expect(d.sigma!.length).toBe(p.sigma.length);
    d.sigma!.forEach((s, v) => expect(rel(s, p.sigma![v]!), `${name} σ[${v}]`).toBeLessThan(1e-12));
    d.optSigma!.forEach((s, v) =>
      expect(rel(s, p.opt_sigma![v]!), `${name} opt_sigma[${v}]`).toBeLessThan(1e-12),
    );
  } else {
    expect(d.sigma).toBeNull();
  }
  expect(out!.iterations, `${name} iterations`).toBe(run.iterations);
  expect(out!.converged, `${name} converged`).toBe(run.raw['converged']);
  const muRef = run.raw['mu_trace'] as number[];
  expect(d.mu.length).toBe(muRef.length);
  d.mu.forEach((m, t) => expect(rel(m, muRef[t]!), `${name} μ[${t}]`).toBeLessThan(1e-12));
  const trace = run.raw['residual_trace'] as Record<string, number[]>;
  const early = Math.max(1e-9, 2 * (ic?.max_rel_residual_diff_first_10 ?? 0));
  const late = Math.max(2e-5, 2 * (ic?.max_rel_residual_diff_all ?? 0));
  let worstEarly = 0;
  let worstLate = 0;
  d.residuals.forEach((r, t) => {
    RESIDUAL_KEYS.forEach((k, j) => {
      const e = rel(r[j]!, trace[k]![t]!);
      if (t < 10) worstEarly = Math.max(worstEarly, e);
      else worstLate = Math.max(worstLate, e);
      expect(e, `${name} ${k}[${t}]`).toBeLessThan(t < 10 ? early : late);
    });
  });
  d.C2.forEach((c, v) => {
    expect(rel(c.fro, f.C2_fro_per_view[v]!), `${name} ‖C2‖_F[${v}]`).toBeLessThan(1e-9);
    expect(c.nnz, `${name} nnz(C2)[${v}]`).toBe(f.C2_nnz_per_view[v]);
  });
  expect(d.rankC1, `${name} rank(C1)`).toEqual(f.C1_rank_per_view);
  expect(d.cTrace).toBe(f.C_trace);
  expect(rel(d.affinity.sum, f.affinity_sum), `${name} Af sum`).toBeLessThan(1e-9);
  expect(rel(d.affinity.fro, f.affinity_fro), `${name} Af fro`).toBeLessThan(1e-9);
  expect(d.affinity.nnz, `${name} Af nnz`).toBe(f.affinity_nnz);
  expect(rel(d.lapFro, f.LapN_fro), `${name} ‖N‖_F`).toBeLessThan(1e-9);
  const sv = f.smallest_c_plus_1_singular_values_of_LapN;
  expect(d.smallestEigenvalues.length).toBe(sv.length);
  let worstEig = 0;
  sv.forEach((s, i) => {
    const ours = d.smallestEigenvalues[i]!;
    if (i === 0) expect(Math.abs(ours), `${name} N's smallest eigenvalue`).toBeLessThan(1e-12);
    else {
      worstEig = Math.max(worstEig, rel(ours, s));
      expect(rel(ours, s), `${name} N's eigenvalue ${i + 1}`).toBeLessThan(1e-9);
    }
  });
  return (
    `residuals ${worstEarly.toExponential(1)} (1–10) / ${worstLate.toExponential(1)} (later), ` +
    `eigenvalues ${worstEig.toExponential(1)}`
  );
}

export const reference = readReference('baselines-graph');
export const isMlrssc = (run: ReferenceRun): boolean => run.method in SOLVERS;
/** The runs with the longest solves (reference-slow.test.ts). */
export const isSlow = (run: ReferenceRun): boolean =>
  run.method.startsWith('MLRSSC') && !run.file.includes('3Sources');

export const suiteOptions = {
  params: flags,
  protocol: { protocol: 'paper', seed: 0 },
  metrics: { names: METRICS, band },
  check: (_result: unknown, run: ReferenceRun) => {
    console.log(`${key(run)}: ${checkRun(run)}`);
  },
  name: (run: ReferenceRun) =>
    `${run.method} ${run.file} (${published(run) ? 'published flags' : 'no flags'}): kernels, ` +
    'μ / residual traces, C, affinity and N checks, metrics within max(0.02, 2σ√(2/20))',
} as const;
