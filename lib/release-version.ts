// Reachy Mini daemon versions, read and ordered as the real daemon orders
// them (reachy_mini/utils/wireless_version/update_available.py): semver, with
// PEP 440 pre-release and dev markers (`1.10.0rc1`, `1.10.0.dev0`) read as a
// semver pre-release (`1.10.0-rc.1`, `1.10.0-dev.0`), so both sort before
// 1.10.0. A leading `v` (the git tags of pollen-robotics/reachy_mini) and a
// local or build label (`+robotctl.standin`) are accepted and ignored in the
// order. The simulated daemon's update API and robotctl's planning of daemon
// versions both read versions here, so they never disagree.

export interface Release {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers (empty for a release): `rc.1` → ['rc', 1]. */
  pre: (string | number)[];
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const PEP440 = /^(\d+)\.(\d+)\.(\d+)\.?(a|b|c|rc|alpha|beta|dev)\.?(\d+)(?:\+[0-9A-Za-z.]+)?$/;

const identifier = (s: string): string | number => (/^\d+$/.test(s) ? Number(s) : s);

/** The version a string names, or null when it is not one (`main`, `1.10`, `latest`). */
export function parseRelease(version: string): Release | null {
  const v = version.trim().replace(/^v(?=\d)/, '');
  const s = SEMVER.exec(v);
  if (s) return { major: Number(s[1]), minor: Number(s[2]), patch: Number(s[3]), pre: s[4] ? s[4].split('.').map(identifier) : [] };
  const p = PEP440.exec(v);
  if (p) return { major: Number(p[1]), minor: Number(p[2]), patch: Number(p[3]), pre: [p[4] as string, Number(p[5])] };
  return null;
}

function comparePre(a: (string | number)[], b: (string | number)[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // a release sorts after its pre-releases
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1; // numeric identifiers sort before alphanumeric ones (semver §11)
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Semver precedence: negative when a is older than b. Both must parse (see parseRelease). */
export function compareReleases(a: Release, b: Release): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.pre, b.pre);
}

/** `1.10.0` for `1.10.0.dev0`, `v1.10.0` or `1.10.0-robotctl-sim`; null when it is not a version. */
export function releaseNumber(version: string): string | null {
  const r = parseRelease(version);
  return r ? `${r.major}.${r.minor}.${r.patch}` : null;
}

/** Whether two versions name the same release number (a dev or pre-release build counts as its release). */
export function sameRelease(a: string, b: string): boolean {
  const x = releaseNumber(a);
  return x !== null && x === releaseNumber(b);
}

/** The newest of some versions (those that do not parse are skipped), or null. */
export function newestRelease(versions: readonly string[]): string | null {
  let best: { v: string; r: Release } | null = null;
  for (const v of versions) {
    const r = parseRelease(v);
    if (r && (!best || compareReleases(r, best.r) > 0)) best = { v, r };
  }
  return best?.v ?? null;
}
