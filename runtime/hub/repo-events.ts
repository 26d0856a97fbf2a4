import { namespaceId, type HubContext } from './context.js';
import { objectId } from './ids.js';
import { repoSnapshot, type HubEvent } from './events.js';
import type { StoredRepo } from './types.js';

export function namespaceOf(repoId: string): string {
  return repoId.split('/')[0] ?? '';
}

/** An event about `repo` as it is now, owned by its namespace. */
export function repoEvent(ctx: HubContext, repo: StoredRepo, scope: HubEvent['scope'], action: HubEvent['action'], extra: Partial<HubEvent> = {}): HubEvent {
  return { id: objectId(), scope, action, repo: repoSnapshot(repo), ownerId: namespaceId(ctx, namespaceOf(repo.repoId)), ...extra };
}
