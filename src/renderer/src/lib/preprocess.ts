/**
 * The shared preprocessing as the run form and the comparison show it (core/views/preprocess.ts
 * defines the modes; the protocol applies them before the method and before any fill of
 * missing samples): a label and a one-line explanation per mode, and the table's short text.
 */
import { PREPROCESS_MODES, type Preprocess } from '../../../shared/contract';

export interface PreprocessChoice {
  readonly value: Preprocess;
  readonly label: string;
  /** One line on what it does to the views. */
  readonly explain: string;
  /** The comparison table's cell. */
  readonly short: string;
}

const CHOICES: Readonly<Record<Preprocess, Omit<PreprocessChoice, 'value'>>> = {
  none: {
    label: 'None — as the reference code',
    explain: 'The raw features, as the reference implementations use them.',
    short: 'none',
  },
  'l2-rows': {
    label: 'Unit-L2 rows per view',
    explain:
      'Each sample’s row of each view is scaled to length 1, so views of very different scale weigh alike.',
    short: 'unit-L2 rows',
  },
  zscore: {
    label: 'Z-score per feature',
    explain:
      'Each feature is centred and divided by its standard deviation over the view’s present samples; sparse views become dense.',
    short: 'z-score',
  },
};

/** Every mode, in the order the core lists them. */
export const PREPROCESS_CHOICES: readonly PreprocessChoice[] = PREPROCESS_MODES.map((value) => ({
  value,
  ...CHOICES[value],
}));

/** The choice of `mode` (an unknown string from an older host reads as 'none'). */
export function preprocessChoice(mode: string): PreprocessChoice {
  return PREPROCESS_CHOICES.find((c) => c.value === mode) ?? PREPROCESS_CHOICES[0]!;
}

/** Whether `value` is a preprocessing mode (what a select's value is checked against). */
export function isPreprocess(value: string): value is Preprocess {
  return (PREPROCESS_MODES as readonly string[]).includes(value);
}
