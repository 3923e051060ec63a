/** The main area's screens, in tab order. */
export type Tab = 'dataset' | 'run' | 'results' | 'compare';

export const TABS: readonly (readonly [Tab, string])[] = [
  ['dataset', 'Dataset'],
  ['run', 'Run'],
  ['results', 'Results'],
  ['compare', 'Compare'],
];
