/**
 * The external clustering metrics of the field, as the reference `Clustering8Measure.m`
 * (IMVC-CBG and CGL) computes them; specs/metrics.md is the contract and
 * ../shared/reference/metrics.json (Octave output on 24 cases) the reference test.
 *
 * Notation: G the contingency table (rows: the c true classes, columns: the k predicted
 * clusters), n_ij its cells, a_i = Σ_j n_ij the class sizes, b_j = Σ_i n_ij the cluster sizes,
 * n samples, C(x, 2) = x(x−1)/2 and log = log2.
 *
 *   ACC         max over one-to-one maps σ (clusters -> classes) of Σ_j n_{σ(j) j} / n
 *               (Hungarian on G, padded square in the reference; see assignment.ts)
 *   NMI         2·MI / (H(class) + H(cluster)),  MI = Σ_ij (n_ij/n) log(n·n_ij / (a_i b_j)),
 *               H(class) = Σ_i (a_i/n) log(n/a_i), H(cluster) likewise with b_j
 *   Purity      Σ_j max_i n_ij / n
 *   Precision   TP / Σ_j C(b_j, 2)  (1 if no two samples share a cluster),  TP = Σ_ij C(n_ij, 2)
 *   Recall      TP / Σ_i C(a_i, 2)  (1 if no two samples share a class)
 *   Fscore      2·P·R / (P + R)  (0 if P + R = 0)
 *   ARI         (TP − E) / (M − E),  E = Σ_i C(a_i,2) · Σ_j C(b_j,2) / C(n,2),
 *               M = (Σ_i C(a_i,2) + Σ_j C(b_j,2)) / 2  (Hubert & Arabie 1985); 0 when M = E,
 *               which happens exactly when both partitions are a single group or both all
 *               singletons (the reference's "t1 == nc" rule)
 *   Entropy     CGL's: Σ_ij (n_ij/n) log(b_j / n_ij) = H(class | cluster), the class entropy
 *               inside each cluster weighted by cluster size
 *   EntropyPred IMVC-CBG's "Entropy": H(cluster) = Σ_j (b_j/n) log(n/b_j)
 *
 * One deliberate difference: when H(class) = H(cluster) = 0 (one class and one cluster) the
 * reference's NMI is 0/0 = NaN; we return 1 as scikit-learn does (the partitions are identical).
 * Every metric costs O(n + c + k) after the table, except ACC: O(min(c,k)² · max(c,k)).
 */
import type { Mat } from '../linalg/types';
import { assignment } from './assignment';
import { contingency, type Contingency } from './contingency';

export interface ClusteringMetrics {
  ACC: number;
  NMI: number;
  Purity: number;
  Fscore: number;
  Precision: number;
  Recall: number;
  ARI: number;
  /** CGL's Entropy: H(class | cluster), log2. */
  Entropy: number;
  /** IMVC-CBG's Entropy: H(cluster), the entropy of the predicted cluster sizes, log2. */
  EntropyPred: number;
}

export type MetricName = keyof ClusteringMetrics;

/** Output order of the Improved IMVC-CBG code; its "Entropy" is our EntropyPred. */
export const IMPROVED_ORDER: readonly MetricName[] = [
  'ACC',
  'NMI',
  'Purity',
  'Fscore',
  'Precision',
  'Recall',
  'ARI',
  'EntropyPred',
];

/** Output order of the original IMVC-CBG and the CGL code (its Entropy is CGL's). */
export const CGL_ORDER: readonly MetricName[] = [
  'Fscore',
  'Precision',
  'Recall',
  'NMI',
  'ARI',
  'Entropy',
  'ACC',
  'Purity',
];

/** Largest dense assignment problem ACC will build (rows × columns of G's shorter side). */
const MAX_ASSIGNMENT_CELLS = 1 << 24;

const pairs = (x: number): number => (x * (x - 1)) / 2;

/** H(p) in bits for group sizes summing to n. */
function entropyOfSizes(sizes: Float64Array, n: number): number {
  let h = 0;
  for (const s of sizes) if (s > 0) h += (s / n) * Math.log2(n / s);
  return h;
}

/** ACC: the best one-to-one matching of clusters to classes, as a fraction of n. */
export function accuracyFromTable(G: Contingency): number {
  const { nClasses: c, nClusters: k } = G;
  if (c * k > MAX_ASSIGNMENT_CELLS) {
    throw new RangeError(
      `ACC: matching ${k} clusters to ${c} classes needs a ${c}x${k} assignment, above the limit of ${MAX_ASSIGNMENT_CELLS} cells`,
    );
  }
  // Maximise matched counts = minimise −G (classes as rows).
  const cost: Mat = { rows: c, cols: k, data: new Float64Array(c * k) };
  for (let i = 0; i < c; i++) {
    for (let p = G.rowPtr[i]!; p < G.rowPtr[i + 1]!; p++)
      cost.data[i * k + G.cluster[p]!] = -G.count[p]!;
  }
  const sigma = assignment(cost);
  let matched = 0;
  for (let i = 0; i < c; i++) if (sigma[i]! >= 0) matched -= cost.data[i * k + sigma[i]!]!;
  return matched / G.n;
}

interface PairCounts {
  /** Pairs of samples in one class and one cluster. */
  readonly tp: number;
  /** Pairs in one class; pairs in one cluster. */
  readonly sameClass: number;
  readonly sameCluster: number;
}

function pairCounts(G: Contingency): PairCounts {
  let tp = 0;
  for (let p = 0; p < G.rowPtr[G.nClasses]!; p++) tp += pairs(G.count[p]!);
  let sameClass = 0;
  for (const x of G.classSizes) sameClass += pairs(x);
  let sameCluster = 0;
  for (const x of G.clusterSizes) sameCluster += pairs(x);
  return { tp, sameClass, sameCluster };
}

/** ARI from the pair counts; 0 for the degenerate tables where it is 0/0. */
function ariOfPairs({ tp, sameClass, sameCluster }: PairCounts, n: number): number {
  const total = pairs(n);
  const degenerate = sameClass === sameCluster && (sameClass === 0 || sameClass === total);
  if (degenerate) return 0;
  const expected = (sameClass * sameCluster) / total;
  return (tp - expected) / ((sameClass + sameCluster) / 2 - expected);
}

/**
 * The adjusted Rand index of two labelings (n,) alone: the pair counts of their contingency
 * table, without the assignment ACC needs. Symmetric in its arguments.
 */
export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return ariOfPairs(pairCounts(contingency(a, b)), a.length);
}

/** All the metrics from a contingency table (see the file comment for the definitions). */
export function metricsFromTable(G: Contingency): ClusteringMetrics {
  const { n, classSizes: a, clusterSizes: b } = G;
  let mi = 0;
  let condEntropy = 0;
  const clusterMax = new Float64Array(G.nClusters);
  for (let i = 0; i < G.nClasses; i++) {
    for (let p = G.rowPtr[i]!; p < G.rowPtr[i + 1]!; p++) {
      const j = G.cluster[p]!;
      const nij = G.count[p]!;
      mi += (nij / n) * Math.log2((n * nij) / (a[i]! * b[j]!));
      condEntropy += (nij / n) * Math.log2(b[j]! / nij);
      if (nij > clusterMax[j]!) clusterMax[j] = nij;
    }
  }
  const hClass = entropyOfSizes(a, n);
  const hCluster = entropyOfSizes(b, n);
  const NMI = hClass + hCluster === 0 ? 1 : (2 * mi) / (hClass + hCluster);

  const { tp, sameClass, sameCluster } = pairCounts(G);
  const Precision = sameCluster > 0 ? tp / sameCluster : 1;
  const Recall = sameClass > 0 ? tp / sameClass : 1;
  const Fscore = Precision + Recall > 0 ? (2 * Precision * Recall) / (Precision + Recall) : 0;

  let purity = 0;
  for (const x of clusterMax) purity += x;

  return {
    ACC: accuracyFromTable(G),
    NMI,
    Purity: purity / n,
    Fscore,
    Precision,
    Recall,
    ARI: ariOfPairs(pairCounts(G), n),
    Entropy: condEntropy,
    EntropyPred: hCluster,
  };
}

/**
 * Every external metric of `pred` (n,) against `truth` (n,): any finite numeric labels, in any
 * coding (0- or 1-based, non-contiguous, the reference's crashing {0, 2, 3} included).
 */
export function clusteringMetrics(
  truth: ArrayLike<number>,
  pred: ArrayLike<number>,
): ClusteringMetrics {
  return metricsFromTable(contingency(truth, pred));
}
