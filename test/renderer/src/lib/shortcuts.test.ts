/** Which shortcut a key asks for, given the visible screen and where the key was typed. */
import { describe, expect, it } from 'vitest';
import {
  isTextField,
  shortcutFor,
  type KeyTarget,
} from '../../../../src/renderer/src/lib/shortcuts';

/** An element as the event reports it (tag in capitals, input type lower-case). */
const el = (tagName: string, more: Omit<KeyTarget, 'tagName'> = {}): KeyTarget => ({
  tagName,
  isContentEditable: false,
  ...more,
});
const key = (k: string, target: unknown = el('BODY'), mod = false) => ({
  key: k,
  ctrlKey: mod,
  metaKey: false,
  target,
});

describe('shortcutFor', () => {
  it('starts a run with Ctrl+Enter only while the Run form is shown', () => {
    expect(shortcutFor(key('Enter', null, true), { tab: 'run', showsActiveRun: false })).toBe(
      'run',
    );
    for (const tab of ['dataset', 'results', 'compare'] as const)
      expect(shortcutFor(key('Enter', null, true), { tab, showsActiveRun: false })).toBeNull();
  });

  it('cancels with Esc only outside text fields and only when the screen shows an active run', () => {
    const shows = { tab: 'run' as const, showsActiveRun: true };
    expect(shortcutFor(key('Escape', el('BUTTON')), shows)).toBe('cancel');
    expect(shortcutFor(key('Escape', el('INPUT', { type: 'checkbox' })), shows)).toBe('cancel');
    for (const field of [
      el('INPUT', { type: 'text' }),
      el('INPUT', { type: 'number' }),
      el('TEXTAREA'),
      el('SELECT'),
      el('DIV', { isContentEditable: true }),
    ])
      expect(shortcutFor(key('Escape', field), shows)).toBeNull();
    expect(shortcutFor(key('Escape'), { tab: 'compare', showsActiveRun: false })).toBeNull();
  });

  it('opens a dataset with Ctrl+O from any screen', () => {
    expect(shortcutFor(key('o', null, true), { tab: 'compare', showsActiveRun: false })).toBe(
      'open',
    );
    expect(shortcutFor(key('o'), { tab: 'compare', showsActiveRun: false })).toBeNull();
  });

  it('tells text fields from other targets', () => {
    expect(isTextField(null)).toBe(false);
    expect(isTextField({})).toBe(false);
    expect(isTextField(el('INPUT'))).toBe(true);
    expect(isTextField(el('INPUT', { type: 'search' }))).toBe(true);
    expect(isTextField(el('INPUT', { type: 'radio' }))).toBe(false);
  });
});
