import type { RolloutLog } from './rollouts.js';

// The record of what one robot.yaml owns. Version 1; a reader rejects any
// other version with a message telling what to do (no silent upgrade).

export const STATE_VERSION = 1;

export interface WebhookRecord {
  /** Hub id of the webhook this file created or adopted. */
  id: string;
  /** webhookSpecHash of the spec last applied (secret only as a hash). */
  specHash: string;
}

/** What this file records about one app it installed (also the state file shape). */
export interface AppRecord {
  source: string | null;
  path: string | null;
  sha: string | null;
  /**
   * `install`: an intent, stored before the install request is sent and
   * replaced once the install is confirmed. It never reads as installed: it
   * only says that an app of this name found on the robot is this file's
   * (adopted, or removed once robot.yaml drops it), so a kill between the
   * request and its record leaves no orphan.
   */
  intent?: 'install';
  /**
   * The name the daemon knows the app by, its `reachy_mini_apps` entry point
   * (issue 30.3), recorded once the robot's installed list confirmed it;
   * absent in records written before, where it was the app's key.
   */
  entryPoint?: string;
}

export interface RobotRecord {
  /** Apps this file installed on the robot. */
  apps: Record<string, AppRecord>;
}

export interface StateFile {
  version: 1;
  /** Random id given when the state is born; never changes. */
  lineage: string;
  /** Incremented on every write. */
  serial: number;
  webhooks: Record<string, WebhookRecord>;
  robots: Record<string, RobotRecord>;
  /** The last rollouts and the revisions held back (state/rollouts.ts); absent until the first rollout. */
  rollouts?: RolloutLog;
}

/** What an action's success returned that the state must remember. */
export interface ActionResult {
  /** create/adopt: the hub id of the webhook. */
  webhookId?: string;
  /** install/update_app: the revision actually installed, when the daemon told us. */
  sha?: string | null;
}
