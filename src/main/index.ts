/**
 * Electron main process: app lifecycle, one locked-down window, the menu, and the IPC
 * bridge to the backend. Everything that can run without Electron lives in src/backend.
 *
 * The built renderer is served from the privileged scheme `app://renderer/` (protocol.handle,
 * files of out/renderer only, the CSP as a header), never from file://.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session } from 'electron';
import type { OpenDialogOptions, SaveDialogOptions } from 'electron';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import {
  APP_CSP,
  APP_INDEX_URL,
  APP_SCHEME,
  contentTypeOf,
  isAppUrl,
  resolveAppFile,
} from '../backend/app-url';
import { ReadGrants } from '../backend/grants';
import { createHandlers } from '../backend/handlers';
import { DatasetLibrary } from '../backend/library';
import { RunManager } from '../backend/runs';
import { WorkerHost } from '../backend/worker-host';
import { removeStaleTemporaries } from '../io/atomic';
import { DROPPED_PATH_MESSAGE } from '../shared/contract';
import { spawnUtilityLoader, spawnUtilityWorker } from './solver-process';
import { registerIpc } from './ipc';
import { installMenu } from './menu';
import { loadWindowState, trackWindowState } from './window-state';

const SAMPLE = 'NGs_Per0.5.mat';

// Before 'ready' (Electron's rule): a standard, secure scheme gets an origin of its own,
// relative URLs, fetch and storage, as a web page over https would.
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
]);

/** The sample dataset: next to the app when packaged, in resources/ in dev and preview. */
function bundledDatasets(): string[] {
  const path = app.isPackaged
    ? join(process.resourcesPath, 'datasets', SAMPLE)
    : join(app.getAppPath(), 'resources', 'datasets', SAMPLE);
  return existsSync(path) ? [path] : [];
}

/** Where the renderer comes from: the dev server in `electron-vite dev`, else `app://`. */
function rendererUrl(): string {
  const dev = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && dev) return dev;
  return APP_INDEX_URL;
}

/** Serves `app://renderer/…` from the built renderer folder, with the CSP as a header. */
function serveAppScheme(): void {
  const root = join(import.meta.dirname, '../renderer');
  protocol.handle(APP_SCHEME, async (request) => {
    const headers = {
      'Content-Security-Policy': APP_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('method not allowed', { status: 405, headers });
    }
    const file = resolveAppFile(request.url, root);
    if (file === null) return new Response('forbidden', { status: 403, headers });
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return new Response('not found', { status: 404, headers });
    const data = await readFile(file);
    return new Response(request.method === 'HEAD' ? null : data, {
      status: 200,
      headers: { ...headers, 'Content-Type': contentTypeOf(file) },
    });
  });
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
    // Sub-frames too (will-navigate sees the main frame only).
    contents.on('will-frame-navigate', (details) => {
      if (!isAppUrl(details.url, appUrl)) details.preventDefault();
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
  serveAppScheme();
  const appUrl = rendererUrl();
  lockDown(appUrl);

  // The paths the user chose (dialog, drop, recent list), kept across launches; the sample
  // dataset counts as chosen.
  const userData = app.getPath('userData');
  const readGrants = await ReadGrants.load(join(userData, 'granted-paths.json'));
  const bundled = bundledDatasets();
  for (const p of bundled) await readGrants.allow(p);
  ipcMain.on(DROPPED_PATH_MESSAGE, (event, path: unknown) => {
    if (!isAppUrl(event.senderFrame?.url, appUrl)) return;
    if (typeof path !== 'string' || !isAbsolute(path)) return;
    readGrants.allow(path).catch((e: unknown) => console.error(e));
  });

  const library = new DatasetLibrary({ bundled, spawnLoader: spawnUtilityLoader });
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
  const bundleRoot = join(userData, 'runs');
  // A bundle write killed mid-way leaves a `.tmp-*` folder behind.
  await removeStaleTemporaries(bundleRoot).catch(() => 0);
  const runs = new RunManager({ host: workers, library, bundleRoot });
  runs.subscribe((run) => {
    if (win && !win.isDestroyed()) win.webContents.send('runs:update', run);
  });
  /** The open dialog; `several`: one dataset's view files, selected together. */
  const pickOpen = async (several: boolean): Promise<string[] | null> => {
    const options: OpenDialogOptions = {
      title: several ? 'Open dataset (one file, or one CSV/NPY file per view)' : 'Open file',
      properties: several ? ['openFile', 'multiSelections'] : ['openFile'],
      filters: [
        { name: 'Datasets', extensions: ['mat', 'csv', 'npy', 'npz'] },
        { name: 'All files', extensions: ['*'] },
      ],
    };
    const result = win
      ? await dialog.showOpenDialog(win, options)
      : await dialog.showOpenDialog(options);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths;
  };
  const handlers = createHandlers(
    library,
    {
      pickFile: async () => (await pickOpen(false))?.[0] ?? null,
      pickFiles: () => pickOpen(true),
      dataDir: userData,
      readGrants,
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
      onStudyUpdate: (info) => {
        if (win && !win.isDestroyed()) win.webContents.send('studies:update', info);
      },
    },
    runs,
  );
  registerIpc(handlers, appUrl);
  installMenu(
    () => win,
    (path) => readGrants.allow(path),
  );

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
