// Wire shapes of the Reachy Mini daemon's REST API (spec/robot-daemon.md §2,
// §4, §6): what the daemon driver reads and the simulated daemon answers.
// Both sides import them from here, so neither depends on the other.

export type SourceKind = 'hf_space' | 'dashboard_selection' | 'local' | 'installed';

export interface AppInfo {
  name: string;
  source_kind: SourceKind;
  description: string;
  url: string | null;
  extra: Record<string, unknown>;
}

export type AppState = 'starting' | 'running' | 'done' | 'stopping' | 'error';

export interface AppStatus {
  info: AppInfo;
  state: AppState;
  error: string | null;
}

export type JobStatus = 'pending' | 'in_progress' | 'done' | 'failed';

export interface JobInfo {
  command: string;
  status: JobStatus;
  logs: string[];
}

export type DaemonState = 'not_initialized' | 'starting' | 'running' | 'stopping' | 'stopped' | 'error';

export interface DaemonStatus {
  type?: 'daemon_status';
  robot_name: string;
  state: DaemonState;
  simulation_enabled?: boolean;
  version?: string | null;
  /** The robot's hardware id (spec §9); null when the daemon has no robot attached. */
  hardware_id?: string | null;
  error?: string | null;
  [key: string]: unknown;
}

export interface AppUpdateInfo {
  app_name: string;
  space_id: string | null;
  installed_sha: string | null;
  latest_sha: string | null;
  update_available: boolean;
}

/**
 * robotctl's extensions to the daemon API, which its simulator announces in
 * its daemon status as `robotctl_extensions` (Pollen's daemon has none of
 * them): an install request whose `extra.revision` names a commit of the
 * Space installs that commit (the real daemon installs the Space's head,
 * whatever the request says), and a WebSocket that sends the current app's
 * status (AppStatus JSON, or `null`) when it connects and at every change.
 */
export interface RobotctlExtensions {
  install_revision?: boolean;
  /** Path of the app-state WebSocket. */
  app_state_ws?: string;
}

export const APP_STATE_WS_PATH = '/api/apps/ws/current-app-status';

/** The key of an install request's `extra` that names the revision to install (robotctl's simulator only). */
export const INSTALL_REVISION_KEY = 'revision';

/** What a daemon status says robotctl's extensions are; none for a real daemon. */
export function extensionsOf(status: DaemonStatus | null): RobotctlExtensions {
  const ext = status?.robotctl_extensions;
  return typeof ext === 'object' && ext !== null ? ext as RobotctlExtensions : {};
}
