import { watch, type FSWatcher } from 'chokidar';
import { dirname, resolve, sep } from 'node:path';

// Watches robot.yaml and the folders of its path apps (chokidar 4), and
// reports each burst of changes once, after `debounceMs` of quiet: editors
// write a file in several steps (temp file, rename, chmod), and one save
// must give one reconcile. The file is watched through its folder so a
// save by rename (vim, VS Code) is seen too.

export interface WatchEvents {
  file(): void;
  app(name: string): void;
}

export interface Watchers {
  /** Watch these app folders from now on (name → absolute path). */
  setApps(apps: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** Build output and caches inside an app folder are not the app's source. */
const IGNORED_PARTS = new Set(['__pycache__', '.git', 'build', 'dist', 'node_modules', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);

function ignoredInApp(path: string): boolean {
  return path.split(sep).some((part) => IGNORED_PARTS.has(part) || part.endsWith('.egg-info') || part.endsWith('.pyc'));
}

export async function startWatchers(file: string, debounceMs: number, on: WatchEvents): Promise<Watchers> {
  const abs = resolve(file);
  const timers = new Map<string, NodeJS.Timeout>();
  const later = (key: string, fn: () => void): void => {
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => { timers.delete(key); fn(); }, debounceMs));
  };
  const fileWatcher = watch(dirname(abs), {
    ignoreInitial: true,
    depth: 0,
    ignored: (p: string) => p !== dirname(abs) && p !== abs,
  });
  fileWatcher.on('all', (_event, p) => { if (p === abs) later('file', on.file); });
  await ready(fileWatcher);
  let apps: { paths: string; watcher: FSWatcher } | null = null;

  const setApps = async (wanted: Record<string, string>): Promise<void> => {
    const entries = Object.entries(wanted).sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify(entries);
    if (apps?.paths === key) return;
    await apps?.watcher.close();
    apps = null;
    if (entries.length === 0) return;
    const watcher = watch(entries.map(([, p]) => p), { ignoreInitial: true, ignored: ignoredInApp });
    watcher.on('all', (_event, p) => {
      for (const [name, root] of entries) if (p === root || p.startsWith(root + sep)) later(`app:${name}`, () => on.app(name));
    });
    await ready(watcher);
    apps = { paths: key, watcher };
  };

  return {
    setApps,
    async close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.all([fileWatcher.close(), apps?.watcher.close()]);
      apps = null;
    },
  };
}

function ready(w: FSWatcher): Promise<void> {
  return new Promise((resolveReady) => { w.once('ready', () => resolveReady()); });
}
