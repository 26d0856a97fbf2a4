import { UsageError } from '../../../lib/errors.js';
import { parseRelease } from '../../../lib/release-version.js';
import type { DaemonOptions } from '../../../runtime/daemon/context.js';

// The simulated daemon's version flags, checked before any robot starts:
// --daemon-version V (the version it starts with), --releases LIST (what its
// update API can install), --crashloop-releases LIST (what installs, then
// never comes back: for tests of a failed update), --hardware-id ID|none.

/** What startDaemon takes as `release` (its options, runtime/daemon/context.ts: not the daemon's internals). */
type ReleaseOptions = NonNullable<DaemonOptions['release']>;

export interface ReleaseFlags {
  daemonVersion?: string;
  releases?: string;
  crashloopReleases?: string;
  hardwareId?: string;
}

function versionList(text: string, flag: string): string[] {
  const list = text.split(',').map((v) => v.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`${flag}: expected versions separated by commas, e.g. 1.9.0,1.10.0`);
  const bad = list.find((v) => parseRelease(v) === null);
  if (bad !== undefined) throw new UsageError(`${flag}: '${bad}' is not a version (e.g. 1.10.0, v1.10.0 or 1.10.0rc1)`);
  return list.map((v) => v.replace(/^v(?=\d)/, ''));
}

export function releaseFlags(f: ReleaseFlags, robots: number): { release: ReleaseOptions; hardwareId?: string | null } {
  const release: ReleaseOptions = {};
  if (f.daemonVersion !== undefined) {
    if (parseRelease(f.daemonVersion) === null) throw new UsageError(`--daemon-version: '${f.daemonVersion}' is not a version (e.g. 1.9.0)`);
    release.version = f.daemonVersion.trim().replace(/^v(?=\d)/, '');
  }
  if (f.releases !== undefined) release.releases = versionList(f.releases, '--releases');
  if (f.crashloopReleases !== undefined) release.crashloop = versionList(f.crashloopReleases, '--crashloop-releases');
  if (f.hardwareId === undefined) return { release };
  if (robots > 1) throw new UsageError('--hardware-id names one robot: with --robots N each robot derives its own');
  if (f.hardwareId === 'none') return { release, hardwareId: null };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(f.hardwareId)) throw new UsageError(`--hardware-id: expected letters, digits, _ and - (at most 64), or none; got '${f.hardwareId}'`);
  return { release, hardwareId: f.hardwareId };
}
