/**
 * The preload script: contextBridge only. Exposes `window.api`, one function per channel of
 * the contract (each returns the Envelope; src/renderer/src/lib/api.ts unwraps it and rebuilds
 * errors) and `on()` for the host's events. ipcRenderer itself is never exposed; the one
 * message outside the contract (a dropped file's path, DROPPED_PATH_MESSAGE) is sent from
 * `pathForFile` only.
 *
 * Built as CommonJS (out/preload/index.cjs): sandboxed preloads cannot be ES modules.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { CHANNELS, DROPPED_PATH_MESSAGE, isEventName } from '../shared/contract';
import type { Api } from './index.d';

const calls = Object.fromEntries(
  CHANNELS.map((channel) => [channel, (request: unknown) => ipcRenderer.invoke(channel, request)]),
);

const api: Api = {
  ...(calls as Omit<Api, 'on' | 'pathForFile'>),
  pathForFile: (file) => {
    const path = webUtils.getPathForFile(file);
    // A drop is the user's choice: main grants the path before the renderer asks to open it
    // (messages from one renderer reach main in order).
    if (path) ipcRenderer.send(DROPPED_PATH_MESSAGE, path);
    return path;
  },
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
