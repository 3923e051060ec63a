/** Follows the OS colour scheme (app.css switches its variables; charts redraw on `dark`). */
export class ThemeState {
  dark = $state(false);

  /** Starts following `prefers-color-scheme`; returns the stop function. */
  follow(): () => void {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    this.dark = query.matches;
    const onChange = (e: MediaQueryListEvent): void => {
      this.dark = e.matches;
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }
}
