import type { HubContext } from './context.js';
import { HubApiError } from './errors.js';
import { objectId } from './ids.js';
import { namespaceId } from './context.js';
import { repoEvent } from './repo-events.js';
import { diffRefs, refsChanged, repoKey } from './commits.js';
import { ZERO_SHA } from './git/git-repos.js';
import { runGit } from './git/run-git.js';
import type { HubUser, StoredChange, StoredComment, StoredDiscussion, StoredRepo } from './types.js';

// Discussions and pull requests as records, with their events. A pull request
// is a ref, refs/pr/<num>, started at the head of its base branch (main unless
// create_commit(create_pr=True) named another); merge moves the base.

/** The branch a pull request merges into. */
export function baseRefOf(d: StoredDiscussion): string {
  return d.baseRef ?? 'refs/heads/main';
}

export function emitDiscussion(
  ctx: HubContext, repo: StoredRepo, scope: 'discussion' | 'discussion.comment', action: 'create' | 'update', d: StoredDiscussion, c?: StoredComment,
): void {
  const authorIds: Record<string, string> = { [d.author]: namespaceId(ctx, d.author) };
  if (c) authorIds[c.author] = namespaceId(ctx, c.author);
  ctx.deliverer.emit(repoEvent(ctx, repo, scope, action, { discussion: d, ...(c ? { comment: c } : {}), authorIds }), repo.creator);
}

export function addChange(d: StoredDiscussion, user: HubUser, type: StoredChange['type'], data: Record<string, unknown>): StoredChange {
  const change: StoredChange = { id: objectId(), type, author: user.name, createdAt: new Date().toISOString(), data };
  (d.changes ??= []).push(change);
  return change;
}

export async function openDiscussion(
  ctx: HubContext, user: HubUser, repo: StoredRepo, o: { title: string; description: string; pullRequest: boolean; baseRef?: string },
): Promise<StoredDiscussion> {
  const now = new Date().toISOString();
  const first: StoredComment = { id: objectId(), author: user.name, content: o.description || '(no description)', hidden: false, createdAt: now };
  const num = repo.discussions.reduce((m, x) => Math.max(m, x.num), 0) + 1;
  const d: StoredDiscussion = {
    id: objectId(), num, title: o.title, author: user.name, isPullRequest: o.pullRequest,
    // The Hub opens a pull request as a draft until its first commit.
    status: o.pullRequest ? 'draft' : 'open', createdAt: now, comments: [first],
  };
  if (o.pullRequest) {
    const baseRef = o.baseRef ?? 'refs/heads/main';
    d.prRef = `refs/pr/${num}`;
    if (baseRef !== 'refs/heads/main') d.baseRef = baseRef;
    const base = (await ctx.git.refs(repo.type, repo.repoId)).get(baseRef);
    if (!base) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${baseRef.replace(/^refs\/heads\//, '')}`);
    // The ref exists from the start (commits and pushes go to it); it raises
    // no repo event until a commit lands on it, like the Hub's draft PRs.
    await ctx.git.lock.run(repoKey(repo), () => ctx.git.casRef(repo.type, repo.repoId, d.prRef ?? '', base, ZERO_SHA));
  }
  repo.discussions.push(d);
  await ctx.store.save();
  emitDiscussion(ctx, repo, 'discussion', 'create', d, first);
  return d;
}

/** For `create_commit(create_pr=True)`: a pull request whose ref the commit then goes to. */
export async function openPullRequest(
  ctx: HubContext, user: HubUser, repo: StoredRepo, o: { title: string; description: string; base: string },
): Promise<StoredDiscussion> {
  // Only a branch can be a base: a commit sha, a tag or a missing branch is a 404 RevisionNotFound (as on the Hub).
  if (!o.base.startsWith('refs/heads/')) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${o.base}: a pull request's base must be a branch`);
  const d = await openDiscussion(ctx, user, repo, { title: o.title, description: o.description, pullRequest: true, baseRef: o.base });
  d.status = 'open';
  return d;
}

/** Fast-forward the base branch to the pull request, or merge it with git (refused on conflicts). */
export async function mergePullRequest(ctx: HubContext, user: HubUser, repo: StoredRepo, d: StoredDiscussion): Promise<string> {
  const prRef = d.prRef;
  if (!d.isPullRequest || !prRef) throw new HubApiError('HUB_ERR_BAD_REQUEST', `#${d.num} is not a pull request`);
  if (d.status === 'merged' || d.status === 'closed') throw new HubApiError('HUB_ERR_BAD_REQUEST', `Pull request #${d.num} is ${d.status}`);
  const dir = ctx.git.dir(repo.type, repo.repoId);
  const baseRef = baseRefOf(d);
  const baseName = baseRef.replace(/^refs\/heads\//, '');
  const updated = await ctx.git.lock.run(repoKey(repo), async () => {
    const before = new Map(await ctx.git.refs(repo.type, repo.repoId));
    const base = before.get(baseRef);
    if (!base) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${baseName}: the base branch of #${d.num} is gone`);
    const head = before.get(prRef) ?? '';
    const ff = (await runGit({ cwd: dir, args: ['merge-base', '--is-ancestor', base, head], okCodes: [1] })).code === 0;
    const next = ff ? head : await mergeCommit(dir, base, head, `Merge pull request #${d.num}: ${d.title}`, user.name, baseName);
    if (!await ctx.git.casRef(repo.type, repo.repoId, baseRef, next, base)) throw new HubApiError('HUB_ERR_STALE_PARENT', `${baseName} moved during the merge: try again`);
    return diffRefs(before, await ctx.git.refs(repo.type, repo.repoId));
  });
  d.status = 'merged';
  d.mergeCommitId = updated[0]?.newSha ?? null;
  addChange(d, user, 'status-change', { status: 'merged' });
  await refsChanged(ctx, repo, updated);
  emitDiscussion(ctx, repo, 'discussion', 'update', d);
  return d.mergeCommitId ?? '';
}

async function mergeCommit(dir: string, main: string, head: string, message: string, author: string, baseName: string): Promise<string> {
  const merged = await runGit({ cwd: dir, args: ['merge-tree', '--write-tree', '--no-messages', main, head], okCodes: [1] });
  if (merged.code !== 0) throw new HubApiError('HUB_ERR_CONFLICT', `This pull request has conflicts with ${baseName}: update it first`);
  const tree = merged.stdout.toString('utf8').split('\n')[0] ?? '';
  const email = `${author}@users.noreply.robotctl.local`;
  const env = { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: author, GIT_COMMITTER_EMAIL: email };
  const c = await runGit({ cwd: dir, args: ['commit-tree', tree, '-p', main, '-p', head, '-m', message], env });
  return c.stdout.toString('utf8').trim();
}

/** A commit landed on a pull request's ref: it leaves draft and shows in its timeline. */
export async function notePullRequestCommits(ctx: HubContext, user: HubUser, repo: StoredRepo, refs: { ref: string; newSha: string | null }[]): Promise<void> {
  for (const r of refs) {
    const d = repo.discussions.find((x) => x.prRef === r.ref);
    if (!d || !r.newSha) continue;
    const log = await ctx.git.log(repo.type, repo.repoId, r.newSha, 1);
    addChange(d, user, 'commit', { subject: log[0]?.title ?? '', oid: r.newSha });
    if (d.status === 'draft') d.status = 'open';
    await ctx.store.save();
    emitDiscussion(ctx, repo, 'discussion', 'update', d);
  }
}
