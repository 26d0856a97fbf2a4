import type { Config } from '../schema/types.js';
import type { StateFile } from '../state/types.js';
import type { Action, Observation, Plan, PlanOptions, PlanSummary, RefusedRobot, RobotAction, UnmanagedWebhook } from './types.js';
import { planWebhooks } from './plan-webhooks.js';
import { planRobot } from './plan-robots.js';
import { planDaemon } from './plan-daemon.js';
import { PlanError } from './plan-error.js';
import { installProblems } from './plan-app-checks.js';
import { holdCheck } from './plan-held.js';
import type { HeldBack } from './types.js';
import { entryPointProblems } from './entry-points.js';

export { PlanError } from './plan-error.js';

// plan(desired, observed, state) → Plan. Pure and synchronous: no I/O, no
// clock, no randomness; the same inputs give a byte-identical plan.

export function plan(desired: Config, observed: Observation, state: StateFile, opts: PlanOptions = {}): Plan {
  const targets = opts.targets ?? [];
  const salt = opts.secretSalt ?? state.lineage;
  checkTargets(targets, desired, state);
  const hub = observed.hub.ok
    ? planWebhooks(desired.webhooks, observed.hub.webhooks, state.webhooks, opts.force === true)
    : { actions: [], unmanaged: [] as UnmanagedWebhook[], held: [] };
  const force = new Set(opts.forceUpdate ?? []);
  const robotActions: RobotAction[] = [];
  const unmanagedApps: { robot: string; app: string }[] = [];
  const unreachable: string[] = [];
  const heldBack: HeldBack[] = [];
  const holds = holdCheck(state);
  const refused: RefusedRobot[] = [];
  const located: Record<string, string> = {};
  for (const robot of Object.values(desired.robots)) {
    const obs = observed.robots[robot.name] ?? { reachable: false, error: 'not observed' };
    const found = robot.url === null ? observed.located?.[robot.name] : undefined;
    if (found !== undefined) located[robot.name] = found;
    if (!obs.reachable) {
      unreachable.push(robot.name);
      continue;
    }
    // The robot itself first (identity, daemon release, name); its apps only on the robot robot.yaml names.
    const d = planDaemon(robot, obs, robot.url ?? found ?? '(not found)');
    if (d.refused !== null) {
      refused.push({ robot: robot.name, reason: d.refused });
      continue;
    }
    const r = planRobot(robot, desired.apps, d.restarts ? { ...obs, current: null } : obs, state.robots[robot.name], observed.spaces, force, holds, observed.entryPoints);
    robotActions.push(...d.actions, ...r.actions);
    heldBack.push(...r.held);
    unmanagedApps.push(...r.unmanaged.map((app) => ({ robot: robot.name, app })));
  }
  const problems = [...entryPointProblems(desired, observed), ...installProblems(desired, observed, robotActions, opts.command)];
  if (problems.length > 0) throw new PlanError(`robot.yaml asks for installs the robots cannot do:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  const all: Action[] = [...hub.actions, ...robotActions];
  refuseEmptying(all, desired, opts.allowEmpty === true);
  const actions = targets.length === 0 ? all : all.filter((a) => targets.some((t) => matchesTarget(a, t)));
  return {
    format_version: '2.1',
    actions,
    unmanaged: { webhooks: hub.unmanaged, apps: unmanagedApps },
    heldDeletes: targets.length === 0 ? hub.held : hub.held.filter((h) => targets.includes(h.address)),
    unreachable,
    hubError: observed.hub.ok ? null : observed.hub.error,
    located,
    refused,
    secretSalt: salt,
    targets: [...targets],
    summary: summarise(actions),
    heldBack: targets.length === 0 ? heldBack : heldBack.filter((h) => targets.some((t) => t === `robots.${h.robot}` || t.startsWith(`robots.${h.robot}.`))),
  };
}

export function summarise(actions: Action[]): PlanSummary {
  const s: PlanSummary = { create: 0, adopt: 0, update: 0, delete: 0, robot: 0, total: actions.length };
  for (const a of actions) {
    if (a.type === 'create' || a.type === 'adopt' || a.type === 'delete') s[a.type] += 1;
    else if (a.type === 'update' || a.type === 'enable' || a.type === 'disable') s.update += 1;
    else s.robot += 1;
  }
  return s;
}

function matchesTarget(a: Action, target: string): boolean {
  if ('robot' in a && (target === `robots.${a.robot}` || target === a.address)) return true;
  return a.address === target;
}

function checkTargets(targets: string[], desired: Config, state: StateFile): void {
  for (const t of targets) {
    const m = /^(webhooks|robots)\.(.+)$/.exec(t);
    const kind = m?.[1];
    const name = m?.[2] ?? '';
    const robot = /^(.+?)(?:\.apps\..+|\.daemon|\.robot_name)?$/.exec(name)?.[1] ?? name;
    const known = kind === 'webhooks'
      ? name in desired.webhooks || name in state.webhooks
      : kind === 'robots' && robot in desired.robots;
    if (!known) {
      throw new PlanError(`unknown target "${t}": expected webhooks.NAME or robots.NAME naming a webhook or robot of robot.yaml or the state`);
    }
  }
}

/** A file that declares nothing would delete everything it owns: only on purpose. */
function refuseEmptying(actions: Action[], desired: Config, allowEmpty: boolean): void {
  if (allowEmpty) return;
  let webhooks = 0;
  let apps = 0;
  for (const a of actions) {
    if (a.type === 'delete') webhooks += 1;
    else if (a.type === 'remove') apps += 1;
  }
  if (webhooks + apps === 0) return;
  const declaresNothing = Object.keys(desired.webhooks).length === 0
    && Object.values(desired.robots).every((r) => r.apps.length === 0);
  if (!declaresNothing) return;
  throw new PlanError(
    `this plan would delete everything robot.yaml owns (${webhooks} webhook(s), ${apps} app(s)) because the file declares none; ` +
    'pass --allow-empty if that is what you want',
  );
}
