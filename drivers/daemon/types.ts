// Wire shapes of the Reachy Mini daemon (spec/robot-daemon.md §2, §6) and the
// driver interface the reconciler depends on.

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

export interface DaemonClient {
  readonly baseUrl: string;
  daemonStatus(signal?: AbortSignal): Promise<DaemonStatus>;
  /** Poll daemon status until state is `running` (after a restart the real robot needs ~30 s). */
  waitUntilRunning(timeoutMs: number, signal?: AbortSignal): Promise<DaemonStatus>;
  listInstalled(signal?: AbortSignal): Promise<AppInfo[]>;
  currentAppStatus(signal?: AbortSignal): Promise<AppStatus | null>;
  /** Starts the install job and waits for it; a failed job throws with its logs. */
  install(app: AppInfo, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<JobInfo>;
  remove(name: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<JobInfo>;
  update(name: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<JobInfo>;
  checkUpdates(signal?: AbortSignal): Promise<AppUpdateInfo[]>;
  startApp(name: string, signal?: AbortSignal): Promise<AppStatus>;
  /** Synchronous on the daemon: resolves after the app exited and the robot is at rest. */
  stopCurrentApp(signal?: AbortSignal): Promise<void>;
  restartCurrentApp(signal?: AbortSignal): Promise<AppStatus>;
  close(): Promise<void>;
}
