/**
 * The preload script: contextBridge only. Exposes `window.api`, one function per channel of
 * the contract (each returns the Envelope; src/renderer/src/lib/api.ts unwraps it and rebuilds
 * errors) and `on()` for the host's events. ipcRenderer itself is never exposed.
 *
 * Built as CommonJS (out/preload/index.cjs): sandboxed preloads cannot be ES modules.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { CHANNELS, isEventName } from '../shared/contract';
import type { Api } from './index.d';

const calls = Object.fromEntries(
  CHANNELS.map((channel) => [channel, (request: unknown) => ipcRenderer.invoke(channel, request)]),
);

const api: Api = {
  ...(calls as Omit<Api, 'on' | 'pathForFile'>),
  pathForFile: (file) => webUtils.getPathForFile(file),
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`unknown event '${String(event)}'`);
    const wrapped = (_e: IpcRendererEvent, payload: unknown): void => listener(payload as never);
    ipcRenderer.on(event, wrapped);
    return () => {
      ipcRenderer.removeListener(event, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('api', api);
