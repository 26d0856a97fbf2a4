import type { Config, RobotSpec } from '../../schema/types.js';
import type { AppRecord, StateFile } from '../../state/types.js';
import { isAppAction, robotActionText, type Action, type Observation, type Plan } from '../types.js';
import { shortSha } from '../plan-held.js';
import type { AppStatus } from '../../lib/wire/daemon.js';
import { crashReason, logTail } from '../../lib/robot-reasons.js';
import { daemonNameOf } from '../entry-points.js';
import { robotAddress } from '../robot-address.js';
import {
  STATUS_FORMAT_VERSION,
  type FleetStatus, type HubStatus, type RobotStatus, type RunSummary, type WebhookStatus,
} from './status-types.js';

// The fleet's status from an observation and the plan of what is still to do
// (the drift): what `robotctl status` prints and the agent's /status starts
// with. Pure: the caller passes what it knows, including the time.

export interface FleetInput {
  config: Config;
  file: string;
  hubEndpoint: string;
  /** Whether the hub is observed at all (webhooks declared or owned, or a token). */
  watchesHub: boolean;
  observation: Observation | null;
  /** The plan from `observation`: what is not yet as robot.yaml says. Null before the first plan. */
  remaining: Plan | null;
  state: StateFile | null;
  /** The agent's last run, whose failures explain a robot's error; null for the CLI. */
  lastRun: RunSummary | null;
  now: Date;
}

export function fleetStatus(input: FleetInput): FleetStatus {
  const robots = Object.values(input.config.robots).map((r) => robotStatus(r, input));
  const hub = input.watchesHub ? hubStatus(input) : null;
  const drift = robots.some((r) => !r.converged) || (hub !== null && (!hub.reachable || hub.webhooks.some((w) => w.state !== 'converged')));
  return { format_version: STATUS_FORMAT_VERSION, generated_at: input.now.toISOString(), file: input.file, hub, robots, drift };
}

function pending(input: FleetInput, prefix: string): Action[] {
  return (input.remaining?.actions ?? []).filter((a) => a.address === prefix || a.address.startsWith(`${prefix}.`));
}

function robotStatus(robot: RobotSpec, input: FleetInput): RobotStatus {
  const owned = input.state?.robots[robot.name]?.apps ?? {};
  const active = robot.active === null ? null : daemonNameOf(robot.active, input.observation?.entryPoints?.[robot.active], owned[robot.active]);
  const url = robotAddress(robot, input.observation?.located)?.url ?? null;
  const base = {
    name: robot.name, url, located: robot.url === null && url !== null, dashboard: url === null ? null : `${url}/`, active,
    declared_daemon_version: robot.daemonVersion ?? null,
  };
  const unknown = { daemon_version: null, daemon_update_to: null, robot_name: null, hardware_id: null };
  const away = { reachable: false, daemon: null, ...unknown, installed: [], revisions: {}, running: null, app_state: null, converged: false, drift: [] };
  const obs = input.observation?.robots[robot.name];
  if (!obs) return { ...base, ...away, error: 'not observed yet' };
  if (!obs.reachable) return { ...base, ...away, error: obs.error };
  const refused = input.remaining?.refused.find((r) => r.robot === robot.name)?.reason;
  const todo = pending(input, `robots.${robot.name}`);
  const update = todo.find((a) => a.type === 'update_daemon');
  const drift = [
    ...todo.map((a) => (a.type === 'startup_app' ? `startup_app ${a.app ?? 'null'}: ${a.reason}` : 'robot' in a && isAppAction(a) ? `app ${a.app}: ${a.reason}` : 'robot' in a ? `${robotActionText(a)}: ${a.reason}` : `${a.type}: ${a.reason}`)),
    ...heldOn(robot.name, input.remaining),
  ];
  return {
    ...base,
    reachable: true,
    error: refused === undefined ? failureOn(robot.name, input.lastRun) : `refused: ${refused}`,
    daemon: obs.daemon?.state ?? null,
    daemon_version: typeof obs.daemon?.version === 'string' ? obs.daemon.version : null,
    daemon_update_to: update?.type === 'update_daemon' ? update.to : null,
    robot_name: obs.daemon?.robot_name ?? null,
    hardware_id: obs.daemon?.hardware_id ?? null,
    startup_app: obs.startupApp ?? null,
    installed: obs.installed.map((a) => a.name).sort(),
    revisions: Object.fromEntries(obs.installed.map((a) => [a.name, revisionOf(a, recordedUnder(owned, a.name)?.sha)])),
    running: obs.current?.info.name ?? null,
    app_state: obs.current?.state ?? null,
    ...crashOf(obs.current),
    ...(obs.startupApp !== undefined ? { startup_app: obs.startupApp } : {}),
    converged: drift.length === 0 && refused === undefined && input.remaining !== null,
    drift,
  };
}

/** A revision held back on this robot after a failed rollout (plan-held.ts), as a drift line. */
function heldOn(robot: string, remaining: Plan | null): string[] {
  return (remaining?.heldBack ?? []).filter((h) => h.robot === robot)
    .map((h) => `app ${h.app}: revision ${shortSha(h.sha)} held back (rollout ${h.rollout} failed with it: ${h.reason})`);
}

function hubStatus(input: FleetInput): HubStatus {
  const hubObs = input.observation?.hub;
  const reachable = hubObs?.ok === true;
  const error = hubObs === undefined ? 'not observed yet' : hubObs.ok ? null : hubObs.error;
  const names = [...new Set([...Object.keys(input.config.webhooks), ...Object.keys(input.state?.webhooks ?? {})])];
  return {
    endpoint: input.hubEndpoint,
    reachable,
    error,
    webhooks: names.map((name) => webhookStatus(name, input, reachable)),
    unmanaged_webhooks: input.remaining?.unmanaged.webhooks.length ?? 0,
  };
}

function webhookStatus(name: string, input: FleetInput, reachable: boolean): WebhookStatus {
  const todo = pending(input, `webhooks.${name}`);
  const adopt = todo.find((a) => a.type === 'adopt');
  const known = input.state?.webhooks[name]?.id ?? (adopt && 'id' in adopt ? adopt.id : null);
  const declared = input.config.webhooks[name]?.url ?? null;
  if (!reachable) return { name, id: known, url: declared, enabled: null, state: 'unknown', drift: ['hub not observed'] };
  if (todo.some((a) => a.type === 'create')) return { name, id: null, url: declared, enabled: null, state: 'missing', drift: todo.map(line) };
  const hooks = input.observation?.hub.ok ? input.observation.hub.webhooks : [];
  const hook = hooks.find((h) => h.id === known);
  // A delete held back (changed outside robotctl) is drift that waits for `apply --force`.
  const held = input.remaining?.heldDeletes.find((h) => h.address === `webhooks.${name}`);
  const drift = [...todo.map(line), ...(held ? [`delete held back: ${held.reason}`] : [])];
  return {
    name, id: hook?.id ?? known, url: hook?.url ?? declared, enabled: hook ? !hook.disabled : null,
    state: drift.length === 0 ? 'converged' : 'drifted', drift,
  };
}

function line(a: Action): string {
  return `${a.type}: ${a.reason}`;
}

/** The first failed action of the last run on this robot, if any (said once: a driver's error may already say `install failed`). */
function failureOn(robot: string, run: RunSummary | null): string | null {
  const failed = run?.actions.find((a) => a.outcome === 'failed' && a.address.startsWith(`robots.${robot}.`));
  if (!failed) return null;
  const error = failed.error ?? 'unknown error';
  return error.startsWith(`${failed.kind} failed`) ? error : `${failed.kind} failed: ${error}`;
}

/** The state's record of the app the robot lists as `name` (its entry point, or its key for older records). */
function recordedUnder(owned: Record<string, AppRecord>, name: string): AppRecord | undefined {
  return Object.entries(owned).find(([key, r]) => (r.entryPoint ?? key) === name)?.[1];
}

/** A crashed current app's exception and traceback tail (issue 30.2). */
function crashOf(current: AppStatus | null): Pick<RobotStatus, 'app_error' | 'app_traceback'> {
  if (current?.state !== 'error') return { app_error: null, app_traceback: [] };
  return { app_error: crashReason(current.error), app_traceback: logTail(current.error ?? '') };
}

/** The revision robotctl recorded when it installed the app, else what the daemon reports (robotctl's simulator does). */
function revisionOf(app: { extra: Record<string, unknown> }, recorded: string | null | undefined): string | null {
  if (recorded) return recorded;
  // robotctl's simulator reports installed_sha; a real daemon keeps the Space's sha robotctl sent as metadata.
  const reported = app.extra.installed_sha ?? app.extra.sha;
  return typeof reported === 'string' && reported !== '' ? reported : null;
}
