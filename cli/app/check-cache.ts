import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../../lib/io.js';
import { packagePath } from '../../lib/paths.js';
import { sha256OfFileSync } from '../../lib/file-sha256.js';
import { listAppFiles } from './files.js';
import { info } from './report.js';

// `app publish` runs `app check`, which builds a temporary venv and installs
// the app (about a minute offline). A folder whose content already passed
// with this robotctl version passes again: the result is kept per content
// hash in the user's cache ($ROBOTCTL_CACHE_DIR, else $XDG_CACHE_HOME/robotctl,
// else ~/.cache/robotctl). Only passes are kept; a failure always re-runs.

function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.ROBOTCTL_CACHE_DIR) return env.ROBOTCTL_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'robotctl');
}

function robotctlVersion(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0';
}

/** sha256 over robotctl's version and every published file's path and content. */
export function appContentHash(root: string): string {
  const h = createHash('sha256').update(`robotctl ${robotctlVersion()}\0`);
  for (const path of listAppFiles(root)) {
    h.update(`${path}\0`).update(sha256OfFileSync(join(root, path))).update('\0');
  }
  return h.digest('hex');
}

/** The app's name from a check this content already passed, else `check()`'s, remembered on success. */
export async function cachedCheck(root: string, io: Io, check: () => Promise<{ name: string }>): Promise<string> {
  const file = join(cacheDir(io.env), 'app-check', `${appContentHash(root)}.json`);
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    if (typeof kept.name === 'string' && kept.name !== '') {
      info(io, `App check: this content passed before (cached in ${file}); not checking again.`);
      return kept.name;
    }
  } catch {
    // not checked yet, or an unreadable entry: check
  }
  const { name } = await check();
  try {
    mkdirSync(join(cacheDir(io.env), 'app-check'), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify({ name, checkedAt: new Date().toISOString() })}\n`, { mode: 0o600 });
  } catch {
    // a read-only cache only costs the next publish a check
  }
  return name;
}
