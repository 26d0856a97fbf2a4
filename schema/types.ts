import type { WatchedItem, WebhookDomain } from '../lib/wire/hub.js';

// The resolved, validated robot.yaml: one type per concept, reused from the
// loader to the planner to the report. Produced by schema/load.ts only.

/** Desired webhook. Exactly one of url / jobId is set. */
export interface WebhookSpec {
  name: string;
  url: string | null;
  jobId: string | null;
  watched: WatchedItem[];
  /** Empty means "the hub's default" (all domains); normalised sorted, unique. */
  domains: WebhookDomain[];
  /** Clear text, held in memory only; never printed, logged or stored. */
  secret: string | null;
  enabled: boolean;
}

/** Desired app. Exactly one of source / path is set. */
export interface AppSpec {
  name: string;
  /** Space URL, e.g. https://huggingface.co/spaces/alice/hello_app */
  source: string | null;
  /** `owner/name` parsed from source, null for path apps. */
  spaceId: string | null;
  /** Absolute path (resolved against the robot.yaml folder) for development installs. */
  path: string | null;
}

/** Desired state of one robot after applying its overrides to the fleet values. */
export interface RobotSpec {
  name: string;
  /** Daemon base URL, e.g. http://127.0.0.1:8000 (no trailing slash); null: found over mDNS by `hardwareId` when observed. */
  url: string | null;
  /** App names (keys of Config.apps) that must be installed on this robot. */
  apps: string[];
  /** The one app that runs; null means none. Always one of `apps`. */
  active: string | null;
  /**
   * `startup_app:` (fleet value, or this robot's override): the app the robot
   * starts at boot, one of `apps`; null clears it; absent (undefined): not
   * managed, the robot's own setting stays (issue 30.5).
   */
  startupApp?: string | null;
  /** `hardware_id`: the physical robot this entry is (absent: not declared; null: declared as none). Checked before any change. */
  hardwareId?: string | null;
  /** `robot_name`: the robot's display name, applied and diffed. */
  robotName?: string;
  /** The daemon version this robot runs (its `daemon.version`, else the fleet's): a release or `latest`; absent: not managed. */
  daemonVersion?: string;
}

/** The top-level `daemon:` block. */
export interface DaemonSpec {
  /** The fleet's daemon version (a release or `latest`); null when not declared. */
  version: string | null;
  /** How long an updated daemon has to answer `running` on the new version (daemon.update_timeout). */
  updateTimeoutMs: number;
}

export type MaxFailures = { kind: 'count'; value: number } | { kind: 'percent'; value: number };

export interface RolloutSpec {
  /** Robots worked on at once. */
  parallelism: number;
  /**
   * The first N robots (in file order) form the canary wave. null: not
   * declared, so 0, or 1 in a rollout that updates a daemon (reconciler's
   * canaryOf).
   */
  canary: number | null;
  maxFailures: MaxFailures;
  /**
   * The health gate (rollout.healthy_for, formerly min_ready): how long a
   * started app must run without a restart, its daemon healthy, for its
   * robot to count as done. 0: done once the app runs.
   */
  healthyForMs: number;
  /** What a failed wave does: put its robots back on what they ran before, or leave them. */
  onFailure: 'rollback' | 'stop';
}

/** Who hears each rollout's outcome (robot.yaml's notify:). */
export interface NotifySpec {
  /** A URL that gets a JSON POST per outcome; null: none. */
  webhook: string | null;
  /** Signs the POSTs (HMAC-SHA256). Clear text, memory only. */
  secret: string | null;
  /** Comment on the app's Space discussion (or the delivery's). */
  discussion: boolean;
}

export type ReceiverAction = 'reconcile' | 'redeploy' | 'log';

export interface ReceiverEndpointSpec {
  /** Served at /webhooks/<name>. */
  name: string;
  action: ReceiverAction;
  /** For action redeploy: the app to redeploy. */
  app: string | null;
}

export interface ReceiverSpec {
  port: number;
  /** Accepted secrets (rotation: several may be valid at once). Clear text, memory only. */
  secrets: string[];
  endpoints: ReceiverEndpointSpec[];
}

export interface HubSpec {
  /** Resolved endpoint: HF_ENDPOINT, else robot.yaml hub.endpoint, else https://huggingface.co (no trailing slash). */
  endpoint: string;
}

export interface Config {
  version: 1;
  /** Absolute path of the file this came from. */
  file: string;
  hub: HubSpec;
  webhooks: Record<string, WebhookSpec>;
  apps: Record<string, AppSpec>;
  /** Fleet-wide active app (before per-robot overrides). */
  active: string | null;
  /** Fleet-wide `startup_app:` (before per-robot overrides); undefined when absent. */
  startupApp?: string | null;
  robots: Record<string, RobotSpec>;
  daemon: DaemonSpec;
  rollout: RolloutSpec;
  /** Null when robot.yaml has no notify: block. */
  notify: NotifySpec | null;
  receiver: ReceiverSpec | null;
  /**
   * The `state:` block as loaded (variables substituted), null when absent:
   * the session opens its state backend from it. Absent (a Config built by
   * hand) counts as null.
   */
  stateBlock?: Record<string, unknown> | null;
}

/** A user-facing problem in a file, with its position. Collected, never thrown one by one. */
export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  /** Dotted path in the document, e.g. `webhooks.redeploy.url`; empty for the root. */
  path: string;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.path ? `${d.path}: ` : ''}${d.message}`;
}
