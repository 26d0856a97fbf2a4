import type { WebhookDomain } from '../../lib/wire/hub.js';
import type { RepoType } from '../../lib/wire/hub.js';
import type { StoredComment, StoredDiscussion, StoredRepo } from './types.js';

// Events the hub raises and the version-3 payload built from them (spec §3, §6).

export type EventAction = 'create' | 'delete' | 'update' | 'move';

export interface UpdatedRef {
  ref: string;
  oldSha: string | null;
  newSha: string | null;
}

export interface HubEvent {
  id: string;
  scope: 'repo' | 'repo.content' | 'repo.config' | 'discussion' | 'discussion.comment';
  action: EventAction;
  /** Snapshot of the repo when the event happened (it may be gone since). */
  repo: { type: RepoType; repoId: string; objectId: string; private: boolean; headSha: string | null; subdomain: string | null };
  ownerId: string;
  updatedRefs?: UpdatedRef[];
  updatedConfig?: Record<string, unknown>;
  movedTo?: { name: string; ownerId: string };
  discussion?: StoredDiscussion;
  comment?: StoredComment;
  /** Resolves author names to ids for discussion/comment authors. */
  authorIds?: Record<string, string>;
}

export function eventDomain(scope: HubEvent['scope']): WebhookDomain {
  return scope.startsWith('repo') ? 'repo' : 'discussion';
}

export function repoSnapshot(repo: StoredRepo): HubEvent['repo'] {
  return {
    type: repo.type,
    repoId: repo.repoId,
    objectId: repo.objectId,
    private: repo.private,
    headSha: repo.headSha,
    subdomain: repo.type === 'space' ? repo.repoId.toLowerCase().replace(/[^a-z0-9]+/g, '-') : null,
  };
}

export function repoWebUrl(baseUrl: string, type: RepoType, repoId: string): string {
  return type === 'model' ? `${baseUrl}/${repoId}` : `${baseUrl}/${type}s/${repoId}`;
}

export function repoApiUrl(baseUrl: string, type: RepoType, repoId: string): string {
  return `${baseUrl}/api/${type}s/${repoId}`;
}

export function buildPayload(event: HubEvent, webhookId: string, baseUrl: string): Record<string, unknown> {
  const r = event.repo;
  const web = repoWebUrl(baseUrl, r.type, r.repoId);
  const api = repoApiUrl(baseUrl, r.type, r.repoId);
  const repo: Record<string, unknown> = {
    type: r.type, name: r.repoId, id: r.objectId, private: r.private,
    url: { web, api },
    owner: { id: event.ownerId },
  };
  if (r.subdomain) repo.subdomain = r.subdomain;
  // headSha is only sent for repo scopes (hub docs).
  if (event.scope.startsWith('repo') && r.headSha) repo.headSha = r.headSha;
  const payload: Record<string, unknown> = { event: { action: event.action, scope: event.scope }, repo };
  const ids = event.authorIds ?? {};
  if (event.discussion) payload.discussion = discussionView(event.discussion, web, api, ids);
  if (event.comment) payload.comment = commentView(event.comment, event.discussion, web, ids);
  payload.webhook = { id: webhookId, version: 3 };
  if (event.movedTo) payload.movedTo = { name: event.movedTo.name, owner: { id: event.movedTo.ownerId } };
  if (event.updatedRefs) payload.updatedRefs = event.updatedRefs;
  if (event.updatedConfig) payload.updatedConfig = event.updatedConfig;
  return payload;
}

function discussionView(d: StoredDiscussion, web: string, api: string, ids: Record<string, string>): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: d.id, title: d.title,
    url: { web: `${web}/discussions/${d.num}`, api: `${api}/discussions/${d.num}` },
    status: d.status, author: { id: ids[d.author] ?? d.author }, num: d.num, isPullRequest: d.isPullRequest,
  };
  if (d.isPullRequest) view.changes = { base: d.baseRef ?? 'refs/heads/main' };
  return view;
}

function commentView(c: StoredComment, d: StoredDiscussion | undefined, web: string, ids: Record<string, string>): Record<string, unknown> {
  const view: Record<string, unknown> = { id: c.id, author: { id: ids[c.author] ?? c.author }, hidden: c.hidden };
  // When hidden, content is undefined (hub docs).
  if (!c.hidden) view.content = c.content;
  view.url = { web: `${web}/discussions/${d ? d.num : 0}#${c.id}` };
  return view;
}
