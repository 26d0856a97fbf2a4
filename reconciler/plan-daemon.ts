import type { RobotSpec } from '../schema/types.js';
import { compareReleases, parseRelease, sameRelease } from '../lib/release-version.js';
import type { DaemonAction, RobotObservation } from './types.js';

// The robot itself, before its apps: is it the robot robot.yaml names
// (hardware_id), which daemon release it runs, and its display name. Pure,
// one robot at a time. A robot that answers another hardware id (or none)
// gets nothing at all. A daemon update restarts the daemon, which stops the
// running app: the app half plans from a robot with nothing running.

type Reachable = Extract<RobotObservation, { reachable: true }>;

export interface DaemonPlan {
  /** Why nothing may be done on this robot, naming both ids; null when it is the declared robot (or none is declared). */
  refused: string | null;
  /** update_daemon, then rename_robot. */
  actions: DaemonAction[];
  /** An update is planned: after it, no app runs. */
  restarts: boolean;
}

const none = (id: string | null): string => (id ?? 'no hardware id (null)');

/**
 * Why a robot that answers `answered` (undefined: it did not say) is not the
 * one robot.yaml declares, naming both ids; null when it is. Also the
 * executor's check before a robot's first change.
 */
export function identityRefusal(declared: string | null | undefined, answered: string | null | undefined, url: string): string | null {
  if (declared === undefined || answered === declared) return null;
  const what = answered === undefined ? 'did not say its hardware id' : `answers ${none(answered)}`;
  return `robot.yaml says hardware_id ${none(declared)}; the robot at ${url} ${what}`;
}

export function planDaemon(robot: RobotSpec, obs: Reachable, url: string): DaemonPlan {
  const answered = obs.daemon === null ? undefined : obs.daemon.hardware_id ?? null;
  const refused = identityRefusal(robot.hardwareId, answered, url);
  if (refused !== null) return { refused, actions: [], restarts: false };
  const actions: DaemonAction[] = [];
  const base = { robot: robot.name };
  const update = versionChange(robot.daemonVersion, obs);
  if (update) actions.push({ type: 'update_daemon', address: `robots.${robot.name}.daemon`, ...base, ...update });
  const name = robot.robotName?.trim();
  const current = obs.daemon?.robot_name ?? null;
  if (name !== undefined && current !== name) {
    actions.push({ type: 'rename_robot', address: `robots.${robot.name}.robot_name`, ...base, from: current, to: name, reason: current === null ? 'the robot did not say its name' : 'renamed in robot.yaml' });
  }
  return { refused: null, actions, restarts: update !== null };
}

/** The update robot.yaml asks for, if any: another release number than the one it runs (`latest`: only a newer one). */
function versionChange(declared: string | undefined, obs: Reachable): { from: string | null; to: string; reason: string } | null {
  if (declared === undefined) return null;
  const running = typeof obs.daemon?.version === 'string' ? obs.daemon.version : null;
  const latest = declared === 'latest';
  const to = latest ? obs.latestDaemon ?? null : declared;
  if (to === null) return null; // `latest`, and the daemon cannot tell which release that is
  if (running !== null && sameRelease(running, to)) return null;
  const order = running === null ? null : compare(running, to);
  if (latest && order !== null && order > 0) return null; // ahead of the newest release (a pre-release): not a downgrade
  const reason = running === null ? 'the daemon did not say its version'
    : order !== null && order > 0 ? `downgrade: robot.yaml says ${declared}`
      : latest ? `a newer release is out (robot.yaml says latest)` : `robot.yaml says ${declared}`;
  return { from: running, to, reason };
}

function compare(a: string, b: string): number | null {
  const x = parseRelease(a);
  const y = parseRelease(b);
  return x && y ? compareReleases(x, y) : null;
}
