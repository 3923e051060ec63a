/**
 * The window's size and position across restarts: read from `window.json` in the user-data
 * folder at start (ignored when damaged or off every screen), written atomically on close.
 */
import { screen } from 'electron';
import type { BrowserWindow, Rectangle } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic';

export interface WindowState {
  readonly bounds: Rectangle;
  readonly maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1200, height: 800 }, maximized: false };

function file(userData: string): string {
  return join(userData, 'window.json');
}

export function loadWindowState(userData: string): WindowState & { placed: boolean } {
  try {
    const raw = JSON.parse(readFileSync(file(userData), 'utf8')) as Partial<WindowState>;
    const b = raw.bounds;
    const ok =
      b !== undefined &&
      [b.x, b.y, b.width, b.height].every((v) => Number.isInteger(v)) &&
      b.width >= 720 &&
      b.height >= 480;
    if (!ok) return { ...DEFAULT, placed: false };
    // Placed only when its centre is on a screen that still exists.
    const centre = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    const onScreen = screen.getAllDisplays().some((d) => {
      const a = d.workArea;
      return (
        centre.x >= a.x && centre.x < a.x + a.width && centre.y >= a.y && centre.y < a.y + a.height
      );
    });
    return { bounds: b, maximized: raw.maximized === true, placed: onScreen };
  } catch {
    return { ...DEFAULT, placed: false };
  }
}

/** Saves the window's normal bounds when it closes. */
export function trackWindowState(win: BrowserWindow, userData: string): void {
  win.on('close', () => {
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    void writeFileAtomic(file(userData), JSON.stringify(state) + '\n').catch(() => {});
  });
}
