/** The application menu: File > Open… (sends the renderer the 'menu:open' event) and Quit. */
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
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
