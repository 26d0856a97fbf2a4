import type { AppInfo } from '../../lib/wire/daemon.js';
import { INSTALL_REVISION_KEY } from '../../lib/wire/daemon.js';
import type { Action, RobotAction, UpdateAppAction } from '../types.js';
import type { UnitOutput } from './machine.js';
import { daemonRollback } from './daemon-rollback.js';

// rollout.on_failure: rollback. When a wave fails, each of its robots goes
// back to what it ran before the rollout: the app that ran then is started
// again, and each app this rollout updated is reinstalled at its previous
// revision where the robot's daemon can install a given revision (robotctl's
// simulator: extra.revision, lib/wire/daemon.ts). Pollen's daemon installs a
// Space's head only: there the previous app runs again and the revision that
// could not be restored is said. Apps this rollout installed for the first
// time stay installed (not running); a removed app is not put back. A daemon
// this rollout updated goes back to the release it ran first. The rollback's
// actions are the closed vocabulary's (update_daemon, stop, update_app with
// cause `rollback`, start), run by the same executor and recorded in the
// state like any other.

/** What a robot ran just before the rollout's first action on it (read by the executor). */
export interface RobotBefore {
  /** The app starting or running then; null: none (or one that had crashed). */
  running: string | null;
  /** Its daemon installs a given revision (robotctl's simulator announces it). */
  installsRevision: boolean;
}

export interface RollbackPlan {
  actions: RobotAction[];
  /** `hello_app 58cf875`: what the actions put back. */
  restores: string[];
  /** `hello_app 58cf875 (the robot's daemon installs a Space's head only)`: what they cannot. */
  notRestored: string[];
}

export function rollbackPlan(robot: string, before: RobotBefore, out: UnitOutput): RollbackPlan {
  const tried: Action[] = [...out.completed, ...out.failed.map((f) => f.action)];
  const done = out.completed.filter((a): a is RobotAction => 'robot' in a);
  const at = (app: string): string => `robots.${robot}.apps.${app}`;
  const base = (app: string) => ({ robot, app, address: at(app) });
  const actions: RobotAction[] = [];
  const restores: string[] = [];
  const notRestored: string[] = [];
  const ranSomething = tried.some((a) => a.type === 'start' || a.type === 'stop');
  // The daemon first, to the release it ran (daemon-rollback.ts): its restart stops whatever runs.
  const daemon = daemonRollback(robot, tried);
  if (daemon) {
    actions.push(daemon);
    restores.push(`daemon ${daemon.to}`);
  } else if (ranSomething) actions.push({ type: 'stop', ...base(before.running ?? firstApp(tried) ?? 'app'), reason: 'rollback: stop what the rollout started' });
  for (const u of done.filter((a): a is UpdateAppAction => a.type === 'update_app')) {
    const back = restoreOf(u, before.installsRevision);
    if (back) {
      // By the daemon's name for it (its entry point, issue 30.3), recorded with it where it differs from the key.
      const named = u.name !== undefined && u.name !== u.app ? { name: u.name } : {};
      const record = u.name !== undefined && u.name !== u.app ? { ...u.previous, entryPoint: u.name } : u.previous;
      actions.push({ type: 'update_app', ...base(u.app), ...named, info: back, record, cause: 'rollback', previous: u.record, reason: `rollback: back to ${revision(u.previous)}` });
      restores.push(`${u.app} ${revision(u.previous)}`);
    } else {
      notRestored.push(`${u.app} ${revision(u.previous)} (${u.previous.sha === null && u.previous.path === null ? 'its revision is unknown' : 'the robot\'s daemon installs a Space\'s head only'})`);
    }
  }
  if ((ranSomething || daemon) && before.running !== null) {
    actions.push({ type: 'start', ...base(before.running), reason: 'rollback: start what ran before the rollout' });
    restores.push(`${before.running} running`);
  }
  return { actions, restores, notRestored };
}

/** The install request that puts back what `u` replaced, or null when the daemon cannot. */
function restoreOf(u: UpdateAppAction, installsRevision: boolean): AppInfo | null {
  const prev = u.previous;
  const name = u.name ?? u.app;
  if (!installsRevision) return null;
  if (prev.path !== null) return { name, source_kind: 'local', description: '', url: null, extra: { path: prev.path } };
  if (prev.source !== null && prev.sha !== null) {
    return { name, source_kind: 'hf_space', description: '', url: prev.source, extra: { [INSTALL_REVISION_KEY]: prev.sha } };
  }
  return null;
}

function firstApp(actions: Action[]): string | null {
  for (const a of actions) if ('app' in a) return a.app;
  return null;
}

function revision(r: { sha: string | null; path: string | null }): string {
  if (r.sha === null) return r.path !== null ? 'its previous files' : 'its previous revision';
  return r.sha.length > 12 ? r.sha.slice(0, 7) : r.sha;
}
