/** The main area's screens, in tab order. */
export type Tab = 'dataset' | 'run' | 'results' | 'compare' | 'study';

export const TABS: readonly (readonly [Tab, string])[] = [
  ['dataset', 'Dataset'],
  ['run', 'Run'],
  ['results', 'Results'],
  ['compare', 'Compare'],
  ['study', 'Study'],
];

/** The id of a tab's button, which its panel is labelled by. */
export const tabId = (tab: Tab): string => `tab-button-${tab}`;
/** The id of the panel a tab shows. */
export const panelId = (tab: Tab): string => `panel-${tab}`;
