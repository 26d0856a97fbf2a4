import type { AppInfo, AppState, AppStatus } from '../../../lib/wire/daemon.js';
import { Errors } from '../errors.js';
import type { SimRobot } from '../sim/robot.js';
import { settingsPort } from './settings-port.js';
import { sdkReachProblem } from './sdk-reach.js';
import { AppProcess } from './process.js';
import { toAppInfo, type InstalledApp } from './store.js';
import { LogRing } from './log-ring.js';
import type { RunningApp } from './running-record.js';

// The app lifecycle of spec §3: one app at a time; starting → running →
// done | error; stop = SIGINT, wait, SIGKILL the group, cancel the app's
// moves, back to the rest pose. Messages are the real daemon's.

export interface ManagerDeps {
  resolve(name: string): Promise<{ app: InstalledApp; python: string; sitePackages: string | null } | null>;
  robot: SimRobot;
  env: () => NodeJS.ProcessEnv;
  cwd: string;
  stopTimeoutMs: number;
  log: (line: string) => void;
  /** Marker prefix of this daemon's apps (proc.ts). */
  marker: string;
  /** Durable note of the running app, null once it and its processes are gone. */
  onRunning: (app: RunningApp | null) => void;
}

interface Current {
  info: AppInfo;
  state: AppState;
  error: string | null;
  proc: AppProcess | null;
  stopping: Promise<void> | null;
}

const BLOCKING: readonly AppState[] = ['starting', 'running', 'error', 'stopping'];

export class AppManager {
  private current: Current | null = null;
  /** Ring of the current app's output and lifecycle lines, bounded in lines and bytes. */
  readonly logs = new LogRing();

  constructor(private readonly deps: ManagerDeps) {}

  status(): AppStatus | null {
    const c = this.current;
    return c ? { info: c.info, state: c.state, error: c.error } : null;
  }

  /** The named app is current and not finished: it must not be removed or updated. */
  isBusy(name: string): boolean {
    const c = this.current;
    return !!c && (c.info.name === name || c.info.extra.entry_point === name) && ['starting', 'running', 'stopping'].includes(c.state);
  }

  pid(): number | null {
    return this.current?.proc?.pid ?? null;
  }

  private log(line: string): void {
    this.logs.push(line);
    this.deps.log(line);
  }

  async start(name: string): Promise<AppStatus> {
    if (this.current && BLOCKING.includes(this.current.state)) throw Errors.appAlreadyRunning();
    const previous = this.current;
    // Claim the slot before the first await so two starts cannot both pass.
    const slot: Current = { info: { name, source_kind: 'installed', description: '', url: null, extra: {} }, state: 'starting', error: null, proc: null, stopping: null };
    this.current = slot;
    const found = await this.deps.resolve(name).catch(() => null);
    if (!found) {
      this.current = previous;
      throw Errors.unknownApp(name);
    }
    slot.info = toAppInfo(found.app);
    const settings = await settingsPort(slot.info.extra.custom_app_url, this.deps.env());
    if (settings.url) slot.info = { ...slot.info, extra: { ...slot.info.extra, custom_app_url: settings.url } };
    this.logs.clear();
    this.log(`Starting app ${slot.info.name}`);
    const reach = sdkReachProblem(found.sitePackages, this.deps.env().ROBOT_DAEMON_URL);
    if (reach) this.log(`Warning: ${reach}`);
    const proc = await AppProcess.start(found.python, found.app.entry.module, {
      env: settings.env, cwd: this.deps.cwd, marker: `${this.deps.marker}-${Date.now()}`,
      onLine: (_s, l) => this.log(l),
    });
    slot.proc = proc;
    // A stop that came while the app was being launched found no process to
    // stop: this one must not outlive it.
    if (slot.stopping || this.current !== slot) {
      proc.killGroup();
      return { info: slot.info, state: slot.state, error: slot.error };
    }
    const snapshot = this.status() as AppStatus;
    if (proc.pid) {
      slot.state = 'running';
      this.deps.onRunning({ name: slot.info.name, pid: proc.pid, pgid: proc.pid, start: proc.start ?? 0 });
    }
    void proc.exited.then(({ rc }) => {
      this.onExit(slot, rc);
      this.deps.onRunning(null);
    });
    return snapshot;
  }

  private onExit(slot: Current, rc: number): void {
    if (this.current !== slot || slot.state === 'stopping') return;
    if (rc === 0) {
      slot.state = 'done';
      this.log(`App ${slot.info.name} finished`);
    } else {
      slot.state = 'error';
      slot.error = [`Process exited with code ${rc}`, ...(slot.proc?.stderrTail(10) ?? [])].join('\n');
      this.log(`App ${slot.info.name} failed: process exited with code ${rc}`);
    }
  }

  async stop(): Promise<void> {
    const c = this.current;
    if (!c || c.state === 'done') throw Errors.noAppRunning();
    if (c.stopping) throw Errors.noAppRunning();
    c.stopping = this.doStop(c);
    await c.stopping;
  }

  private async doStop(c: Current): Promise<void> {
    c.state = 'stopping';
    const proc = c.proc;
    if (proc?.running) {
      proc.interrupt();
      const timedOut = await exitedWithin(proc, this.deps.stopTimeoutMs);
      if (timedOut) {
        this.log('App did not stop within timeout, forcing termination');
        proc.killGroup();
        await proc.exited;
      }
    }
    proc?.killGroup();
    // The app's moves die with it, so the motion lock never sticks (#1401).
    this.deps.robot.cancelAll();
    this.log('Returning robot to zero position');
    await this.deps.robot.returnToRest();
    if (this.current === c) this.current = null;
  }

  async restart(): Promise<AppStatus> {
    const c = this.current;
    if (!c || !BLOCKING.includes(c.state)) throw Errors.noAppRunning();
    const name = c.info.name;
    if (c.stopping) await c.stopping;
    else await this.stop();
    return this.start(name);
  }

  /** Daemon shutdown: stop whatever runs, never throw. */
  async shutdown(): Promise<void> {
    const c = this.current;
    if (!c) return;
    if (c.stopping) await c.stopping.catch(() => {});
    else if (c.state !== 'done') await this.stop().catch(() => {});
    c.proc?.killGroup();
  }
}

/** true when the process did not exit within ms. */
function exitedWithin(proc: AppProcess, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(true), ms);
    void proc.exited.then(() => { clearTimeout(t); resolve(false); });
  });
}
