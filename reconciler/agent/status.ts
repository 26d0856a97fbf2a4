import type { Config, RobotSpec } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import type { DeliveryRecord } from '../../runtime/receiver/index.js';
import {
  AGENT_STATUS_FORMAT_VERSION,
  type AgentStatus, type DeliverySummary, type HubStatus, type HubWebhookStatus, type RobotStatus, type RunSummary,
} from './status-types.js';
import type { Action, Observation, Plan } from '../types.js';

// GET /status: the agent's view of the fleet, made from the last
// observation and the plan of what is still to do (the drift). Pure: the
// agent passes what it knows, this shapes it for the fleet page.

export interface StatusInput {
  config: Config;
  file: string;
  mode: 'heal' | 'warn';
  intervalMs: number;
  hubEndpoint: string;
  /** Whether the hub is observed at all (webhooks declared or owned). */
  watchesHub: boolean;
  observation: Observation | null;
  remaining: Plan | null;
  state: StateFile | null;
  lastRun: RunSummary | null;
  deliveries: DeliveryRecord[];
  configError: string | null;
  now: Date;
}

export function buildStatus(input: StatusInput): AgentStatus {
  const robots = Object.values(input.config.robots).map((r) => robotStatus(r, input));
  const hub = input.watchesHub ? hubStatus(input) : null;
  const drift = robots.some((r) => !r.converged) || (hub !== null && (!hub.reachable || hub.webhooks.some((w) => w.state !== 'converged')));
  return {
    format_version: AGENT_STATUS_FORMAT_VERSION,
    generatedAt: input.now.toISOString(),
    file: input.file,
    mode: input.mode,
    intervalMs: input.intervalMs,
    hub,
    robots,
    lastRun: input.lastRun,
    deliveries: input.deliveries.slice().reverse().map(deliverySummary),
    drift,
    configError: input.configError,
  };
}

function robotStatus(robot: RobotSpec, input: StatusInput): RobotStatus {
  const base = { name: robot.name, url: robot.url, dashboard: `${robot.url}/`, active: robot.active };
  const obs = input.observation?.robots[robot.name];
  if (!obs) return { ...base, reachable: false, error: 'not observed yet', installed: [], running: null, appState: null, converged: false, drift: [] };
  if (!obs.reachable) return { ...base, reachable: false, error: obs.error, installed: [], running: null, appState: null, converged: false, drift: [] };
  const actions = (input.remaining?.actions ?? []).filter((a) => 'robot' in a && a.robot === robot.name);
  const drift = actions.map(driftLine);
  return {
    ...base,
    reachable: true,
    error: failureOn(robot.name, input.lastRun),
    installed: obs.installed.map((a) => a.name).sort(),
    running: obs.current?.info.name ?? null,
    appState: obs.current?.state ?? null,
    converged: drift.length === 0 && input.remaining !== null,
    drift,
  };
}

function hubStatus(input: StatusInput): HubStatus {
  const hubObs = input.observation?.hub;
  const reachable = hubObs?.ok === true;
  const error = hubObs === undefined ? 'not observed yet' : hubObs.ok ? null : hubObs.error;
  const actions = (input.remaining?.actions ?? []).filter((a) => !('robot' in a));
  const webhooks: HubWebhookStatus[] = Object.keys(input.config.webhooks).map((name) => {
    const mine = actions.filter((a) => 'name' in a && a.name === name);
    const id = input.state?.webhooks[name]?.id ?? null;
    if (!reachable) return { name, id, state: 'drifted', drift: ['hub not observed'] };
    if (mine.some((a) => a.type === 'create')) return { name, id: null, state: 'missing' };
    if (mine.length === 0) return { name, id, state: 'converged' };
    return { name, id, state: 'drifted', drift: mine.map((a) => a.type === 'update' ? a.changes.map((c) => `${c.field} changed`).join(', ') : `${a.type}: ${a.reason}`) };
  });
  return { endpoint: input.hubEndpoint, reachable, error, webhooks };
}

function driftLine(a: Action): string {
  return 'robot' in a ? `app ${a.app}: ${a.reason}` : `${a.type}: ${a.reason}`;
}

/** The first failed action of the last run on this robot, if any. */
function failureOn(robot: string, run: RunSummary | null): string | null {
  const failed = run?.actions.find((a) => a.outcome === 'failed' && a.address.startsWith(`robots.${robot}.`));
  return failed ? `${failed.kind} failed: ${failed.error ?? 'unknown error'}` : null;
}

function deliverySummary(d: DeliveryRecord): DeliverySummary {
  const result = d.result as { action?: unknown } | null | undefined;
  return {
    at: d.time,
    endpoint: d.endpoint,
    event: d.event,
    repo: d.repo,
    status: d.status,
    outcome: d.outcome,
    error: d.error ?? null,
    action: typeof result?.action === 'string' ? result.action : null,
  };
}
