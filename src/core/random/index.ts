export { createRng } from './rng';
export type { Rng, Seed } from './rng';
