import type { DeliveryRecord } from '../../runtime/receiver/index.js';
import type { AgentStatus, DeliveryStatus, RunStatus, RunSummary } from './status-types.js';
import { fleetStatus, type FleetInput } from './status-fleet.js';
import type { RolloutStatus } from './rollout-progress.js';

// GET /status: the fleet's status (status-fleet.ts) plus what only the agent
// knows: its mode and interval, the last run, the deliveries, a config error.
// Pure: the agent passes what it knows, this shapes it for the fleet page.

export interface StatusInput extends FleetInput {
  mode: 'heal' | 'warn';
  intervalMs: number;
  deliveries: DeliveryRecord[];
  configError: string | null;
  /** Finished runs, oldest first. */
  runs: RunSummary[];
  rollout: RolloutStatus | null;
}

export function buildStatus(input: StatusInput): AgentStatus {
  return {
    ...fleetStatus(input),
    mode: input.mode,
    interval_ms: input.intervalMs,
    last_run: input.lastRun === null ? null : runStatus(input.lastRun),
    deliveries: input.deliveries.slice().reverse().map(deliveryStatus),
    config_error: input.configError,
    receiver: input.config.receiver ? {
      endpoints: input.config.receiver.endpoints.map((e) => ({ path: `/webhooks/${e.name}`, action: e.app ? `${e.action} ${e.app}` : e.action })),
    } : null,
    runs: input.runs.slice(-10).reverse().map(runStatus),
    rollout: input.rollout,
  };
}

function runStatus(run: RunSummary): RunStatus {
  return {
    trigger: run.trigger, started_at: run.startedAt, finished_at: run.finishedAt, result: run.result,
    actions: run.actions.map((a) => ({ address: a.address, kind: a.kind, outcome: a.outcome, error: a.error, duration_ms: a.durationMs })),
  };
}

function deliveryStatus(d: DeliveryRecord): DeliveryStatus {
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
