import type { Action } from './types.js';
import { shortSha } from './plan-held.js';

// The revisions an action moves an app between, as plan, diff, apply and the
// agent's log print them next to the app: `58cf875 → 3a0575e` for an update,
// `3a0575e` for an install, nothing for a local folder or another verb.

export function revisionText(a: Action): string {
  if (a.type === 'install') return a.record.sha === null ? '' : shortSha(a.record.sha);
  // A local folder has no revision to name (the daemon's `local-<hash>` is its own).
  if (a.type !== 'update_app' || a.record.path !== null || a.record.sha === null) return '';
  const to = shortSha(a.record.sha);
  const from = a.previous.sha === null ? (a.previous.path !== null ? 'local files' : '?') : shortSha(a.previous.sha);
  return from === to ? to : `${from} → ${to}`;
}

/** `hello_app 58cf875 → 3a0575e`, or the app alone when no revision is known. */
export function appWithRevisions(a: Action & { app: string }): string {
  const rev = revisionText(a);
  return rev === '' ? a.app : `${a.app} ${rev}`;
}
