import { parseRelease } from '../lib/release-version.js';
import { durationMs } from '../lib/duration.js';
import { record, type Data } from './rules-util.js';
import type { Finding } from './yaml-doc.js';

// The daemon block's rules: a version is a release robotctl can compare
// (the daemon's own order, lib/release-version.ts) or `latest`, and the
// update timeout leaves the daemon some time.

/** Why a `daemon.version` value is wrong, if it is (undefined when absent or fine). */
export function daemonVersionProblem(v: unknown): string | undefined {
  if (v === undefined || v === 'latest') return undefined;
  // YAML reads `1.10` as the number 1.1: say so rather than "must be string".
  if (typeof v === 'number') return `YAML read ${String(v)} as a number: write the release in quotes, e.g. "1.10.0"`;
  if (typeof v !== 'string') return 'must be a release such as "1.10.0", or latest';
  if (parseRelease(v) === null) return `'${v}' is not a release: write it as the daemon's releases are numbered (e.g. 1.10.0, 1.10.0rc1), or latest`;
  return undefined;
}

export function daemonFindings(root: Data): Finding[] {
  const daemon = record(root.daemon);
  if (!daemon) return [];
  const found: Finding[] = [];
  const version = daemonVersionProblem(daemon.version);
  if (version) found.push({ path: ['daemon', 'version'], message: version });
  const timeout = durationMs(daemon.update_timeout);
  if (timeout === 0) found.push({ path: ['daemon', 'update_timeout'], message: 'must be longer than 0: an update needs time to restart the daemon' });
  return found;
}
