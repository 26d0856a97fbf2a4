import { rm } from 'node:fs/promises';
import type { AppInfo, AppUpdateInfo } from '../../../lib/wire/daemon.js';
import { installFromPath, installFromSpace, pthPath, type InstallDeps, type InstallMode } from './installer.js';
import { pipEnv, runCommand } from '../../../lib/python-apps/run.js';
import type { SpaceSnapshot } from './space-source.js';
import type { AppStore, InstalledApp } from './store.js';
import type { Venv } from '../../../lib/python-apps/venv.js';
import { requestedRevision, withoutRevision } from './revision.js';
import { spaceIdFromUrl } from '../../../lib/space-id.js';

// The app operations behind the install/remove/update jobs and check-updates,
// with the real daemon's log lines and error messages (spec §2).

type Log = (line: string) => void;

export interface OpsDeps extends InstallDeps {
  store: AppStore;
  /** The app is the current one and not finished (starting/running/stopping). */
  isBusy: (name: string) => boolean;
}

export async function install(deps: OpsDeps, request: AppInfo, log: Log, known?: SpaceSnapshot, how: InstallMode = {}): Promise<void> {
  const info = withoutRevision(request);
  try {
    if (info.source_kind === 'local') await installFromPath(deps, info, log);
    else await installFromSpace(deps, info, log, known ?? await atRevision(deps, request), how);
  } catch (err) {
    // pip's own lines already say why; the simulator's other refusals are logged as pip logs its own.
    const why = err instanceof Error ? err.message : String(err);
    if (!/ exited with code -?\d+$/.test(why)) log(`ERROR: ${why}`);
    // The real app manager's words: the job's error names the app, never the cause (spec §9 Install failures).
    throw new Error(`Failed to install app '${info.name}'`);
  }
}

/** robotctl's extension: the Space at the revision the request names (apps/revision.ts), else undefined (its head). */
async function atRevision(deps: OpsDeps, request: AppInfo): Promise<SpaceSnapshot | undefined> {
  const revision = requestedRevision(request);
  if (revision === null) return undefined;
  return deps.spaces().snapshot(spaceIdFromUrl(request.url ?? ''), deps.signal, revision);
}

/** `name` is only compared with the installed entry points: it never reaches the filesystem. */
export async function remove(deps: OpsDeps, name: string, log: Log): Promise<void> {
  if (deps.isBusy(name)) throw new Error(`Cannot remove '${name}' while it is running. Please stop it first.`);
  const venv = await deps.existingVenv();
  const app = venv ? await deps.store.find(venv.sitePackages, name) : null;
  // The real daemon's words: the request is answered 200 and the job fails (spec §9 Remove).
  if (!venv || !app) throw new Error(`Cannot uninstall app '${name}': it is not installed`);
  log(`Removing app '${name}'`);
  await uninstall(deps, venv, app, log);
  log(`Successfully uninstalled '${name}'`);
}

async function uninstall(deps: OpsDeps, venv: Venv, app: InstalledApp, log: Log): Promise<void> {
  if (app.record) {
    // The .pth goes first: from then on the app is gone even if the rest is interrupted.
    await rm(pthPath(venv, app.record.info.name), { force: true });
    await deps.store.dropRecord(app.record.info.name);
    await rm(deps.store.versionsDir(app.record.info.name), { recursive: true, force: true });
  } else {
    const args = ['-m', 'pip', 'uninstall', '-y', app.entry.dist];
    log(`Running command: ${venv.python} ${args.join(' ')}`);
    await runCommand(venv.python, args, { onLine: log, signal: deps.signal, marker: deps.marker, env: pipEnv(deps.env) });
  }
}

/**
 * The real daemon's update (its app manager's update_app): uninstall, then
 * `pip install --force-reinstall` of the Space's latest revision with every
 * dependency, whether or not the Space changed. A failure leaves the app
 * uninstalled, as there. robotctl redeploys with an install over the app
 * instead (docs/decisions.md).
 */
export async function update(deps: OpsDeps, name: string, log: Log): Promise<void> {
  const venv = await deps.existingVenv();
  const app = venv ? await deps.store.find(venv.sitePackages, name) : null;
  const record = app?.record;
  if (!venv || !app || !record || record.source_kind !== 'hf_space' || !record.space_id) throw new Error(`App '${name}' was not installed from HuggingFace - cannot update`);
  if (deps.isBusy(name)) throw new Error(`Cannot update '${name}' while it is running. Please stop it first.`);
  log(`Updating app '${name}' from ${record.space_id}`);
  log(`Uninstalling old version of '${name}'`);
  try {
    await uninstall(deps, venv, app, log);
  } catch (err) {
    log(`Could not uninstall old version: ${err instanceof Error ? err.message : String(err)}`);
  }
  await install(deps, { ...record.info, url: record.source }, log, undefined, { force: true });
  log(`Successfully updated '${name}'`);
}

export interface UpdatesResponse {
  apps_with_updates: (AppUpdateInfo & { last_modified: string | null })[];
  apps_checked: number;
  apps_skipped: number;
}

export async function checkUpdates(deps: OpsDeps): Promise<UpdatesResponse> {
  const records = await deps.store.records();
  const out: UpdatesResponse = { apps_with_updates: [], apps_checked: 0, apps_skipped: 0 };
  for (const r of records) {
    if (r.source_kind !== 'hf_space' || !r.space_id) {
      out.apps_skipped++;
      continue;
    }
    try {
      const snap = await deps.spaces(r.source).snapshot(r.space_id, deps.signal);
      out.apps_checked++;
      out.apps_with_updates.push({
        app_name: r.info.name, space_id: r.space_id, installed_sha: r.installed_sha, latest_sha: snap.sha,
        update_available: snap.sha !== r.installed_sha, last_modified: snap.lastModified,
      });
    } catch {
      out.apps_skipped++;
    }
  }
  return out;
}
