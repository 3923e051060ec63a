/** The recent-files list survives restarts in localStorage (the renderer's own storage in both hosts). */
const RECENT_KEY = 'mvstudio.recent';

/** The saved list, at most 8 paths; a damaged list is dropped. */
export function loadRecent(storage: Storage = localStorage): string[] {
  try {
    const saved = JSON.parse(storage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(saved)
      ? saved.filter((p): p is string => typeof p === 'string').slice(0, 8)
      : [];
  } catch {
    return [];
  }
}

export function saveRecent(paths: readonly string[], storage: Storage = localStorage): void {
  storage.setItem(RECENT_KEY, JSON.stringify(paths));
}
