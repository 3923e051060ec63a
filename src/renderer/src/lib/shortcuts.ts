/** The window's keyboard shortcuts, as a pure mapping from a key event to what it asks for. */
export type Shortcut = 'open' | 'run' | 'cancel';

export function shortcutFor(event: KeyboardEvent, runsActive: boolean): Shortcut | null {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && event.key.toLowerCase() === 'o') return 'open';
  if (mod && event.key === 'Enter') return 'run';
  if (event.key === 'Escape' && runsActive) return 'cancel';
  return null;
}
