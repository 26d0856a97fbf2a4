import type { Action } from './types.js';
import type { RevisionChange } from '../state/rollouts.js';
import { shortSha } from './plan-held.js';

// The revisions an action moves an app between, as plan, diff, apply and the
// agent's log print them next to the app: `58cf875 → 3a0575e` for an update,
// `3a0575e` for an install, nothing for a local folder or another verb;
// `local files → 3a0575e` for a move from a folder, as `rollout history` says.

/** The daemon's own revision of an install from a folder (`local-<hash>`): no commit of any Space. */
const LOCAL_REVISION = /^local-/;

/** An install from a local folder: its `path:`, or (the record lost it) the daemon's `local-<hash>`. */
export function fromLocalFiles(path: string | null | undefined, sha: string | null): boolean {
  return (path !== null && path !== undefined) || (sha !== null && LOCAL_REVISION.test(sha));
}

export function revisionText(a: Action): string {
  if (a.type === 'install') return a.record.sha === null ? '' : shortSha(a.record.sha);
  // A local folder has no revision to name (the daemon's `local-<hash>` is its own).
  if (a.type !== 'update_app' || fromLocalFiles(a.record.path, a.record.sha) || a.record.sha === null) return '';
  const to = shortSha(a.record.sha);
  const from = fromLocalFiles(a.previous.path, a.previous.sha) ? 'local files' : a.previous.sha === null ? '?' : shortSha(a.previous.sha);
  return from === to ? to : `${from} → ${to}`;
}

/** `hello_app 58cf875 → 3a0575e`, or the app alone when no revision is known. */
export function appWithRevisions(a: Action & { app: string }): string {
  const rev = revisionText(a);
  return rev === '' ? a.app : `${a.app} ${rev}`;
}

/**
 * A rollout's change of one app on one robot, as `rollout history` and the
 * discussion comment print it: `new` for no app before, `local files` for a
 * `path:` folder (as the plan says it), `?` for a revision nobody reported.
 */
export function changeEnds(c: Pick<RevisionChange, 'from' | 'to' | 'fromPath' | 'toPath'>): { from: string; to: string } {
  const from = fromLocalFiles(c.fromPath, c.from) ? 'local files' : c.from === null ? 'new' : shortSha(c.from);
  const to = fromLocalFiles(c.toPath, c.to) ? 'local files' : c.to === null ? '?' : shortSha(c.to);
  return { from, to };
}

/** The same change in the snake_case of the JSON outputs (history --json, notify's POST). */
export interface RevisionChangeJson {
  robot: string;
  app: string;
  from: string | null;
  to: string | null;
  from_path?: string;
  to_path?: string;
}

export function changeJson(c: RevisionChange): RevisionChangeJson {
  return {
    robot: c.robot, app: c.app, from: c.from, to: c.to,
    ...(c.fromPath !== undefined ? { from_path: c.fromPath } : {}), ...(c.toPath !== undefined ? { to_path: c.toPath } : {}),
  };
}
