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
