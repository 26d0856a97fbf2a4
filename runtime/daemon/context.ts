import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonState } from '../../lib/wire/daemon.js';
import { JobRegistry } from './jobs.js';
import { SimRobot } from './sim/robot.js';
import { AppStore, type InstalledApp } from './apps/store.js';
import { AppManager } from './apps/manager.js';
import { ensureVenv, existingVenv } from '../../lib/python-apps/apps-venv.js';
import type { Venv } from '../../lib/python-apps/venv.js';
import type { OpsDeps } from './apps/operations.js';
import { hubSpaceSource } from './apps/hub.js';
import { spaceHost } from './space-host.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { indexModeCache } from '../../lib/python-apps/package-index.js';
import { clearRunning, selfIdentity, writeRunning, type RunningApp } from './apps/running-record.js';
import { installedCache } from './installed-cache.js';
import type { Supervisor } from './supervisor.js';
import { simHardwareId } from './identity.js';
import { simRelease, type ReleaseOptions, type SimRelease } from './update/releases.js';
import type { InstallSource } from '../../lib/wire/daemon-update.js';
import { appEnvironment } from '../../lib/app-env.js';
import type { CommandLine } from '../../lib/command-line.js';

// Everything a route needs, built once per daemon.

export interface DaemonOptions {
  host?: string;
  port?: number;
  sim?: boolean;
  robotName?: string;
  appsDir: string;
  hubEndpoint?: string;
  hubToken?: string | null;
  stopTimeoutMs?: number;
  startupApp?: string | null;
  python?: string;
  log?: (line: string) => void;
  /** The environment apps and pip take theirs from, without its secrets (lib/app-env.ts; default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * robotctl's extensions to the real daemon's answers (default true): local
   * (`path:`) installs, `robotctl_simulator` in the status, the source and
   * revision of each installed app in its listing. false: exactly what
   * Pollen's daemon answers, for tests of robotctl against a real robot.
   */
  robotctlExtensions?: boolean;
  /** Install without a package index even if one answers (`--offline`). */
  offline?: boolean;
  /** Advertise over mDNS as the real daemon does (mdns/); off unless asked: `robotctl daemon --sim` and `up` ask. */
  mdns?: boolean;
  /** With `mdns`: advertise only once RunningDaemon.advertise() is called (`--robots N` binds every robot's port first). */
  mdnsWhenTold?: boolean;
  /** The daemon version, the releases it can update to, those that crash-loop (update/releases.ts). */
  release?: ReleaseOptions;
  /** Where the running version came from (startDaemon reads it from appsDir, update/installed.ts). */
  installSource?: InstallSource;
  /** Default: derived from appsDir (identity.ts); null: a daemon with no robot attached. */
  hardwareId?: string | null;
  /** Restarts the daemon after an update, re-advertises a rename (startDaemon sets it: supervisor.ts). */
  supervisor?: Supervisor;
  /** Variables of `env` given to apps besides the clean set of lib/app-env.ts (`--app-env NAME`). */
  appEnv?: string[];
  /** Host names besides localhost and this machine's own that requests may name (`--allowed-host`, lib/allowed-host.ts). */
  allowedHosts?: string[];
  /** How robotctl is run where the daemon's lines are read, for the commands they suggest (the CLI's view gives it; lib/command-line.ts). */
  command?: CommandLine;
}

export interface DaemonContext {
  opts: DaemonOptions;
  robot: SimRobot;
  jobs: JobRegistry;
  store: AppStore;
  apps: AppManager;
  ops: OpsDeps;
  state: DaemonState;
  robotName: string;
  /** Where apps reach the daemon; set once listening. */
  url: string;
  stats: { requests: number; writes: number };
  abort: AbortController;
  log: (line: string) => void;
  installed(): Promise<InstalledApp[]>;
  /** Close the hub clients made so far. */
  /** The configured hub's client (made on first use): recorded-move datasets are read from it. */
  hub(): Promise<HubClient>;
  closeHub(): Promise<void>;
  /** This daemon instance's marker: every process it spawns carries it (apps/proc.ts). */
  marker: string;
  /** Write the durable note of the running app (apps/running-record.ts); resolves when written. */
  noteRunning(app: RunningApp | null): Promise<void>;
  /**
   * Shutdown begins: the note stays as it is (a kill meanwhile still finds the
   * app) and nothing writes it again, so a removed --apps-dir stays removed.
   */
  holdRunningNote(): void;
  /** Clean exit: nothing runs any more, so the note goes and no later write recreates it. */
  dropRunningNote(): Promise<void>;
  /** opts.robotctlExtensions, defaulted. */
  extensions: boolean;
  /** The daemon's version and releases (update/). */
  release: SimRelease;
  hardwareId: string | null;
  supervisor: Supervisor;
}

export function createContext(opts: DaemonOptions): DaemonContext {
  const log = opts.log ?? (() => {});
  const python = opts.python ?? 'python3';
  const store = new AppStore(opts.appsDir);
  const robot = new SimRobot();
  const abort = new AbortController();
  const marker = randomUUID();
  let noted: Promise<void> = Promise.resolve();
  let closing = false;
  const dropRunningNote = (): Promise<void> => {
    closing = true;
    noted = noted.then(() => clearRunning(opts.appsDir)).catch(() => {});
    return noted;
  };
  const holdRunningNote = (): void => { closing = true; };
  const noteRunning = (app: RunningApp | null): Promise<void> => {
    if (closing) return noted;
    noted = noted.then(() => writeRunning(opts.appsDir, { daemon: selfIdentity(), marker, app }))
      .catch((err: unknown) => log(`Could not record the running app in ${opts.appsDir}: ${String(err)}`));
    return noted;
  };
  let venvReady: Venv | null = null;
  const venv = async (): Promise<Venv> => (venvReady ??= await ensureVenv(opts.appsDir, python, log, `${marker}/tool`, opts.env ?? process.env));
  // Found once, then only checked: every listing asked for it (a readdir of the venv's lib/ per request).
  let venvFound: Venv | null = null;
  const existing = async (): Promise<Venv | null> => {
    if (venvReady) return venvReady;
    if (venvFound && existsSync(venvFound.sitePackages)) return venvFound;
    venvFound = await existingVenv(opts.appsDir);
    return venvFound;
  };
  const sitePackages = async (): Promise<string | null> => (await existing())?.sitePackages ?? null;
  const installed = installedCache(opts.appsDir, sitePackages, (site) => store.installed(site));
  // One client per hub a Space came from (space-host.ts): the configured one, with its token, and any other host, without.
  const hubs = new Map<string, Promise<HubClient>>();
  const hubClient = (url: string | null | undefined) => (): Promise<HubClient> => {
    const host = spaceHost(url, opts.hubEndpoint ?? 'https://huggingface.co');
    let made = hubs.get(host.endpoint);
    if (!made) {
      made = import('../../drivers/hub/client.js').then(({ createHubClient }) =>
        createHubClient({ endpoint: host.endpoint, token: host.configured ? opts.hubToken ?? null : null, userAgent: 'robotctl-daemon' }));
      hubs.set(host.endpoint, made);
    }
    return made;
  };
  const ctx: DaemonContext = {
    opts, robot, store, abort, log, marker, noteRunning, holdRunningNote, dropRunningNote,
    jobs: new JobRegistry(),
    state: 'running',
    robotName: opts.robotName ?? 'reachy_mini',
    url: `http://127.0.0.1:${opts.port ?? 8000}`,
    stats: { requests: 0, writes: 0 },
    apps: new AppManager({
      robot, log, cwd: opts.appsDir,
      stopTimeoutMs: opts.stopTimeoutMs ?? 20_000,
      marker: `${marker}/app`,
      onRunning: (app) => { void noteRunning(app); },
      env: () => ({ ...appEnvironment(opts.env ?? process.env, opts.appEnv), ROBOT_DAEMON_URL: ctx.url }),
      resolve: async (name) => {
        const site = await sitePackages();
        const app = await store.find(site, name);
        return app ? { app, python: (await venv()).python, sitePackages: site } : null;
      },
    }),
    ops: {
      store, venv, existingVenv: existing, signal: abort.signal, marker: `${marker}/tool`,
      env: opts.env ?? process.env, indexMode: indexModeCache(opts.env ?? process.env, { offline: opts.offline === true, python }),
      spaces: (url) => hubSpaceSource(hubClient(url)),
      isBusy: (name) => ctx.apps.isBusy(name),
    },
    installed,
    hub: hubClient(null),
    closeHub: async () => {
      const made = [...hubs.values()];
      hubs.clear();
      await Promise.all(made.map(async (m) => (await m).close()));
    },
    extensions: opts.robotctlExtensions !== false,
    release: simRelease(opts.release ?? {}, opts.installSource),
    hardwareId: opts.hardwareId !== undefined ? opts.hardwareId : simHardwareId(opts.appsDir),
    // Built alone, nothing restarts the daemon: an update changes its version in place.
    supervisor: opts.supervisor ?? {
      restart: (installed) => { ctx.release = { ...ctx.release, version: installed.version, source: installed, restarting: false }; },
      renamed: () => {},
    },
  };
  return ctx;
}

export function defaultAppsDir(home: string, env: NodeJS.ProcessEnv): string {
  return env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'robotctl', 'apps') : join(home, '.local', 'share', 'robotctl', 'apps');
}
