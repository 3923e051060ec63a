/**
 * bsv-kmeans in `npm run bench -- baselines-incomplete`: no reference cases, because the recorded
 * 'BSV' runs of shared/reference/baselines-incomplete.json time only their input step (`prep`),
 * not a solve. `scale`: BSV is one of the linear methods issue 21 runs at n = 50,000 × 5 views;
 * `scaleMethod` names it, since there is no case to take the name from.
 */
import type { IncompleteBenchCase } from './types';

export const cases: IncompleteBenchCase[] = [];

export const scale = true;

export const scaleMethod = 'bsv-kmeans';
