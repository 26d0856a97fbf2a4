import type { Config, RobotSpec } from '../schema/types.js';
import type { HubClient, HubWebhook } from '../drivers/hub/types.js';
import type { DaemonClient } from '../drivers/daemon/types.js';
import { errorMessage } from '../lib/errors.js';
import type { AppInfo } from '../lib/wire/daemon.js';
import { HubError } from '../drivers/hub/errors.js';
import type { HubObservation, Observation, RobotAddress, RobotObservation } from './types.js';
import { robotAddress } from './robot-address.js';
import { locateRobots } from './locate.js';
import { mapBounded } from '../lib/map-bounded.js';
import { suggested, type CommandLine } from '../lib/command-line.js';
import { observeEntryPoints } from './observe-entry-points.js';
import { installExtra } from './install-extra.js';

// observe(config) → Observation: everything the planner compares against,
// read with as few calls as possible. One list call covers every webhook of
// the account; each Space that is an app source is read once, not per robot;
// robots are read concurrently (bounded), with 2 calls each (installed apps,
// current app). Each Space's pyproject.toml is read once, at the revision
// seen, for the entry point the daemon will name the app by
// (observe-entry-points.ts). The daemon's status is a third call, made only when it
// decides something: a `path:` app that may have to be installed (only
// robotctl's simulator installs local folders), a robot whose hardware id,
// name or daemon version robot.yaml declares, or the status command's table
// (which reads the startup app too). `latest` asks the daemon which release
// is newest. Robots declared by hardware_id alone are found over mDNS first
// (locate.ts). A failure to read is recorded as data (hub error, unreachable
// robot), never thrown: the plan decides.

export interface ObserveDeps {
  hub: HubClient;
  daemon: (robot: RobotAddress) => DaemonClient;
  /**
   * Finds robots by hardware id over mDNS (the discovery driver): hardware id → daemon URL of each that answered.
   * Absent: a robot declared by hardware_id alone is unreachable.
   */
  locate?: (hardwareIds: string[], signal?: AbortSignal) => Promise<Record<string, string>>;
}

export interface ObserveOptions {
  /** Robots read at once (default 16). */
  concurrency?: number;
  /** False when neither the file nor the state has a webhook (no token needed then). */
  listWebhooks?: boolean;
  /** Read every robot's daemon status too (a third call per robot). */
  daemonStatus?: boolean;
  /** How the caller's user runs robotctl, for the login hint of a refused token (lib/command-line.ts suggested). */
  command?: CommandLine;
}

export async function observe(config: Config, deps: ObserveDeps, signal?: AbortSignal, opts: ObserveOptions = {}): Promise<Observation> {
  const robots = Object.values(config.robots);
  const readRobots = async (): Promise<{ observed: RobotObservation[]; located: Record<string, string> }> => {
    const { located, missing } = await locateRobots(robots, deps.locate, signal);
    const observed = await mapBounded(robots, opts.concurrency ?? 16, (r) => {
      const at = robotAddress(r, located);
      if (!at) return Promise.resolve<RobotObservation>({ reachable: false, error: missing });
      const need = (installed: AppInfo[]): boolean => opts.daemonStatus === true || declaresItself(r) || pathInstallLikely(config, r, installed);
      return observeRobot(deps.daemon(at), signal, need, { latest: r.daemonVersion === 'latest', startupApp: r.startupApp !== undefined || opts.daemonStatus === true });
    });
    return { observed, located };
  };
  const [hub, [spaces, entryPoints], { observed, located }] = await Promise.all([
    observeHub(deps.hub, opts.listWebhooks !== false, signal, opts.command),
    observeSpaces(config, deps.hub, signal).then(async (s) => [s, await observeEntryPoints(config, deps.hub, s, signal)] as const),
    readRobots(),
  ]);
  const byName: Record<string, RobotObservation> = {};
  robots.forEach((r, i) => { byName[r.name] = observed[i] as RobotObservation; });
  return { hub, spaces, robots: byName, entryPoints, ...(Object.keys(located).length > 0 ? { located } : {}) };
}

/** The daemon's status says what the robot itself is (hardware id, release, name): read when robot.yaml declares any. */
function declaresItself(r: RobotSpec): boolean {
  return r.hardwareId !== undefined || r.robotName !== undefined || r.daemonVersion !== undefined;
}

async function observeHub(hub: HubClient, list: boolean, signal?: AbortSignal, command?: CommandLine): Promise<HubObservation> {
  if (!list) return { ok: true, webhooks: [] };
  try {
    return { ok: true, webhooks: await hub.listWebhooks(signal) };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, error: hubFailure(err, command) };
  }
}

/** A refused token is not an unreachable hub: say so, and how to log in. */
function hubFailure(err: unknown, command?: CommandLine): string {
  if (err instanceof HubError && err.status === 401) {
    return `the hub refused the token (${err.message}); log in with ${suggested(command, 'auth login')}, set HF_TOKEN, or pass --token-file`;
  }
  return errorMessage(err);
}

/** Latest sha (and the dashboard's install metadata) of every Space some robot installs from; sha null when unknown (missing or unreadable). */
async function observeSpaces(config: Config, hub: HubClient, signal?: AbortSignal): Promise<Observation['spaces']> {
  const used = new Set(Object.values(config.robots).flatMap((r) => r.apps));
  const ids = [...new Set(Object.values(config.apps).filter((a) => used.has(a.name) && a.spaceId !== null).map((a) => a.spaceId as string))].sort();
  const infos = await mapBounded(ids, 8, async (id) => {
    try {
      return await hub.repoInfo('space', id, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      return null;
    }
  });
  const out: Observation['spaces'] = {};
  ids.forEach((id, i) => {
    const info = infos[i] ?? null;
    out[id] = info ? { sha: info.sha, extra: installExtra(info) } : { sha: null };
  });
  return out;
}

/** A `path:` app of this robot that is missing or installed from elsewhere: the plan may install it. */
function pathInstallLikely(config: Config, robot: RobotSpec, installed: AppInfo[]): boolean {
  return robot.apps.some((name) => {
    const path = config.apps[name]?.path;
    if (path == null) return false;
    const info = installed.find((a) => a.name === name);
    return info === undefined || info.extra.path !== path;
  });
}

/** `readStartup`: robot.yaml manages the robot's startup app (or status shows it): one more call. */
export async function observeRobot(
  daemon: DaemonClient,
  signal?: AbortSignal,
  needStatus: (installed: AppInfo[]) => boolean = () => true,
  also: { latest?: boolean; startupApp?: boolean } = {},
): Promise<RobotObservation> {
  try {
    const [installed, current, latest, startup] = await Promise.all([
      daemon.listInstalled(signal), daemon.currentAppStatus(signal),
      also.latest ? daemon.updateAvailable({ signal }).then((u) => u.availableVersion) : undefined,
      also.startupApp ? daemon.startupApp(signal) : undefined,
    ]);
    const status = needStatus(installed) ? await daemon.daemonStatus(signal) : null;
    return {
      reachable: true, daemon: status, installed, current,
      ...(latest === undefined ? {} : { latestDaemon: latest }),
      ...(startup === undefined ? {} : { startupApp: startup }),
    };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { reachable: false, error: errorMessage(err) };
  }
}
