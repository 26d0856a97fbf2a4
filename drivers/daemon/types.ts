import type { AppInfo, AppStatus, AppUpdateInfo, DaemonStatus, JobInfo } from '../../lib/wire/daemon.js';
import type { InstallSource } from '../../lib/wire/daemon-update.js';
import type { UpdateLogFollower } from './update-logs.js';
import type { AppStateFollower, FollowOptions } from './app-state.js';

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
  /**
   * Synchronous on the daemon: resolves after the app exited and the robot is at rest,
   * also when another stop was under way (its end is waited for). Start, remove and
   * update first wait for a stop in progress to finish.
   */
  stopCurrentApp(signal?: AbortSignal): Promise<void>;
  restartCurrentApp(signal?: AbortSignal): Promise<AppStatus>;
  /**
   * Follow the current app as it changes (app-state.ts): pushed by robotctl's
   * simulator, polled every `pollMs` on Pollen's daemon. Reads outside the
   * retry policy (a failure is told, and the next poll tries again).
   */
  followAppState(opts: FollowOptions): AppStateFollower;

  // The startup app (startup-app.ts; spec §9)
  /** GET /api/apps/startup-app: the app the robot starts at boot; null when none. */
  startupApp(signal?: AbortSignal): Promise<string | null>;
  /** PUT /api/apps/startup-app; null clears it. An app the robot lacks: not_installed. */
  setStartupApp(name: string | null, signal?: AbortSignal): Promise<string | null>;

  // Identity (identity.ts)
  /** GET /api/daemon/hardware-id: stable per robot; null when the daemon has no robot attached. */
  hardwareId(signal?: AbortSignal): Promise<string | null>;
  robotName(signal?: AbortSignal): Promise<string | null>;
  /** POST /api/daemon/robot-name; resolves with the stored (trimmed) name. */
  setRobotName(name: string, signal?: AbortSignal): Promise<string>;

  // Daemon updates (update.ts)
  updateAvailable(opts?: { preRelease?: boolean; signal?: AbortSignal }): Promise<UpdateAvailability>;
  installSource(signal?: AbortSignal): Promise<InstallSource>;
  /** POST /api/update/start (the newest release): the job id. 400s: update_in_progress, no_update_available. */
  startUpdate(opts?: { preRelease?: boolean; signal?: AbortSignal }): Promise<string>;
  /** POST /api/update/start-from-ref: the job id. A ref no tag or branch has fails the job, not the call. */
  startUpdateFromRef(ref: string, signal?: AbortSignal): Promise<string>;
  /** GET /api/update/info; job_not_found once the daemon restarted (it forgets its jobs). */
  updateInfo(jobId: string, signal?: AbortSignal): Promise<JobInfo>;
  /** The job's log WebSocket, line by line. */
  followUpdateLogs(jobId: string, onLine?: (line: string) => void): UpdateLogFollower;
  /** Polls the status until the daemon runs `version` (same release number); update_timeout after timeoutMs (default 10 min). */
  waitForVersion(version: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<DaemonStatus>;
  /**
   * The whole update to a release: start-from-ref with its tag, follow the job,
   * wait through the restart until the daemon runs that version. Fails with
   * update_failed (the job failed: detail is pip's or git's error line),
   * version_mismatch (it came back on another version) or update_timeout (no
   * healthy answer in time, e.g. a crash loop: the message ends with what the
   * update last logged); `logs` carries the job's log in every case.
   */
  updateDaemon(version: string, opts?: DaemonUpdateOptions): Promise<DaemonUpdateResult>;
  close(): Promise<void>;
}

export interface UpdateAvailability {
  isAvailable: boolean;
  currentVersion: string;
  /** null when the daemon could not tell (it answers `unknown` without PyPI). */
  availableVersion: string | null;
}

export interface DaemonUpdateOptions {
  /** No healthy answer on the new version within this long fails the update (default 10 min, as daemon.update_timeout). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each line of the update's log as it comes. */
  onLog?: (line: string) => void;
  /** The git ref to install (default: the release's tag, `v` + version). */
  ref?: string;
}

export interface DaemonUpdateResult {
  /** The restarted daemon's status (state running, version = the update's). */
  status: DaemonStatus;
  jobId: string;
  logs: string[];
  ref: string;
}
