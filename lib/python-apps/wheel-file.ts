import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// Offline, pip builds apps only with the `wheel` package, which a new venv
// lacks and no index can provide: it is installed from a local .whl, Debian's
// python3-wheel-whl (MACHINE.md). ROBOTCTL_WHEELS_DIR names another folder of
// such files (another distribution's, or none at all to check the failure).

const DEBIAN_WHEELS = '/usr/share/python-wheels';

export function wheelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ROBOTCTL_WHEELS_DIR || DEBIAN_WHEELS;
}

/** The wheel package's .whl file; null when absent. */
export function findWheelFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = wheelsDir(env);
  const names = existsSync(dir) ? readdirSync(dir) : [];
  const w = names.filter((n) => /^wheel-.*\.whl$/.test(n)).sort().pop();
  return w ? join(dir, w) : null;
}

/** Debian's fix for a machine whose offline pip cannot build apps. */
export const WHEEL_FIX = 'apt-get install python3-wheel-whl';

export function wheelMissing(env: NodeJS.ProcessEnv = process.env): string {
  return `the Python 'wheel' package is missing (no ${wheelsDir(env)}/wheel-*.whl), so offline installs cannot build apps. Fix: ${WHEEL_FIX}`;
}
