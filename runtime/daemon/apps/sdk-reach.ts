import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// robotctl's stand-in SDK reads ROBOT_DAEMON_URL, so an app reaches the
// robot that started it. The real reachy-mini package always dials
// 127.0.0.1:8000: on a robot listening elsewhere (several simulated robots
// on one machine) its app would drive another robot, or fail to connect.
// That is said in the app's log when it starts, never left silent.

/** Why an app started by the daemon at `daemonUrl` cannot reach it, or null. */
export function sdkReachProblem(sitePackages: string | null, daemonUrl: string | undefined): string | null {
  if (!sitePackages || !daemonUrl) return null;
  let port: string;
  try {
    const url = new URL(daemonUrl);
    port = url.port || (url.protocol === 'https:' ? '443' : '80');
  } catch {
    return null;
  }
  if (port === '8000') return null;
  const sdk = join(sitePackages, 'reachy_mini', 'reachy_mini.py');
  // No SDK in the venv: the app does not use it (or brings its own way in).
  if (!existsSync(sdk)) return null;
  if (readFileSync(sdk, 'utf8').includes('ROBOT_DAEMON_URL')) return null;
  return `the installed reachy-mini package is the real one, which connects to the daemon at 127.0.0.1:8000, ` +
    `not to this robot (${daemonUrl}): on one machine only the robot on port 8000 can run apps with it ` +
    `(the offline stand-in in sdk/python follows ROBOT_DAEMON_URL; see README, "Several simulated robots")`;
}
