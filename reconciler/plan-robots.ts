import type { AppSpec, RobotSpec } from '../schema/types.js';
import type { AppInfo, AppStatus } from '../lib/wire/daemon.js';
import type { RobotRecord } from '../state/types.js';
import type { HeldBack, RobotAction, RobotObservation, UpdateAppAction } from './types.js';
import type { AppRecord } from '../state/types.js';
import { appChange, appInfoFor, installedRecord, recordFor } from './app-compare.js';
import type { HoldCheck } from './plan-held.js';

// Robot half of the planner, one robot at a time. Order on a robot:
// stop → remove → install / update_app → start, which gives "install before
// start", "stop before remove", "switch = stop then start" and "update of the
// running app = stop, update, start". An app whose record is an install's
// intent (state/types.ts) is this file's: removed when robot.yaml drops it,
// adopted (or updated) when it asks for it.

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
): RobotPlan {
  const at = (app: string): string => `robots.${robot.name}.apps.${app}`;
  const installed = new Map(obs.installed.map((a) => [a.name, a]));
  const owned = rec?.apps ?? {};
  const wanted = new Set(robot.apps);
  const changes: RobotAction[] = [];
  const touched = new Map<string, 'updated' | 'removed'>();
  const held: HeldBack[] = [];
  /** Apps whose installed revision is held back: not started. */
  const unstartable = new Set<string>();
  for (const app of installed.keys()) {
    if (wanted.has(app) || !(app in owned)) continue;
    touched.set(app, 'removed');
    changes.push({ type: 'remove', address: at(app), robot: robot.name, app, reason: 'no longer in robot.yaml (installed by this file)' });
  }
  for (const name of robot.apps) {
    const spec = apps[name];
    if (!spec) continue; // the loader guarantees it; a partial Config must not crash the planner
    const info = installed.get(name);
    const record = recordFor(spec, spaces);
    const hold = holds(robot.name, name, record.sha);
    if (hold) {
      // Neither installed nor updated to it; where it is not installed, or installed at it, not started.
      held.push(hold);
      if (!info || installedRecord(info, owned[name]).sha === hold.sha) unstartable.add(name);
      continue;
    }
    if (!info) {
      changes.push({ type: 'install', address: at(name), robot: robot.name, app: name, info: appInfoFor(spec), record, reason: 'not installed' });
      continue;
    }
    // An intent (an install asked for, its outcome not recorded) says the app
    // is this file's, nothing about what got installed: compared as found.
    const intent = owned[name]?.intent === 'install';
    const known = intent ? undefined : owned[name];
    const change = appChange(spec, info, known, record) ?? (force.has(name) ? forcedChange(info, known) : null);
    if (!change && intent) {
      changes.push({ type: 'adopt_app', address: at(name), robot: robot.name, app: name, record: adoptedRecord(info, record), reason: 'found installed: its install was asked for and never recorded' });
      continue;
    }
    if (!change) continue;
    touched.set(name, 'updated');
    changes.push({ type: 'update_app', address: at(name), robot: robot.name, app: name, info: appInfoFor(spec), record, ...change });
  }
  const run = runActions(robot, obs.current, touched, at, unstartable);
  const unmanaged = [...installed.keys()].filter((a) => !wanted.has(a) && !(a in owned));
  return { actions: [...run.stop, ...changes, ...run.start], unmanaged, held };
}

function runActions(
  robot: RobotSpec,
  current: AppStatus | null,
  touched: Map<string, 'updated' | 'removed'>,
  at: (app: string) => string,
  unstartable: ReadonlySet<string> = new Set(),
): { stop: RobotAction[]; start: RobotAction[] } {
  // An active app whose installed revision is held back (plan-held.ts) is not
  // started, and whatever runs instead (what a rollback restored) is left alone.
  if (robot.active !== null && unstartable.has(robot.active)) return { stop: [], start: [] };
  const active = robot.active;
  const state = current?.state;
  const running = state === 'starting' || state === 'running' ? current?.info.name ?? null : null;
  const crashed = state === 'error' ? current?.info.name ?? null : null;
  const needStart = active !== null && (running !== active || touched.has(active));
  const stopReason = whyStop(running, crashed, active, touched, needStart);
  const base = { robot: robot.name };
  const stop: RobotAction[] = [];
  const start: RobotAction[] = [];
  const stopped = running ?? crashed;
  if (stopReason && stopped !== null) stop.push({ type: 'stop', address: at(stopped), app: stopped, ...base, reason: stopReason });
  if (needStart && active !== null) {
    const reason = running === active ? 'restart after its update' : 'the active app is not running';
    start.push({ type: 'start', address: at(active), app: active, ...base, reason });
  }
  return { stop, start };
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
