/** The theme choice as plain values (no DOM): what a stored value means, what a choice shows. */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** The storage key theme-init.js reads too. */
export const THEME_KEY = 'mvstudio.theme';

/** A stored value read back: anything but 'light' or 'dark' means the system's scheme. */
export function parseChoice(raw: string | null): ThemeChoice {
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

/** Whether a choice shows dark, given the system's scheme. */
export function resolveDark(choice: ThemeChoice, systemDark: boolean): boolean {
  return choice === 'system' ? systemDark : choice === 'dark';
}
