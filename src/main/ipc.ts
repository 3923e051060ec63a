/**
 * The IPC bridge: one `ipcMain.handle` per contract channel. Each call is accepted only from
 * a frame showing the app itself, its payload is validated against the contract, and the
 * outcome (value or error) crosses back as an Envelope: Electron would otherwise flatten a
 * thrown error into a prefixed message and drop its name and data.
 */
import { ipcMain } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from '../backend/app-url';
import { invoke } from '../backend/handlers';
import type { Handlers } from '../backend/handlers';
import { CHANNELS } from '../shared/contract';
import type { Channel, Envelope, Response } from '../shared/contract';

export function registerIpc(handlers: Handlers, appUrl: string): void {
  for (const channel of CHANNELS) handle(channel, handlers, appUrl);
}

function handle<C extends Channel>(channel: C, handlers: Handlers, appUrl: string): void {
  ipcMain.handle(
    channel,
    async (event: IpcMainInvokeEvent, payload: unknown): Promise<Envelope<Response<C>>> => {
      const sender = event.senderFrame?.url;
      if (!isAppUrl(sender, appUrl)) {
        return {
          ok: false,
          error: {
            name: 'Forbidden',
            message: `${channel}: refused a call from ${sender ?? 'an unknown frame'}`,
          },
        };
      }
      return invoke(handlers, channel, payload);
    },
  );
}
