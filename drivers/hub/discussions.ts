import { HubError } from './errors.js';
import type { HttpResponse, HubHttp } from './http.js';
import type { DiscussionSummary, HubClient } from './types.js';
import type { RepoType } from '../../lib/wire/hub.js';
import { repoApiPath } from './repo-paths.js';

// Discussions in the wire form of huggingface_hub: get_repo_discussions
// (`GET /api/{type}s/{id}/discussions?type=&status=&author=&p=`),
// create_discussion (`POST …/discussions` {title, description, pullRequest})
// and comment_discussion (`POST …/discussions/{num}/comment` {comment}): the
// same calls on huggingface.co and the embedded hub.

type DiscussionCalls = Pick<HubClient, 'listDiscussions' | 'createDiscussion' | 'commentDiscussion'>;

const base = (type: RepoType, repoId: string) => `${repoApiPath(type, repoId)}/discussions`;
/** Pages read at most (50 a page): a Space with more discussions than that is searched no further. */
const MAX_PAGES = 10;

export function discussionCalls(http: HubHttp, json: (res: HttpResponse) => unknown): DiscussionCalls {
  return {
    async listDiscussions(type, repoId, filter = {}, signal) {
      const out: DiscussionSummary[] = [];
      for (let p = 0; p < MAX_PAGES; p++) {
        const q = new URLSearchParams({ p: String(p) });
        if (filter.type) q.set('type', filter.type);
        if (filter.status) q.set('status', filter.status);
        if (filter.author) q.set('author', filter.author);
        const page = json(await http.send({ method: 'GET', path: `${base(type, repoId)}?${q}`, idempotent: true, signal })) as
          { discussions?: unknown; count?: unknown } | null;
        const list = Array.isArray(page?.discussions) ? page.discussions as Record<string, unknown>[] : [];
        for (const d of list) out.push(summary(d));
        if (list.length === 0 || out.length >= Number(page?.count ?? 0)) break;
      }
      return out;
    },
    async createDiscussion(type, repoId, title, description, signal) {
      const res = json(await http.send({ method: 'POST', path: base(type, repoId), json: { title, description, pullRequest: false }, idempotent: false, signal })) as
        { num?: unknown } | null;
      if (typeof res?.num !== 'number') throw new HubError('Unexpected answer from the hub: a new discussion without num', { status: null, retriable: false });
      return { num: res.num };
    },
    async commentDiscussion(type, repoId, num, comment, signal) {
      await http.send({ method: 'POST', path: `${base(type, repoId)}/${num}/comment`, json: { comment }, idempotent: false, signal });
    },
  };
}

function summary(d: Record<string, unknown>): DiscussionSummary {
  const author = d.author as { name?: unknown } | null | undefined;
  return {
    num: Number(d.num),
    title: typeof d.title === 'string' ? d.title : '',
    status: typeof d.status === 'string' ? d.status : 'open',
    author: typeof author?.name === 'string' ? author.name : null,
    isPullRequest: d.isPullRequest === true,
  };
}
