export { kmeans, kmeansSteps } from './kmeans';
export type { KmeansOptions, KmeansResult, KmeansStep, KmeansStop } from './kmeans';
