import type { AppInfo, AppStatus, AppUpdateInfo, DaemonStatus, JobInfo } from '../../lib/wire/daemon.js';

// The daemon driver's interface, which the reconciler depends on; the wire
// shapes it carries are in lib/wire/daemon.ts.

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
