import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { UserError, errorMessage } from '../../lib/errors.js';
import type { Config, RobotSpec } from '../../schema/types.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonOptions } from '../../runtime/daemon/context.js';
import type { CommandLine } from '../../lib/command-line.js';

// One simulated robot daemon per robot of the file whose URL is on this
// machine, on that URL's port, its apps under <data>/robots/<name>. Robots
// elsewhere are left to their real daemons. Daemon logs (install output,
// app output) go to <data>/robots/<name>/daemon.log, not the terminal.
// Every robot's port is bound before any is advertised over mDNS: a port
// taken stops up with no robot ever announced (as `daemon --robots N`).

export interface LocalRobot {
  spec: RobotSpec;
  daemon: RunningDaemon;
  log: WriteStream;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(url: string | null): url is string {
  if (url === null) return false; // found over mDNS by its hardware id: a robot elsewhere
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function portOf(url: string): number {
  const u = new URL(url);
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** `command`: how robotctl is run from up's folder, for the commands the daemons' logs suggest. */
export async function startRobots(config: Config, hub: { url: string; token: string }, dataDir: string, python: string, allowedHosts: string[] = [], command?: CommandLine): Promise<LocalRobot[]> {
  const started: LocalRobot[] = [];
  try {
    for (const spec of Object.values(config.robots)) {
      if (!isLoopback(spec.url)) continue;
      started.push(await startOne(spec, spec.url, hub, dataDir, python, { allowedHosts, ...(command ? { command } : {}) }));
    }
    await Promise.all(started.map((r) => r.daemon.advertise()));
  } catch (err) {
    await stopRobots(started);
    throw err;
  }
  return started;
}

async function startOne(spec: RobotSpec, url: string, hub: { url: string; token: string }, dataDir: string, python: string, more: Pick<DaemonOptions, 'allowedHosts' | 'command'>): Promise<LocalRobot> {
  const appsDir = join(dataDir, 'robots', spec.name);
  mkdirSync(appsDir, { recursive: true });
  const log = createWriteStream(join(appsDir, 'daemon.log'), { flags: 'a', mode: 0o600 });
  const port = portOf(url);
  try {
    const daemon = await startDaemon({
      sim: true, host: '127.0.0.1', port, appsDir, robotName: spec.name, hubEndpoint: hub.url, hubToken: hub.token, python,
      startupApp: null, mdns: true, mdnsWhenTold: true, ...more, log: (line) => { log.write(`${line}\n`); },
    });
    return { spec, daemon, log };
  } catch (err) {
    log.end();
    const code = (err as { code?: unknown }).code;
    if (code === 'EADDRINUSE') {
      throw new UserError(`cannot start robot ${spec.name}: port ${port} (from its url ${spec.url}) is already in use; stop what runs there or change the robot's url`);
    }
    throw new UserError(`cannot start robot ${spec.name} on port ${port}: ${errorMessage(err)}`);
  }
}

/** Stop every daemon (each stops its app first); never throws. */
export async function stopRobots(robots: LocalRobot[]): Promise<void> {
  await Promise.allSettled(robots.map(async (r) => {
    await r.daemon.close();
    await new Promise<void>((resolve) => r.log.end(() => resolve()));
  }));
}

/** What each robot runs now (robot name → app name, null for none), asked of its daemon. */
export async function runningApps(robots: LocalRobot[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  await Promise.all(robots.map(async (r) => {
    const client = createDaemonClient({ baseUrl: r.daemon.url, timeoutMs: 5000 });
    try {
      const st = await client.currentAppStatus().catch(() => null);
      out[r.spec.name] = st && (st.state === 'running' || st.state === 'starting') ? st.info.name : null;
    } finally {
      await client.close();
    }
  }));
  return out;
}
