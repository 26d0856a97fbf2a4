import type { Config } from '../schema/types.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { AppInfo } from '../lib/wire/daemon.js';
import type { ActionResult, StateFile } from '../state/types.js';
import { nextState } from './state-transition.js';
import { daemonName, type Action, type Observation, type Plan, type RobotObservation } from './types.js';

// A pure model of what a fully successful apply does to the world. Used by
// the planner's property test (plan ∘ apply = no changes) and by dry runs.
// Secrets come from `desired` (actions never carry them).

export interface Simulated {
  observation: Observation;
  state: StateFile;
}

export function applyPlanToObservation(observed: Observation, plan: Plan, desired: Config): Observation {
  return simulateApply(observed, plan, desired, null).observation;
}

export function simulateApply(observed: Observation, plan: Plan, desired: Config, state: StateFile | null): Simulated {
  let hooks = observed.hub.ok ? observed.hub.webhooks.map(cloneHook) : null;
  const robots: Record<string, RobotObservation> = {};
  for (const [name, r] of Object.entries(observed.robots)) {
    robots[name] = r.reachable ? { ...r, daemon: r.daemon && { ...r.daemon }, installed: r.installed.map(cloneApp), current: r.current && { ...r.current } } : r;
  }
  let st = state;
  for (const action of plan.actions) {
    const result: ActionResult = {};
    if ('robot' in action) applyRobot(robots[action.robot], action);
    else if (hooks) hooks = applyHub(hooks, action, desired, result);
    if (st) st = nextState(st, action, desired.webhooks, result);
  }
  const hub = hooks ? { ok: true as const, webhooks: hooks } : observed.hub;
  const fallback = state ?? { version: 1 as const, lineage: '', serial: 0, webhooks: {}, robots: {} };
  return { observation: { ...observed, hub, robots }, state: st ?? fallback };
}

function applyHub(hooks: HubWebhook[], action: Action, desired: Config, result: ActionResult): HubWebhook[] {
  if (!('name' in action) || 'robot' in action) return hooks;
  const spec = desired.webhooks[action.name];
  switch (action.type) {
    case 'create': {
      if (!spec) return hooks;
      const id = freshId(hooks, action.name);
      result.webhookId = id;
      const job = spec.jobId === null ? null : {};
      return [...hooks, { id, url: spec.url, job, jobSourceId: spec.jobId, watched: [...spec.watched], domains: [...spec.domains], secret: spec.secret, disabled: !spec.enabled }];
    }
    case 'update':
      return hooks.map((h) => (h.id === action.id && spec ? {
        ...h, url: spec.url, job: spec.jobId === null ? null : h.job ?? {},
        ...(h.jobSourceId === undefined ? {} : { jobSourceId: spec.jobId }),
        watched: [...spec.watched], domains: [...spec.domains], secret: spec.secret,
      } : h));
    case 'enable':
    case 'disable':
      return hooks.map((h) => (h.id === action.id ? { ...h, disabled: action.type === 'disable' } : h));
    case 'delete':
      return hooks.filter((h) => h.id !== action.id);
    case 'adopt':
      return hooks;
  }
}

function applyRobot(robot: RobotObservation | undefined, action: Action): void {
  if (!robot?.reachable || !('robot' in action)) return;
  if (action.type === 'startup_app') {
    robot.startupApp = action.name;
    return;
  }
  if (action.type === 'update_daemon') {
    // The restart stops the app; the daemon comes back on the release it was updated to.
    if (robot.daemon) robot.daemon.version = action.to;
    robot.current = null;
    return;
  }
  if (action.type === 'rename_robot') {
    if (robot.daemon) robot.daemon.robot_name = action.to;
    return;
  }
  const name = daemonName(action);
  switch (action.type) {
    case 'stop':
      robot.current = null;
      break;
    case 'remove':
      robot.installed = robot.installed.filter((a) => a.name !== name);
      break;
    case 'adopt_app':
      break;
    case 'install':
    case 'update_app':
      robot.installed = [...robot.installed.filter((a) => a.name !== name), cloneApp(action.info)];
      break;
    case 'start': {
      const info = robot.installed.find((a) => a.name === name);
      if (info) robot.current = { info: cloneApp(info), state: 'running', error: null };
      break;
    }
  }
}

function freshId(hooks: HubWebhook[], name: string): string {
  const taken = new Set(hooks.map((h) => h.id));
  let id = `sim-${name}`;
  for (let i = 2; taken.has(id); i += 1) id = `sim-${name}-${i}`;
  return id;
}

function cloneHook(h: HubWebhook): HubWebhook {
  return { ...h, watched: h.watched.map((w) => ({ ...w })), domains: [...h.domains] };
}

function cloneApp(a: AppInfo): AppInfo {
  return { ...a, extra: { ...a.extra } };
}
