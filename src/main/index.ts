/**
 * Electron main process: app lifecycle, one locked-down window, the menu, and the IPC
 * bridge to the backend. Everything that can run without Electron lives in src/backend.
 */
import { app, BrowserWindow, dialog, session } from 'electron';
import type { OpenDialogOptions, SaveDialogOptions } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAppUrl } from '../backend/app-url';
import { createHandlers } from '../backend/handlers';
import { DatasetLibrary } from '../backend/library';
import { RunManager } from '../backend/runs';
import { WorkerHost } from '../backend/worker-host';
import { spawnUtilityLoader, spawnUtilityWorker } from './solver-process';
import { registerIpc } from './ipc';
import { installMenu } from './menu';
import { loadWindowState, trackWindowState } from './window-state';

const SAMPLE = 'NGs_Per0.5.mat';

/** The sample dataset: next to the app when packaged, in resources/ in dev and preview. */
function bundledDatasets(): string[] {
  const path = app.isPackaged
    ? join(process.resourcesPath, 'datasets', SAMPLE)
    : join(app.getAppPath(), 'resources', 'datasets', SAMPLE);
  return existsSync(path) ? [path] : [];
}

/** Where the renderer comes from: the dev server in `electron-vite dev`, else the built file. */
function rendererUrl(): string {
  const dev = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && dev) return dev;
  return pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
}

function createWindow(appUrl: string): BrowserWindow {
  const userData = app.getPath('userData');
  const saved = loadWindowState(userData);
  const win = new BrowserWindow({
    width: saved.bounds.width,
    height: saved.bounds.height,
    ...(saved.placed ? { x: saved.bounds.x, y: saved.bounds.y } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Multiview Studio',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => {
    if (saved.maximized) win.maximize();
    win.show();
  });
  trackWindowState(win, userData);
  void win.loadURL(appUrl);
  return win;
}

/** Every web contents: no new windows, no navigation off the app, no <webview>. */
function lockDown(appUrl: string): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appUrl)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, appUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  // The app needs no camera, notifications, geolocation, ...
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
  );
  session.defaultSession.setPermissionCheckHandler(() => false);
}

async function start(): Promise<void> {
  await app.whenReady();
  const appUrl = rendererUrl();
  lockDown(appUrl);

  const library = new DatasetLibrary({
    bundled: bundledDatasets(),
    spawnLoader: spawnUtilityLoader,
  });
  void library.ready.then(() => {
    for (const f of library.startupFailures) {
      console.error(`could not open bundled dataset ${f.path}: ${f.error.message}`);
    }
  });
  let win: BrowserWindow | null = null;
  // Solvers run in a utility process, one run at a time; bundles go to the user-data folder.
  const workers = new WorkerHost({ spawn: spawnUtilityWorker });
  app.on('will-quit', () => {
    workers.dispose();
    library.dispose();
  });
  const runs = new RunManager({
    host: workers,
    library,
    bundleRoot: join(app.getPath('userData'), 'runs'),
  });
  runs.subscribe((run) => {
    if (win && !win.isDestroyed()) win.webContents.send('runs:update', run);
  });
  const handlers = createHandlers(
    library,
    {
      pickFile: async () => {
        const options: OpenDialogOptions = {
          title: 'Open dataset',
          properties: ['openFile'],
          filters: [
            { name: 'Datasets', extensions: ['mat', 'csv', 'npy', 'npz'] },
            { name: 'All files', extensions: ['*'] },
          ],
        };
        const result = win
          ? await dialog.showOpenDialog(win, options)
          : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      dataDir: app.getPath('userData'),
      pickSaveFile: async (defaultName) => {
        const options: SaveDialogOptions = {
          title: 'Save',
          defaultPath: join(app.getPath('documents'), defaultName),
        };
        const result = win
          ? await dialog.showSaveDialog(win, options)
          : await dialog.showSaveDialog(options);
        return result.canceled ? null : (result.filePath ?? null);
      },
    },
    runs,
  );
  registerIpc(handlers, appUrl);
  installMenu(() => win);

  win = createWindow(appUrl);
  win.on('closed', () => {
    win = null;
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      win = createWindow(appUrl);
      win.on('closed', () => {
        win = null;
      });
    }
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

start().catch((e: unknown) => {
  console.error(e);
  app.exit(1);
});
