import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../paths.js';
import { normName } from './names.js';

// The app SDK robotctl ships in sdk/python: the offline stand-in for the real
// `reachy_mini` (distribution reachy-mini), installed where the real package
// cannot be (no package index), by the daemon (runtime/daemon/apps/install-deps.ts)
// and by `app check` (check-venv.ts).

export function sdkDir(): string {
  return packagePath('sdk', 'python');
}

/** sdk/python is the stand-in when its distribution is named reachy-mini, like the real SDK. */
export function sdkIsStandIn(): boolean {
  const file = join(sdkDir(), 'pyproject.toml');
  if (!existsSync(file)) return false;
  const name = /^\s*name\s*=\s*["']([^"']+)["']/m.exec(readFileSync(file, 'utf8'))?.[1];
  return name !== undefined && normName(name) === 'reachy_mini';
}
