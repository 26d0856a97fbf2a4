import type { AppInfo, AppStatus } from '../../lib/wire/daemon.js';
import { DaemonError } from './errors.js';

// Starting an app is not idempotent: a second start of an app that did start
// is refused ("An app is already running"). So after an unknown outcome (5xx,
// reset, timeout) the next attempt first reads what runs and takes a start
// that landed as done. The real daemon answers a start of an app it does not
// know with a plain 500: when the installed list lacks the app, that is
// "not installed", a permanent error, whatever the status said.

export interface StartSteps {
  start(): Promise<AppStatus>;
  current(): Promise<AppStatus | null>;
  installed(): Promise<AppInfo[]>;
  /** The driver's retry policy around a repeatable piece of work. */
  retry<T>(work: () => Promise<T>): Promise<T>;
}

export function startResolved(steps: StartSteps, name: string): Promise<AppStatus> {
  let mayHaveStarted = false;
  return steps.retry(async () => {
    if (mayHaveStarted) {
      const now = await steps.current();
      if (now && now.info.name === name && (now.state === 'starting' || now.state === 'running')) return now;
      mayHaveStarted = false;
    }
    try {
      return await steps.start();
    } catch (err) {
      if (!(err instanceof DaemonError) || err.failure.kind !== 'unknown') throw err;
      if (err.status !== null && err.status >= 500 && !(await steps.installed()).some((a) => a.name === name)) {
        throw new DaemonError('app_not_found', `No app '${name}' is installed on the robot (it answered: ${err.detail})`, { status: err.status, detail: err.detail });
      }
      mayHaveStarted = true;
      throw err;
    }
  });
}
