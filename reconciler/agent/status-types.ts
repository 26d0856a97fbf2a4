// The one status document (format 2.0): `robotctl status --json` prints a
// FleetStatus, the agent's `GET /status` answers an AgentStatus (the same
// document plus the loop's run, deliveries and settings), and the fleet page
// in runtime/fleet-page/page/ reads it. Keys are snake_case like the hub's and
// Terraform's JSON. Adding an optional field keeps 2.x; renaming or removing
// one needs 3.0.
//
// RunSummary and ActionResult are the agent's own run records (camelCase,
// internal); the document carries them as RunStatus and ActionStatus.

import type { AppState } from '../../lib/wire/daemon.js';
import type { DeliveryOutcome } from '../../runtime/receiver/index.js';
import type { RolloutStatus } from './rollout-progress.js';

export const STATUS_FORMAT_VERSION = '2.0' as const;

/** How a declared (or owned) webhook compares with the hub; unknown when the hub was not observed. */
export type WebhookConvergence = 'converged' | 'drifted' | 'missing' | 'unknown';

export interface WebhookStatus {
  /** Key under `webhooks:` in robot.yaml (or owned in the state, pending deletion). */
  name: string;
  /** Hub id once created or adopted; null while missing. */
  id: string | null;
  /** The URL on the hub, else the declared one; null for job webhooks. */
  url: string | null;
  /** As found on the hub; null when not found or the hub was not observed. */
  enabled: boolean | null;
  state: WebhookConvergence;
  /** One line per difference, e.g. `enable: disabled on the hub, enabled in robot.yaml`; empty when converged. */
  drift: string[];
}

export interface HubStatus {
  /** Hub base URL (never with a token). */
  endpoint: string;
  reachable: boolean;
  /** Why the hub could not be observed; null when reachable. */
  error: string | null;
  webhooks: WebhookStatus[];
  /** Webhooks on the account that this file does not manage (left alone). */
  unmanaged_webhooks: number;
}

export interface RobotStatus {
  /** Key under `robots:` in robot.yaml. */
  name: string;
  /** Daemon base URL: robot.yaml's, or where mDNS found a robot declared by hardware_id alone; null when not found. */
  url: string | null;
  /** True when `url` is where mDNS found the robot by its hardware id. */
  located: boolean;
  /** URL of the robot's own dashboard (the daemon's `GET /`); null without a url. */
  dashboard: string | null;
  reachable: boolean;
  /** Why the robot could not be observed or converged; null when fine. */
  error: string | null;
  /** The daemon's own state (e.g. `running`); null when unreachable. */
  daemon: string | null;
  /** The daemon's version (reachy_mini release), as it says it; null when unknown. */
  daemon_version: string | null;
  /** The version robot.yaml declares for it (a release or `latest`); null when it declares none. */
  declared_daemon_version: string | null;
  /** The release apply would update it to (`latest` resolved) while its daemon is not as declared; null otherwise. */
  daemon_update_to: string | null;
  /** The robot's display name, as the daemon says it. */
  robot_name: string | null;
  /** The robot's hardware id, as the daemon says it (null: none, or unknown). */
  hardware_id: string | null;
  /** Names of the apps installed on the robot (observed), sorted. */
  installed: string[];
  /** Installed revision (Space commit sha) per installed app, from the state, else the daemon; null when unknown (a path app). */
  revisions: Record<string, string | null>;
  /** The app robot.yaml wants running on this robot (after per-robot overrides), by the name the robot knows it (its entry point); null = none. */
  active: string | null;
  /** The daemon's current app (observed), null when none. */
  running: string | null;
  /** State of `running` (starting, running, done, stopping, error); null when none. */
  app_state: AppState | null;
  /** When `running` crashed (app_state error): its exception's line, in the robot's words (issue 30.2); else null. */
  app_error?: string | null;
  /** When it crashed: the last 20 lines of its traceback (the daemon's `error`); else empty. */
  app_traceback?: string[];
  /** The app the robot starts at boot (GET /api/apps/startup-app), null when none; absent when not read (issue 30.5). */
  startup_app?: string | null;
  /** True when the robot matches robot.yaml. */
  converged: boolean;
  /** Human lines for each difference, e.g. `app dev_app: not installed`; empty when converged. */
  drift: string[];
}

export interface FleetStatus {
  format_version: typeof STATUS_FORMAT_VERSION;
  /** ISO time this document was made. */
  generated_at: string;
  /** Path of the robot.yaml. */
  file: string;
  /** Null when robot.yaml declares no webhooks and the hub is not observed. */
  hub: HubStatus | null;
  robots: RobotStatus[];
  /** True when anything (hub or a robot) differs from robot.yaml or could not be observed. */
  drift: boolean;
}

export type RunTrigger = 'startup' | 'file' | 'interval' | 'delivery' | 'manual';
export type RunResult = 'converged' | 'drift' | 'failed' | 'running';
export type ActionOutcome = 'ok' | 'failed' | 'skipped';

/** The agent's record of one action (internal). */
export interface ActionResult {
  address: string;
  kind: string;
  outcome: ActionOutcome;
  error: string | null;
  durationMs: number;
}

/** The agent's record of one reconcile (internal). */
export interface RunSummary {
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string | null;
  result: RunResult;
  actions: ActionResult[];
}

export interface ActionStatus {
  /** Resource address, e.g. `webhooks.redeploy` or `robots.desk.apps.hello_app`. */
  address: string;
  /** Action kind from the closed vocabulary (create, update, install, start, …). */
  kind: string;
  outcome: ActionOutcome;
  error: string | null;
  duration_ms: number;
}

export interface RunStatus {
  trigger: RunTrigger;
  /** ISO times. */
  started_at: string;
  finished_at: string | null;
  result: RunResult;
  actions: ActionStatus[];
}

export interface DeliveryStatus {
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
  /** What the agent did about it, e.g. `reinstalled hello_app on desk, lab-1`. */
  action: string | null;
}

export interface AgentStatus extends FleetStatus {
  /** heal: drift is corrected; warn: drift is only reported. */
  mode: 'heal' | 'warn';
  /** Drift check interval. */
  interval_ms: number;
  /** The last (or current) reconcile; null before the first. */
  last_run: RunStatus | null;
  /** The last deliveries received, newest first (the page shows up to 20). */
  deliveries: DeliveryStatus[];
  /** Why the file could not be loaded (the agent keeps the last good one); null when fine. */
  config_error: string | null;
  /** The receiver's endpoints (paths on this server) and what each does; null when robot.yaml declares no receiver. */
  receiver: { endpoints: { path: string; action: string }[] } | null;
  /** The last finished runs, newest first (up to 10). */
  runs: RunStatus[];
  /** The apply in progress, or the last one that did something: waves, a count per robot, failures. */
  rollout: RolloutStatus | null;
  /** Among agents sharing one state, whether this one reconciles or stands by. Optional. */
  leadership?: AgentLeadership;
}

export interface AgentLeadership {
  role: 'leader' | 'standby';
  /** Who leads (pid, host, since), when this agent stands by; null otherwise or unknown. */
  leader: string | null;
  /** Where the shared state lives (never with a password). */
  state: string;
}
