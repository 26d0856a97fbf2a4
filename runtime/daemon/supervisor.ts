import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../../lib/errors.js';
import { sleep } from '../../lib/retry.js';
import type { InstallSource } from '../../lib/wire/daemon-update.js';
import type { DaemonContext, DaemonOptions } from './context.js';
import { advertise, type Advertisement } from './mdns/advertise.js';
import { readInstalled, writeInstalled } from './update/installed.js';

// startDaemon(): what systemd and the mDNS registration are to the real
// daemon. It builds the daemon, listens, starts the startup app, advertises
// the robot, and restarts it when an update asks (the update's
// `systemctl restart`): the daemon closes (its apps stop, its mDNS record
// says goodbye, its port refuses connections, its jobs are forgotten),
// then a new one listens on the same port with the new version, as the real
// daemon answers only once it runs. An update to a crash-looping release
// never comes back: the port keeps refusing until robotctl is restarted.

export interface Supervisor {
  /** The update's `systemctl restart`, called as its job ends. */
  restart(installed: InstallSource): void;
  /** The robot was renamed: advertise it under the new name. */
  renamed(name: string): void;
}

export interface RunningDaemon {
  url: string;
  close(): Promise<void>;
  stats(): { requests: number; writes: number };
  /** Discoverable over mDNS right now (`up` shows `robotctl robots discover` only then). */
  advertised(): boolean;
  /** With `mdnsWhenTold`: advertise now (and after each restart); otherwise nothing to do. */
  advertise(): Promise<void>;
}

/** Between the old daemon's end and the new one's first answer: a real robot's boot, shortened. */
export const BOOT_MS = 300;

type Build = (opts: DaemonOptions) => Promise<FastifyInstance>;

/**
 * `--startup-app NAME` sets the saved startup app, the value `PUT
 * /api/apps/startup-app` sets (robot.yaml's `startup_app:`, once applied,
 * replaces it); null starts none this time and keeps the saved one.
 */
async function startStartupApp(ctx: DaemonContext): Promise<void> {
  if (ctx.opts.startupApp === null) return;
  if (ctx.opts.startupApp !== undefined) await ctx.store.setStartupApp(ctx.opts.startupApp);
  const name = await ctx.store.startupApp();
  if (!name) return;
  try {
    await ctx.apps.start(name);
    ctx.log(`Started startup app '${name}'`);
  } catch (err) {
    ctx.log(`Could not start the startup app '${name}': ${errorMessage(err)}`);
  }
}

const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);

export async function superviseDaemon(opts: DaemonOptions, build: Build): Promise<RunningDaemon> {
  const bindHost = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => {});
  let port = opts.port ?? 8000;
  let app: FastifyInstance | null = null;
  let advert: Advertisement | null = null;
  let phase: 'up' | 'restarting' | 'down' | 'closed' = 'up';
  // A fleet in one process binds every port before any robot is advertised (mdnsWhenTold).
  let announce = opts.mdns === true && opts.mdnsWhenTold !== true;
  let restarting: Promise<void> = Promise.resolve();
  const ended = new AbortController();
  const carried = { requests: 0, writes: 0 };

  const supervisor: Supervisor = {
    restart: (installed) => { restarting = restart(installed); },
    renamed: (name) => { void advert?.rename(name); },
  };

  async function serve(installSource: InstallSource | null): Promise<void> {
    const next = await build({ ...opts, port, supervisor, ...(installSource ? { installSource } : {}) });
    try {
      await next.listen({ host: bindHost, port });
    } catch (err) {
      // listen() made the app ready (robot loop running) before it failed: stop it, or the process never exits.
      await next.close().catch(() => {});
      throw err;
    }
    const addr = next.server.address();
    port = typeof addr === 'object' && addr ? addr.port : port;
    const ctx = next.daemon;
    // Apps always reach the daemon over loopback, even when it binds 0.0.0.0.
    ctx.url = `http://${bracketed(bindHost === '0.0.0.0' || bindHost === '::' ? '127.0.0.1' : bindHost)}:${port}`;
    app = next;
    await startStartupApp(ctx);
    if (announce) await advertiseNow();
  }

  async function advertiseNow(): Promise<void> {
    const ctx = app?.daemon;
    if (!ctx || advert) return;
    advert = await advertise(bindHost, { name: ctx.robotName, port, version: ctx.release.version, hardwareId: ctx.hardwareId }, ctx.log, opts.command);
  }

  async function stopServing(): Promise<void> {
    const [was, ad] = [app, advert];
    app = null;
    advert = null;
    await ad?.withdraw();
    if (!was) return;
    carried.requests += was.daemon.stats.requests;
    carried.writes += was.daemon.stats.writes;
    await was.close();
  }

  async function restart(installed: InstallSource): Promise<void> {
    const ctx = app?.daemon;
    if (phase !== 'up' || !ctx) return;
    phase = 'restarting';
    const crashes = ctx.release.list.crashLoops(installed.version);
    // Installed: the next start of this robot (a restart, or robotctl's) is on the new version.
    await writeInstalled(opts.appsDir, installed).catch((err: unknown) => log(`Could not record the installed version in ${opts.appsDir}: ${errorMessage(err)}`));
    // The job's last line reaches its listeners before the daemon goes.
    await new Promise((r) => setImmediate(r));
    await stopServing();
    try {
      await sleep(BOOT_MS, ended.signal);
    } catch {
      return; // closed meanwhile
    }
    if (crashes) {
      phase = 'down';
      log(`reachy-mini-daemon exited with code 1 after the update to ${installed.version} (a crash-looping release, --crashloop-releases): systemd restarts it and it exits again; it does not answer until robotctl daemon is restarted`);
      return;
    }
    try {
      await serve(installed);
      phase = 'up';
      log(`Daemon restarted: reachy_mini ${installed.version}`);
    } catch (err) {
      phase = 'down';
      log(`Daemon could not come back after the update to ${installed.version}: ${errorMessage(err)}`);
    }
  }

  // --daemon-version wins; otherwise the version this robot was last updated to, if any.
  const installed = opts.release?.version === undefined ? await readInstalled(opts.appsDir) : null;
  await serve(installed);
  const url = `http://${bracketed(bindHost)}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    close: () => (closing ??= (async () => {
      phase = 'closed';
      ended.abort();
      await restarting;
      await stopServing();
    })()),
    stats: () => {
      const now = app?.daemon.stats ?? { requests: 0, writes: 0 };
      return { requests: carried.requests + now.requests, writes: carried.writes + now.writes };
    },
    advertised: () => advert?.advertised ?? false,
    advertise: async () => {
      if (opts.mdns !== true || announce) return;
      announce = true;
      if (phase === 'up') await advertiseNow();
    },
  };
}
