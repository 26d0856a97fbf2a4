import type { AppSpec } from '../schema/types.js';
import type { AppInfo } from '../lib/wire/daemon.js';
import type { Observation, UpdateAppAction } from './types.js';
import { installDescription } from './install-extra.js';
import type { AppRecord } from '../state/types.js';
import { shortSha as short } from './plan-held.js';
import { fromLocalFiles } from './revisions.js';

// Is an installed app the one robot.yaml asks for? The daemon's AppInfo
// says where it came from (url / extra.path) and sometimes its revision
// (extra.installed_sha from robotctl's daemon, extra.sha from others); when it
// does not (the real daemon's list carries neither), the state's record of
// our install decides. With no record either (the state was lost), an app
// installed under the same name is adopted: only its revision is compared
// with the Space's, so it is updated in place, never removed and reinstalled.

/**
 * The install request: named by the entry point the daemon will list it
 * under (issue 30.3), with the Space's info as `extra` as Pollen's dashboard
 * sends it (issue 30.4; install-extra.ts).
 */
export function appInfoFor(spec: AppSpec, name: string = spec.name, spaces: Observation['spaces'] = {}): AppInfo {
  if (spec.path !== null) {
    return { name, source_kind: 'local', description: '', url: null, extra: { path: spec.path } };
  }
  const extra = (spec.spaceId !== null ? spaces[spec.spaceId]?.extra : undefined) ?? (spec.spaceId !== null ? { id: spec.spaceId } : {});
  return { name, source_kind: 'hf_space', description: installDescription(extra), url: spec.source, extra: { ...extra } };
}

/** What the state records once this app is installed at the Space's latest revision, under its daemon name. */
export function recordFor(spec: AppSpec, spaces: Observation['spaces'], name: string = spec.name): AppRecord {
  const sha = spec.spaceId !== null ? spaces[spec.spaceId]?.sha ?? null : null;
  return { source: spec.source, path: spec.path, sha, ...(name !== spec.name ? { entryPoint: name } : {}) };
}

/** What the daemon tells about an installed app, completed by our own record. */
export function installedRecord(info: AppInfo, owned: AppRecord | undefined): AppRecord {
  const path = typeof info.extra.path === 'string' ? info.extra.path : null;
  const source = info.url ?? null;
  const reported = info.extra.installed_sha ?? info.extra.sha;
  const sha = typeof reported === 'string' ? reported : null;
  if (source === null && path === null && owned) return { ...owned, sha: sha ?? owned.sha };
  const ownedMatches = owned !== undefined && sameUrl(owned.source, source) && owned.path === path;
  return { source, path, sha: sha ?? (ownedMatches ? owned.sha : null) };
}

export function appChange(
  spec: AppSpec,
  info: AppInfo,
  owned: AppRecord | undefined,
  target: AppRecord,
): Pick<UpdateAppAction, 'cause' | 'previous' | 'reason'> | null {
  const previous = installedRecord(info, owned);
  const unknownOrigin = previous.source === null && previous.path === null && owned === undefined;
  if (unknownOrigin && spec.source !== null) {
    if (target.sha === null || previous.sha === target.sha) return null;
    const from = previous.sha === null ? 'its revision is unknown' : fromLocalFiles(previous.path, previous.sha) ? 'from local files' : `at ${short(previous.sha)}`;
    return { cause: 'revision', previous, reason: `installed under this name and adopted (${from}); Space ${spec.spaceId ?? '?'} is at ${short(target.sha)}` };
  }
  if (!sameUrl(previous.source, spec.source) || previous.path !== spec.path) {
    const from = previous.source ?? previous.path ?? 'an unknown source';
    return { cause: 'source', previous, reason: `installed from ${from}, robot.yaml wants ${spec.source ?? spec.path ?? '?'}` };
  }
  if (target.sha !== null && previous.sha !== target.sha) {
    const from = previous.sha === null ? 'an unknown revision' : short(previous.sha);
    return { cause: 'revision', previous, reason: `Space ${spec.spaceId ?? '?'} moved on: ${from} → ${short(target.sha)}` };
  }
  return null;
}

function sameUrl(a: string | null, b: string | null): boolean {
  const norm = (u: string | null): string | null => (u === null ? null : u.replace(/\/+$/, ''));
  return norm(a) === norm(b);
}
