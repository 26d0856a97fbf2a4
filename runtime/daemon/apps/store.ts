import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppInfo } from '../../../lib/wire/daemon.js';
import { readJson } from '../../../lib/python-apps/files.js';
import { atomicWrite } from '../../../lib/atomic-write.js';
import { checkAppName, confined } from './names.js';
import { scanEntryPoints, type EntryPoint } from './entry-points.js';

// What the daemon keeps in --apps-dir besides the venv: one metadata file
// per installed app (its AppInfo, source, installed sha, when), and the
// startup app. Every write is atomic.

export interface AppRecord {
  /** The AppInfo given at install time; info.name names the record (the install request's name, not what the daemon lists). */
  info: AppInfo;
  source_kind: 'hf_space' | 'local';
  /** Space URL or local path. */
  source: string;
  space_id: string | null;
  installed_sha: string | null;
  installed_at: string;
  /** The version folder our .pth points at. */
  version_dir: string;
  /** Entry-point names this install registered. */
  entry_points: string[];
  /** The app's own web UI (class attribute custom_app_url), for the dashboard's settings icon. */
  custom_app_url?: string | null;
  /** Where the Space was really downloaded from (the daemon's hub), for the dashboard's source link. */
  space_url?: string | null;
}

/** An installed app: its name, the entry point that runs it, its record if we installed it. */
export interface InstalledApp {
  name: string;
  entry: EntryPoint;
  record: AppRecord | null;
}

export class AppStore {
  constructor(readonly appsDir: string) {}

  private metaDir(): string {
    return join(this.appsDir, 'meta');
  }

  versionsDir(name: string): string {
    return confined(join(this.appsDir, 'apps'), checkAppName(name, 'app name'));
  }

  private recordPath(name: string): string {
    return confined(this.metaDir(), `${checkAppName(name, 'app name')}.json`);
  }

  async record(name: string): Promise<AppRecord | null> {
    return (await readJson(this.recordPath(name))) as AppRecord | null;
  }

  async records(): Promise<AppRecord[]> {
    if (!existsSync(this.metaDir())) return [];
    const files = (await readdir(this.metaDir())).filter((f) => f.endsWith('.json'));
    const all = await Promise.all(files.map((f) => readJson(join(this.metaDir(), f))));
    return all.filter((r): r is AppRecord => r !== null && typeof r === 'object' && 'info' in r);
  }

  async saveRecord(r: AppRecord): Promise<void> {
    await mkdir(this.metaDir(), { recursive: true });
    await atomicWrite(this.recordPath(r.info.name), `${JSON.stringify(r, null, 2)}\n`);
  }

  async dropRecord(name: string): Promise<void> {
    await rm(this.recordPath(name), { force: true });
  }

  async startupApp(): Promise<string | null> {
    const v = (await readJson(join(this.appsDir, 'startup-app.json'))) as { startup_app?: unknown } | null;
    return typeof v?.startup_app === 'string' ? v.startup_app : null;
  }

  async setStartupApp(name: string | null): Promise<void> {
    await mkdir(this.appsDir, { recursive: true });
    await atomicWrite(join(this.appsDir, 'startup-app.json'), `${JSON.stringify({ startup_app: name })}\n`);
  }

  async robotName(): Promise<string | null> {
    const v = (await readJson(join(this.appsDir, 'robot-name.json'))) as { name?: unknown } | null;
    return typeof v?.name === 'string' ? v.name : null;
  }

  async setRobotName(name: string): Promise<void> {
    await mkdir(this.appsDir, { recursive: true });
    await atomicWrite(join(this.appsDir, 'robot-name.json'), `${JSON.stringify({ name })}\n`);
  }

  /**
   * Entry points joined with our records. The daemon names an installed app
   * by its `reachy_mini_apps` entry point, never by the name of the install
   * request (spec §9 Names): an app installed from Space `alice/hello` whose
   * entry point is `hello_app` is listed, started and removed as `hello_app`.
   */
  async installed(sitePackages: string | null): Promise<InstalledApp[]> {
    if (!sitePackages) return [];
    const [eps, records] = await Promise.all([scanEntryPoints(sitePackages), this.records()]);
    return eps.map((entry) => ({
      name: entry.name,
      entry,
      record: records.find((r) => entry.location === r.version_dir && r.entry_points.includes(entry.name)) ?? null,
    }));
  }

  /** By entry-point name only, as the real daemon resolves `start-app/<name>` (spec §9 Names). */
  async find(sitePackages: string | null, name: string): Promise<InstalledApp | null> {
    return (await this.installed(sitePackages)).find((a) => a.entry.name === name) ?? null;
  }
}

/**
 * An installed app as the list answers it. The real daemon's entry is
 * `{name: <entry point>, source_kind: installed, description: "", url: null,
 * extra: {custom_app_url, ...the install request's extra}}`, the request's
 * extra only when it was not empty (spec §9 Metadata). robotctl's extension
 * fields (where it came from, the revision, the module) come on top unless
 * the daemon runs without them (DaemonOptions.robotctlExtensions false).
 */
export function toAppInfo(a: InstalledApp, extensions = true): AppInfo {
  const r = a.record;
  const metadata = r?.info.extra ?? {};
  const plain: AppInfo = { name: a.name, source_kind: 'installed', description: '', url: null, extra: { custom_app_url: r?.custom_app_url ?? null, ...metadata } };
  if (!extensions) return plain;
  return {
    ...plain,
    description: r?.info.description ?? '',
    url: r?.source_kind === 'hf_space' ? r.source : null,
    extra: {
      ...plain.extra,
      entry_point: a.entry.name,
      module: a.entry.module,
      installed_from: r?.source_kind ?? null,
      space_id: r?.space_id ?? null,
      installed_sha: r?.installed_sha ?? null,
      installed_at: r?.installed_at ?? null,
      custom_app_url: r?.custom_app_url ?? null,
      space_url: r?.space_url ?? null,
      ...(r?.source_kind === 'local' ? { path: r.source } : {}),
    },
  };
}
