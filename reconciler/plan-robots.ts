import type { AppSpec, RobotSpec } from '../schema/types.js';
import type { AppInfo, AppStatus } from '../lib/wire/daemon.js';
import type { RobotRecord } from '../state/types.js';
import type { EntryPointsFound, HeldBack, RobotAction, RobotObservation, UpdateAppAction } from './types.js';
import type { AppRecord } from '../state/types.js';
import { appChange, appInfoFor, installedRecord, recordFor } from './app-compare.js';
import type { HoldCheck } from './plan-held.js';
import { daemonNameOf } from './entry-points.js';

// Robot half of the planner, one robot at a time. Order on a robot:
// stop → remove → install / update_app → start, which gives "install before
// start", "stop before remove", "switch = stop then start" and "update of the
// running app = stop, update, start". An app whose record is an install's
// intent (state/types.ts) is this file's: removed when robot.yaml drops it,
// adopted (or updated) when it asks for it. robot.yaml's keys are labels: the
// daemon lists, starts and removes an app by its entry point (issue 30.3),
// which each action carries as `name`.

export interface RobotPlan {
  actions: RobotAction[];
  unmanaged: string[];
  /** Revisions left out because a rollout failed with them (plan-held.ts). */
  held: HeldBack[];
}

type Reachable = Extract<RobotObservation, { reachable: true }>;

export function planRobot(
  robot: RobotSpec,
  apps: Record<string, AppSpec>,
  obs: Reachable,
  rec: RobotRecord | undefined,
  spaces: Record<string, { sha: string | null }>,
  force: ReadonlySet<string> = new Set(),
  holds: HoldCheck = () => null,
  entryPoints: Record<string, EntryPointsFound> = {},
): RobotPlan {
  const at = (app: string): string => `robots.${robot.name}.apps.${app}`;
  const installed = new Map(obs.installed.map((a) => [a.name, a]));
  const owned = rec?.apps ?? {};
  const nameOf = (key: string): string => daemonNameOf(key, entryPoints[key], owned[key]);
  const wanted = new Map(robot.apps.map((key) => [nameOf(key), key]));
  const ownedNames = new Map(Object.keys(owned).map((key) => [owned[key]?.entryPoint ?? key, key]));
  const changes: RobotAction[] = [];
  const touched = new Map<string, 'updated' | 'removed'>();
  const held: HeldBack[] = [];
  /** Apps (keys) whose installed revision is held back: not started. */
  const unstartable = new Set<string>();
  for (const [key, record] of Object.entries(owned)) {
    const name = record.entryPoint ?? key;
    if (robot.apps.includes(key) || wanted.has(name)) continue;
    if (installed.has(name)) {
      touched.set(name, 'removed');
      changes.push({ type: 'remove', address: at(key), robot: robot.name, app: key, name, reason: 'no longer in robot.yaml (installed by this file)' });
    } else if (record.intent !== 'install') {
      // A ghost: an older robotctl recorded an install the robot's list never had. The remove, which the robot
      // answers "not installed", drops it from the state. (An intent stays: its install may still land.)
      changes.push({ type: 'remove', address: at(key), robot: robot.name, app: key, name, reason: `in the state but not on the robot (no app '${name}' there): dropped from the state` });
    }
  }
  for (const key of robot.apps) {
    const spec = apps[key];
    if (!spec) continue; // the loader guarantees it; a partial Config must not crash the planner
    const name = nameOf(key);
    const info = installed.get(name);
    const record = recordFor(spec, spaces, name);
    const hold = holds(robot.name, key, record.sha);
    if (hold) {
      // Neither installed nor updated to it; where it is not installed, or installed at it, not started.
      held.push(hold);
      if (!info || installedRecord(info, owned[key]).sha === hold.sha) unstartable.add(key);
      continue;
    }
    if (!info) {
      changes.push({ type: 'install', address: at(key), robot: robot.name, app: key, name, info: appInfoFor(spec, name, spaces), record, reason: 'not installed' });
      continue;
    }
    // An intent (an install asked for, its outcome not recorded) says the app
    // is this file's, nothing about what got installed: compared as found.
    const intent = owned[key]?.intent === 'install';
    const known = intent ? undefined : owned[key];
    const change = appChange(spec, info, known, record) ?? (force.has(key) ? forcedChange(info, known) : null);
    if (!change && intent) {
      changes.push({ type: 'adopt_app', address: at(key), robot: robot.name, app: key, name, record: adoptedRecord(info, record), reason: 'found installed: its install was asked for and never recorded' });
      continue;
    }
    if (!change) continue;
    touched.set(name, 'updated');
    changes.push({ type: 'update_app', address: at(key), robot: robot.name, app: key, name, info: appInfoFor(spec, name, spaces), record, ...change });
  }
  const keyOf = (name: string): string => wanted.get(name) ?? ownedNames.get(name) ?? name;
  // An active app whose installed revision is held back (plan-held.ts) is not
  // started, and whatever runs instead (what a rollback restored) is left alone.
  const heldActive = robot.active !== null && unstartable.has(robot.active);
  const active = robot.active === null ? null : nameOf(robot.active);
  const run = heldActive ? { stop: [], start: [] } : runActions(robot.name, active, obs.current, touched, (n) => ({ address: at(keyOf(n)), app: keyOf(n), name: n }));
  const unmanaged = [...installed.keys()].filter((a) => !wanted.has(a) && !ownedNames.has(a));
  return { actions: [...run.stop, ...changes, ...startupActions(robot, obs, nameOf), ...run.start], unmanaged, held };
}

type Named = (name: string) => { address: string; app: string; name: string };

/** `active`, the current app and `touched` are daemon names; `named` gives each its key and address. */
function runActions(
  robot: string,
  active: string | null,
  current: AppStatus | null,
  touched: Map<string, 'updated' | 'removed'>,
  named: Named,
): { stop: RobotAction[]; start: RobotAction[] } {
  const state = current?.state;
  const running = state === 'starting' || state === 'running' ? current?.info.name ?? null : null;
  const crashed = state === 'error' ? current?.info.name ?? null : null;
  const needStart = active !== null && (running !== active || touched.has(active));
  const stopReason = whyStop(running, crashed, active, touched, needStart);
  const stop: RobotAction[] = [];
  const start: RobotAction[] = [];
  const stopped = running ?? crashed;
  if (stopReason && stopped !== null) stop.push({ type: 'stop', robot, ...named(stopped), reason: stopReason });
  if (needStart && active !== null) {
    const reason = running === active ? 'restart after its update' : 'the active app is not running';
    start.push({ type: 'start', robot, ...named(active), reason });
  }
  return { stop, start };
}

/**
 * `startup_app:` (issue 30.5): set through the daemon when the robot starts
 * another app at boot (after the installs: the daemon refuses an app it does
 * not have). Absent from robot.yaml: the robot's own setting is left alone.
 */
function startupActions(robot: RobotSpec, obs: Reachable, nameOf: (key: string) => string): RobotAction[] {
  if (robot.startupApp === undefined || obs.startupApp === undefined) return [];
  const key = robot.startupApp;
  const name = key === null ? null : nameOf(key);
  if (obs.startupApp === name) return [];
  const now = obs.startupApp === null ? 'the robot starts no app at boot' : `the robot starts ${obs.startupApp} at boot`;
  return [{ type: 'startup_app', address: `robots.${robot.name}.startup_app`, robot: robot.name, app: key, name, reason: now }];
}

/** Why the current app must be stopped, or null. An app in `error` blocks starts. */
function whyStop(running: string | null, crashed: string | null, active: string | null, touched: Map<string, string>, needStart: boolean): string | null {
  if (running !== null) {
    const change = touched.get(running);
    // Said as what happens to the app, not as a state ("runs and is being updated" read like a live progress note).
    if (change === 'removed') return `${running} runs: stopped before it is removed`;
    if (change) return needStart && active === running ? `${running} runs: stopped for its update, then started again` : `${running} runs: stopped for its update`;
    if (running !== active) return active === null ? 'no app should run' : `switching to ${active}`;
    return null;
  }
  if (crashed !== null && (needStart || touched.has(crashed))) return `${crashed} crashed (error state) and blocks the next start`;
  return null;
}

/** What an adopted app records: robot.yaml's source, the revision the daemon reports (else the target's, which it then matches). */
function adoptedRecord(info: AppInfo, target: AppRecord): AppRecord {
  return { ...target, sha: installedRecord(info, undefined).sha ?? target.sha };
}

/** A reinstall asked for by PlanOptions.forceUpdate: remove + install from the same place. */
function forcedChange(info: AppInfo, owned: AppRecord | undefined): Pick<UpdateAppAction, 'cause' | 'previous' | 'reason'> {
  return { cause: 'source', previous: installedRecord(info, owned), reason: 'its files changed: reinstall' };
}
