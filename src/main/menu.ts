/**
 * The application menu: File > Open…, Run > Start / Cancel (each sends the renderer its
 * 'menu:*' event, so the menu and the keyboard shortcuts do the same thing), File > Open run…
 * (a native dialog for a bundle folder; the choice is granted for reading, then sent as
 * 'menu:openRun') and Quit.
 */
import { Menu, dialog } from 'electron';
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron';
import type { EventName, EventPayload } from '../shared/contract';

function send<E extends EventName>(
  win: BrowserWindow | null,
  event: E,
  payload: EventPayload<E>,
): void {
  win?.webContents.send(event, payload);
}

/** Asks for a run bundle (its folder or run.json); grants and sends the choice. */
async function openRun(
  currentWindow: () => BrowserWindow | null,
  grant: (path: string) => Promise<void>,
): Promise<void> {
  const options = {
    title: 'Open run',
    buttonLabel: 'Open run',
    properties: ['openDirectory', 'openFile'] as ('openDirectory' | 'openFile')[],
    filters: [{ name: 'Run bundle (run.json)', extensions: ['json'] }],
  };
  const win = currentWindow();
  const chosen = win
    ? await dialog.showOpenDialog(win, options)
    : await dialog.showOpenDialog(options);
  const path = chosen.canceled ? undefined : chosen.filePaths[0];
  if (path === undefined) return;
  await grant(path);
  send(currentWindow(), 'menu:openRun', { path });
}

/** `grant` records a path the user chose, so that `runs:open` may read it. */
export function installMenu(
  currentWindow: () => BrowserWindow | null,
  grant: (path: string) => Promise<void>,
): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        {
          label: 'Open…',
          accelerator: 'CmdOrCtrl+O',
          click: () => send(currentWindow(), 'menu:open', null),
        },
        {
          label: 'Open run…',
          accelerator: 'CmdOrCtrl+Shift+O',
          click: () => void openRun(currentWindow, grant).catch((e: unknown) => console.error(e)),
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    {
      label: '&Run',
      submenu: [
        {
          label: 'Start run',
          accelerator: 'CmdOrCtrl+Enter',
          click: () => send(currentWindow(), 'menu:run', null),
        },
        {
          label: 'Cancel run',
          // Esc is handled by the renderer (a menu accelerator would swallow it everywhere).
          click: () => send(currentWindow(), 'menu:cancel', null),
        },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
