/**
 * The colour theme: the user's choice (light, dark, or the system's scheme), remembered in
 * localStorage. public/theme-init.js applies the saved choice before first paint; this class
 * keeps html's data-theme (which app.css switches its variables on) current, and `dark` tells
 * the charts, which redraw on it.
 */
import { parseChoice, resolveDark, THEME_KEY, type ThemeChoice } from './theme';

export type { ThemeChoice } from './theme';

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
