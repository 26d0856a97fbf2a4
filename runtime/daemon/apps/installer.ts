import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import type { AppInfo } from '../../../lib/wire/daemon.js';
import { stagingCopy, treeHash } from '../../../lib/python-apps/files.js';
import { atomicWrite } from '../../../lib/atomic-write.js';
import { entryPointsIn, PTH_PREFIX } from './entry-points.js';
import { checkAppName, confined } from './names.js';
import { installDependencies, modeFlags } from './install-deps.js';
import { reinstallDependencies } from './reinstall-deps.js';
import { withSnapshot } from './snapshot-guard.js';
import type { IndexMode } from '../../../lib/python-apps/package-index.js';
import { pipEnv } from '../../../lib/python-apps/run.js';
import { customAppUrl } from './custom-url.js';
import { installSource } from './installed-tree.js';
import type { SpaceSnapshot, SpaceSource } from './space-source.js';
import { spaceIdFromUrl } from '../../../lib/space-id.js';
import type { AppRecord, AppStore } from './store.js';
import type { Venv } from '../../../lib/python-apps/venv.js';

// Installs never touch the working version until the new one is complete:
// pip installs into a fresh version folder (`pip install --target`, or a copy
// of what it installed from the same source earlier: installed-tree.ts), then a
// one-line .pth file in the venv's site-packages is switched by rename. A
// failure or a kill at any point leaves the previous version on sys.path.

export interface InstallDeps {
  store: AppStore;
  venv: () => Promise<Venv>;
  /** The venv only if it exists already (remove/update never create one). */
  existingVenv: () => Promise<Venv | null>;
  /** Where a Space URL is downloaded from (its own host, or the daemon's hub: space-host.ts). */
  spaces: (url?: string | null) => SpaceSource;
  signal: AbortSignal;
  /** This daemon's marker for the processes it spawns (proc.ts). */
  marker?: string;
  /** Online with an index, or offline and why. */
  indexMode: () => Promise<IndexMode>;
  /** The environment pip reads its configuration from (the daemon's). */
  env: NodeJS.ProcessEnv;
}

type Log = (line: string) => void;

export function pthPath(venv: Venv, name: string): string {
  return confined(venv.sitePackages, `${PTH_PREFIX}${checkAppName(name, 'app name')}.pth`);
}

/** An update's reinstall: nothing reused, dependencies reinstalled too (`pip install --force-reinstall`). */
export interface InstallMode {
  force?: boolean;
}

async function pipInstallVersion(deps: InstallDeps, name: string, src: string, versionId: string, log: Log, how: InstallMode = {}): Promise<{ dir: string; entries: string[]; venv: Venv }> {
  const venv = await deps.venv();
  const root = deps.store.versionsDir(name);
  await mkdir(root, { recursive: true });
  await collectGarbage(deps, name);
  const partial = confined(root, `.partial-${versionId}`);
  const mode = await deps.indexMode();
  if (!mode.online) log(`Installing offline (${mode.reason}): pip runs with --no-index`);
  // The app into its own version folder; its dependencies next, into the venv.
  const [noIndex, noIsolation] = modeFlags(mode);
  const run = { onLine: log, signal: deps.signal, marker: deps.marker, env: pipEnv(deps.env) };
  try {
    const flags = [...(noIndex ? [noIndex] : []), '--no-deps', ...(noIsolation ? [noIsolation] : [])];
    await installSource({ python: venv.python, src, flags, target: partial, run, ...(how.force ? { force: true } : {}) });
    const entries = (await entryPointsIn(partial)).map((e) => e.name);
    if (entries.length === 0) throw new Error(`the package declares no entry point in group 'reachy_mini_apps'`);
    const pipCtx = { venv, mode, env: deps.env, signal: deps.signal, marker: deps.marker, log };
    if (how.force) await reinstallDependencies(pipCtx, name, partial);
    else await installDependencies(pipCtx, name, partial);
    const dir = confined(root, versionId);
    await rename(partial, dir);
    return { dir, entries, venv };
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Version folders other than the active one are leftovers of an interrupted install. */
async function collectGarbage(deps: InstallDeps, name: string): Promise<void> {
  const active = (await deps.store.record(name))?.version_dir;
  const root = deps.store.versionsDir(name);
  for (const d of existsSync(root) ? await readdir(root) : []) {
    const p = join(root, d);
    if (p !== active) await rm(p, { recursive: true, force: true });
  }
}

async function activate(deps: InstallDeps, venv: Venv, record: AppRecord, log: Log): Promise<void> {
  const previous = await deps.store.record(record.info.name);
  await replaceSamePackage(deps, venv, record);
  record.custom_app_url = await customAppUrl(record.version_dir);
  await atomicWrite(pthPath(venv, record.info.name), `${record.version_dir}\n`);
  await deps.store.saveRecord(record);
  if (previous && previous.version_dir !== record.version_dir) await rm(previous.version_dir, { recursive: true, force: true });
  log(`Successfully installed '${record.info.name}' in ${venv.dir}`);
}

/**
 * pip replaces an installed distribution of the same name: an earlier install
 * under another request name that registered the same entry points goes, so
 * one entry point never names two installs.
 */
async function replaceSamePackage(deps: InstallDeps, venv: Venv, record: AppRecord): Promise<void> {
  for (const other of await deps.store.records()) {
    if (other.info.name === record.info.name || !other.entry_points.some((e) => record.entry_points.includes(e))) continue;
    await rm(pthPath(venv, other.info.name), { force: true });
    await deps.store.dropRecord(other.info.name);
    await rm(deps.store.versionsDir(other.info.name), { recursive: true, force: true });
  }
}

function safeJoin(root: string, rel: string): string {
  const p = resolve(root, normalize(rel));
  if (!p.startsWith(root + sep)) throw new Error(`refusing Space file outside the app folder: ${rel}`);
  return p;
}

/** `known`: the Space's snapshot when the caller has just read it (an update compares shas first). */
export async function installFromSpace(deps: InstallDeps, info: AppInfo, log: Log, known?: SpaceSnapshot, how: InstallMode = {}): Promise<AppRecord> {
  const url = info.url ?? '';
  const repoId = spaceIdFromUrl(url);
  log(`Downloading HuggingFace Space: ${repoId}`);
  const spaces = deps.spaces(url);
  const snap = known?.id === repoId ? known : await spaces.snapshot(repoId, deps.signal);
  log(`Space found: ${snap.id} (private=${snap.private ? 'True' : 'False'})`);
  log(`Downloading ${snap.files.length} files at revision ${snap.sha}`);
  const stage = await emptyStaging(info.name);
  try {
    const queue = [...snap.files];
    const worker = async (): Promise<void> => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const dest = safeJoin(stage.dir, f);
        const body = await spaces.download(repoId, f, snap.sha, deps.signal);
        await mkdir(dirname(dest), { recursive: true });
        await writeFile(dest, body);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const v = await withSnapshot(deps.store, `${repoId}@${snap.sha}`, info.name, log,
      () => pipInstallVersion(deps, info.name, stage.dir, `${snap.sha.slice(0, 12)}-${Date.now()}`, log, how));
    const record: AppRecord = {
      info: { ...info, source_kind: 'hf_space', description: info.description ?? '', extra: info.extra ?? {} },
      source_kind: 'hf_space', source: url, space_id: repoId, installed_sha: snap.sha, space_url: snap.url,
      installed_at: new Date().toISOString(), version_dir: v.dir, entry_points: v.entries,
    };
    await activate(deps, v.venv, record, log);
    return record;
  } finally {
    await stage.cleanup();
  }
}

async function emptyStaging(name: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'robotctl-space-'));
  const dir = join(root, name);
  await mkdir(dir);
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function installFromPath(deps: InstallDeps, info: AppInfo, log: Log): Promise<AppRecord> {
  const raw = info.extra?.path;
  if (typeof raw !== 'string' || !raw) throw new Error(`a local install needs extra.path (the app's folder)`);
  const path = resolve(raw);
  if (!existsSync(join(path, 'pyproject.toml'))) throw new Error(`no pyproject.toml in ${path}`);
  log(`Installing from local path: ${path}`);
  const hash = (await treeHash(path)).slice(0, 12);
  const stage = await stagingCopy(path, 'local');
  try {
    const v = await pipInstallVersion(deps, info.name, stage.dir, `local-${hash}-${Date.now()}`, log);
    const record: AppRecord = {
      info: { ...info, source_kind: 'local', description: info.description ?? '', extra: info.extra ?? {} },
      source_kind: 'local', source: path, space_id: null, installed_sha: `local-${hash}`,
      installed_at: new Date().toISOString(), version_dir: v.dir, entry_points: v.entries,
    };
    await activate(deps, v.venv, record, log);
    return record;
  } finally {
    await stage.cleanup();
  }
}
