import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../../lib/atomic-write.js';
import type { InstallSource } from '../../../lib/wire/daemon-update.js';
import { parseRelease } from '../../../lib/release-version.js';

// The simulated daemon's installed version, kept in --apps-dir like a real
// robot keeps its venv: an update outlives the restart it ends with and a
// restart of the robotctl process (a robot stays on what it was updated to,
// a crash-looping one keeps crash-looping). `--daemon-version` overrides it,
// as reflashing a robot would.

const FILE = 'daemon-version.json';

export async function readInstalled(appsDir: string): Promise<InstallSource | null> {
  try {
    const v = JSON.parse(await readFile(join(appsDir, FILE), 'utf8')) as Partial<InstallSource>;
    if (typeof v.version !== 'string' || parseRelease(v.version) === null) return null;
    if (v.source !== 'pypi' && v.source !== 'git') return null;
    return {
      version: v.version, source: v.source,
      ...(typeof v.git_ref === 'string' ? { git_ref: v.git_ref } : {}),
      ...(typeof v.commit === 'string' ? { commit: v.commit } : {}),
    };
  } catch {
    return null; // none yet, or unreadable: the daemon starts on its default version
  }
}

export async function writeInstalled(appsDir: string, installed: InstallSource): Promise<void> {
  await mkdir(appsDir, { recursive: true });
  await atomicWrite(join(appsDir, FILE), `${JSON.stringify(installed)}\n`);
}
