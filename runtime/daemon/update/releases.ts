import { compareReleases, newestRelease, parseRelease } from '../../../lib/release-version.js';
import type { InstallSource } from '../../../lib/wire/daemon-update.js';

// The simulated daemon's releases: what its update API can install, in place
// of PyPI and the git tags of pollen-robotics/reachy_mini. The version a
// robot starts with (and the one it runs) is always one of them, a release
// it can go back to; the releases named crash-looping install, then never
// come back up (issue 31: "no healthy answer within update_timeout").

/** The reachy_mini version the simulated daemon and robotctl's SDK stand-in mirror (sdk/python: 1.10.0+robotctl.standin). */
export const SIM_SDK_VERSION = '1.10.0';

/** Releases a simulated daemon can update to unless told otherwise: ends with SIM_SDK_VERSION. */
export const DEFAULT_RELEASES: readonly string[] = ['1.8.3', '1.9.0', SIM_SDK_VERSION];

export interface ReleaseOptions {
  /** The version the daemon starts with (default: SIM_SDK_VERSION). */
  version?: string;
  /** What it can update to (default: DEFAULT_RELEASES). */
  releases?: readonly string[];
  /** Releases that install, then leave the daemon crash-looping. Added to `releases` when missing. */
  crashloop?: readonly string[];
}

const bare = (v: string): string => v.trim().replace(/^v(?=\d)/, '');

export class ReleaseList {
  readonly versions: readonly string[];
  private readonly crashing: ReadonlySet<string>;

  constructor(opts: ReleaseOptions & { current: string }) {
    // The version it started with and the one it runs are releases too: a robot can always go back to either.
    const all = [...(opts.releases ?? DEFAULT_RELEASES), ...(opts.crashloop ?? []), ...(opts.version ? [opts.version] : []), opts.current].map(bare);
    // Versions that do not parse were refused at the command line; here they would only sort first.
    const order = (v: string) => parseRelease(v) ?? { major: -1, minor: 0, patch: 0, pre: [] };
    this.versions = [...new Set(all)].sort((a, b) => compareReleases(order(a), order(b)));
    this.crashing = new Set((opts.crashloop ?? []).map(bare));
  }

  /** The release a git ref names (`1.10.0` or the tag `v1.10.0`), or null: the real daemon's pip fails on an unknown ref. */
  resolveRef(ref: string): string | null {
    const v = bare(ref);
    return this.versions.includes(v) ? v : null;
  }

  /** The newest release (pre-releases only when asked), as PyPI's latest. */
  latest(preRelease: boolean): string | null {
    return newestRelease(this.versions.filter((v) => preRelease || (parseRelease(v)?.pre.length ?? 1) === 0));
  }

  /** Whether `latest` is newer than `current` (update_available.py: pypi_version > local_version). */
  isNewer(candidate: string | null, current: string): boolean {
    const a = candidate === null ? null : parseRelease(candidate);
    const b = parseRelease(current);
    return a !== null && b !== null && compareReleases(a, b) > 0;
  }

  crashLoops(version: string): boolean {
    return this.crashing.has(bare(version));
  }
}

/** A list of versions from a flag (`1.9.0,1.10.0`): the first that is not a version, or the list. */
export function parseVersionList(text: string): { versions: string[] } | { bad: string } {
  const versions = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = versions.find((v) => parseRelease(v) === null);
  return bad !== undefined ? { bad } : { versions: versions.map(bare) };
}

/** The daemon's version as its update routes see it; a restart (supervisor.ts) builds the next daemon with the new one. */
export interface SimRelease {
  version: string;
  source: InstallSource;
  list: ReleaseList;
  /** The update's restart is under way: busy until the daemon is gone. */
  restarting: boolean;
}

export function simRelease(opts: ReleaseOptions, source?: InstallSource): SimRelease {
  const version = source?.version ?? opts.version ?? SIM_SDK_VERSION;
  return { version, source: source ?? { version, source: 'pypi' }, list: new ReleaseList({ ...opts, current: version }), restarting: false };
}
