/**
 * chart.js, registered once with only the parts the app draws (tree-shaken), and the colours
 * of the current theme read from the page's CSS variables at draw time.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
);

export { Chart };

/** Ten distinguishable hues (Tableau 10), then repeats. */
export const CATEGORICAL = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

export const colorOf = (i: number): string => CATEGORICAL[i % CATEGORICAL.length]!;

export interface Theme {
  fg: string;
  muted: string;
  grid: string;
  accent: string;
  bg: string;
}

/** The theme's colours, from the CSS variables of app.css. */
export function theme(): Theme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string =>
    css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--fg', '#1d2330'),
    muted: v('--muted', '#5d6675'),
    grid: v('--border', '#e1e4ea'),
    accent: v('--accent', '#2f5fd0'),
    bg: v('--bg', '#ffffff'),
  };
}

/** Options every chart shares: no animation (instant redraws), theme colours. */
export function baseOptions(t: Theme): {
  animation: false;
  responsive: true;
  maintainAspectRatio: false;
  color: string;
} {
  Chart.defaults.color = t.muted;
  Chart.defaults.borderColor = t.grid;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  return { animation: false, responsive: true, maintainAspectRatio: false, color: t.muted };
}
