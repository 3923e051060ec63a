/**
 * The window's keyboard shortcuts, as a pure mapping from a key event and what the user sees
 * to what it asks for. A shortcut acts on the visible screen only: Ctrl/Cmd+Enter starts the
 * run the Run form describes only while that form is shown, and Esc cancels only a run the
 * screen shows, and never from a text field (where Esc belongs to the field).
 */
import type { Tab } from './tabs';

export type Shortcut = 'open' | 'run' | 'cancel';

export interface ShortcutContext {
  tab: Tab;
  /** The visible screen shows an active run (the Run tab's queue, or that run's Results). */
  showsActiveRun: boolean;
}

/** What a key event's target shows of itself (an element, or the window: no tag). */
export interface KeyTarget {
  tagName?: unknown;
  isContentEditable?: boolean;
  type?: unknown;
}

/** Inputs of these types take no text: Esc there is the window's. */
const NOT_TEXT = new Set([
  'button',
  'checkbox',
  'radio',
  'submit',
  'reset',
  'range',
  'color',
  'file',
]);

/** Whether keys typed at `target` belong to a text field. */
export function isTextField(target: KeyTarget | null): boolean {
  if (target === null || typeof target.tagName !== 'string') return false;
  const tag = target.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select' || target.isContentEditable === true) return true;
  return tag === 'input' && !NOT_TEXT.has(String(target.type ?? 'text').toLowerCase());
}

export function shortcutFor(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; target: unknown },
  context: ShortcutContext,
): Shortcut | null {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && event.key.toLowerCase() === 'o') return 'open';
  if (mod && event.key === 'Enter') return context.tab === 'run' ? 'run' : null;
  if (
    event.key === 'Escape' &&
    !mod &&
    context.showsActiveRun &&
    !isTextField(event.target as KeyTarget | null)
  )
    return 'cancel';
  return null;
}
