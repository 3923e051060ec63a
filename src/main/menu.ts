/**
 * The application menu: File > Open…, Run > Start / Cancel (each sends the renderer its
 * 'menu:*' event, so the menu and the keyboard shortcuts do the same thing) and Quit.
 */
import { Menu } from 'electron';
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron';
import type { EventName, EventPayload } from '../shared/contract';

function send<E extends EventName>(
  win: BrowserWindow | null,
  event: E,
  payload: EventPayload<E>,
): void {
  win?.webContents.send(event, payload);
}

export function installMenu(currentWindow: () => BrowserWindow | null): void {
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
