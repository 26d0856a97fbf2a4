import type { RepoInfo } from '../drivers/hub/types.js';

// Pollen's dashboard installs an app with the Space's info from the hub as
// its AppInfo's `extra`, and the daemon keeps it as the app's metadata: its
// id (which its update and its dashboard match apps by), `private` (a
// private Space is downloaded with the robot's stored token only when it is
// set), the card data its dashboard shows (title, emoji, short description).
// robotctl sends the same (issue 30.4; spec §9 Metadata), without the file
// list, which only matters for a name the daemon cannot otherwise match.

const KEYS = ['id', 'author', 'sha', 'lastModified', 'createdAt', 'private', 'disabled', 'gated', 'sdk', 'tags', 'likes', 'cardData'] as const;

export function installExtra(info: RepoInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) if (info[key] !== undefined) out[key] = info[key];
  out.id ??= info.id;
  return out;
}

/** The dashboard's description of the app: the card's short description. */
export function installDescription(extra: Record<string, unknown> | undefined): string {
  const card = extra?.cardData;
  const text = typeof card === 'object' && card !== null ? (card as Record<string, unknown>).short_description : undefined;
  return typeof text === 'string' ? text : '';
}
