/**
 * The colour theme: the user's choice (light, dark, or the system's scheme), remembered in
 * localStorage. public/theme-init.js applies the saved choice before first paint; this class
 * keeps html's data-theme (which app.css switches its variables on) current, and `dark` tells
 * the charts, which redraw on it.
 */
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

export class ThemeState {
  choice = $state<ThemeChoice>('system');
  systemDark = $state(false);
  readonly dark: boolean = $derived(resolveDark(this.choice, this.systemDark));

  /** Reads the saved choice, starts following `prefers-color-scheme`; returns the stop function. */
  follow(): () => void {
    try {
      this.choice = parseChoice(localStorage.getItem(THEME_KEY));
    } catch {
      this.choice = 'system';
    }
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    this.systemDark = query.matches;
    this.#apply();
    const onChange = (e: MediaQueryListEvent): void => {
      this.systemDark = e.matches;
      this.#apply();
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }

  /** Switches the theme now and remembers it. */
  choose(choice: ThemeChoice): void {
    this.choice = choice;
    try {
      if (choice === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // Without storage the choice lasts this session only.
    }
    this.#apply();
  }

  #apply(): void {
    document.documentElement.dataset['theme'] = this.dark ? 'dark' : 'light';
  }
}
