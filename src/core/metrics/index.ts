export { assignment } from './assignment';
export { contingency, contingencyFromCodes, encodeLabels } from './contingency';
export type { Contingency, EncodedLabels } from './contingency';
export {
  CGL_ORDER,
  IMPROVED_ORDER,
  accuracyFromTable,
  adjustedRandIndex,
  clusteringMetrics,
  metricsFromTable,
} from './external';
export type { ClusteringMetrics, MetricName } from './external';
export { silhouette, silhouetteSamples } from './silhouette';
export type { SilhouetteOptions, SilhouetteResult } from './silhouette';
