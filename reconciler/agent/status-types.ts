// The agent's `GET /status` document (format 1.0): what the fleet page shows.
// The agent builds it; the page in runtime/fleet-page/page/ reads it. Add fields
// freely (optional ones keep 1.0); renaming or removing one needs 2.0.

import type { AppState } from '../../lib/wire/daemon.js';
import type { DeliveryOutcome } from '../../runtime/receiver/index.js';

export const AGENT_STATUS_FORMAT_VERSION = '1.0' as const;

/** How a declared webhook compares with the hub: equal, different, or absent. */
export type WebhookConvergence = 'converged' | 'drifted' | 'missing';

export interface HubWebhookStatus {
  /** Key under `webhooks:` in robot.yaml. */
  name: string;
  /** Hub id once created or adopted; null while missing. */
  id: string | null;
  state: WebhookConvergence;
  /** Short human reasons for `drifted`, e.g. `enabled: false → true`. Optional. */
  drift?: string[];
}

export interface HubStatus {
  /** Hub base URL (never with a token). */
  endpoint: string;
  reachable: boolean;
  /** Why the hub could not be observed; null when reachable. Optional. */
  error?: string | null;
  webhooks: HubWebhookStatus[];
}

export interface RobotStatus {
  /** Key under `robots:` in robot.yaml. */
  name: string;
  /** Daemon base URL. */
  url: string;
  /** URL of the robot's own dashboard (the daemon's `GET /`). */
  dashboard: string;
  reachable: boolean;
  /** Why the robot could not be observed or converged; null when fine. */
  error: string | null;
  /** Names of the apps installed on the robot (observed). */
  installed: string[];
  /** The app robot.yaml wants running on this robot (after per-robot overrides); null = none. */
  active: string | null;
  /** The daemon's current app (observed), null when none. */
  running: string | null;
  /** State of `running` (starting, running, done, stopping, error); null when none. */
  appState: AppState | null;
  /** True when the robot matches robot.yaml. */
  converged: boolean;
  /** Human lines for each difference, e.g. `app dev_app: not installed`; empty when converged. */
  drift: string[];
}

export type RunTrigger = 'startup' | 'file' | 'interval' | 'delivery' | 'manual';
export type RunResult = 'converged' | 'drift' | 'failed' | 'running';
export type ActionOutcome = 'ok' | 'failed' | 'skipped';

export interface ActionResult {
  /** Resource address, e.g. `webhooks.redeploy` or `robots.desk.apps.hello_app`. */
  address: string;
  /** Action kind from the closed vocabulary (create, update, install, start, …). */
  kind: string;
  outcome: ActionOutcome;
  error: string | null;
  durationMs: number;
}

export interface RunSummary {
  trigger: RunTrigger;
  /** ISO times. */
  startedAt: string;
  finishedAt: string | null;
  result: RunResult;
  actions: ActionResult[];
}

export interface DeliverySummary {
  /** ISO time the delivery arrived. */
  at: string;
  /** Receiver path, e.g. `/webhooks/redeploy`. */
  endpoint: string;
  /** `scope/action`, e.g. `repo.content/update`; null when the body was refused. */
  event: string | null;
  /** `type:name`, e.g. `space:alice/hello_app`; null when the body was refused. */
  repo: string | null;
  /** HTTP status answered. */
  status: number;
  outcome: DeliveryOutcome;
  /** Why it was refused or failed; null otherwise. */
  error: string | null;
  /** What the agent did about it, e.g. `reinstalled hello_app on desk, lab-1`. Optional. */
  action?: string | null;
}

export interface AgentStatus {
  format_version: typeof AGENT_STATUS_FORMAT_VERSION;
  /** ISO time this document was made. */
  generatedAt: string;
  /** Path of the robot.yaml the agent watches. */
  file: string;
  /** heal: drift is corrected; warn: drift is only reported. */
  mode: 'heal' | 'warn';
  /** Drift check interval. Optional. */
  intervalMs?: number;
  /** Null when robot.yaml declares no webhooks and the hub is not observed. */
  hub: HubStatus | null;
  robots: RobotStatus[];
  /** The last (or current) reconcile; null before the first. */
  lastRun: RunSummary | null;
  /** The last deliveries received, newest first (the page shows up to 20). */
  deliveries: DeliverySummary[];
  /** True when anything (hub or a robot) differs from robot.yaml. */
  drift: boolean;
  /** Why the file could not be loaded (the agent keeps the last good one); null when fine. Optional. */
  configError?: string | null;
}
