import type { HubContext } from './context.js';
import { badRequest, HubApiError, STALE_PARENT_MESSAGE } from './errors.js';
import { repoEvent } from './repo-events.js';
import { ZERO_SHA } from './git/git-repos.js';
import type { HubCommitOp } from './git/fast-import.js';
import type { UpdatedRef } from './events.js';
import type { HubUser, StoredRepo } from './types.js';

export type { HubCommitOp } from './git/fast-import.js';

// Commits into a repo's bare git repo, and the `repo.content` events every ref
// change raises — from the API or from a git push alike.

export interface CommitRequest {
  ops: HubCommitOp[];
  summary: string;
  description: string;
  /** Full ref name: refs/heads/main, refs/pr/3… */
  ref: string;
  /** The commit the client based its change on (huggingface_hub's parent_commit). */
  parentCommit: string | null;
}

/** A path inside a repo: relative, no `.`/`..`/empty segment, no `.git`, no control character. */
export function checkPath(path: string, field = 'path'): void {
  const parts = path.split('/');
  const bad = path === '' || path.startsWith('/') || /[\0-\x1f\\]/.test(path)
    || parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git');
  if (bad) throw badRequest(`Invalid ${field} '${path}': use a relative path inside the repo (no '..', '.', '.git', empty segment, backslash or absolute path)`);
}

export function repoKey(repo: StoredRepo): string {
  return `${repo.type}/${repo.repoId}`;
}

function message(summary: string, description: string): string {
  return description.trim() ? `${summary}\n\n${description}` : summary;
}

export async function writeFirstCommit(ctx: HubContext, user: HubUser, repo: StoredRepo, files: Record<string, Buffer>): Promise<void> {
  await ctx.git.lock.run(repoKey(repo), async () => {
    await ctx.git.init(repo.type, repo.repoId);
    const ops: HubCommitOp[] = Object.entries(files).map(([path, content]) => ({ op: 'add', path, content }));
    const oid = await ctx.git.writeCommit(repo.type, repo.repoId, { parent: null, ops, message: 'initial commit', author: user.name, time: nowSeconds() });
    if (!await ctx.git.casRef(repo.type, repo.repoId, 'refs/heads/main', oid, ZERO_SHA)) throw new Error(`could not initialise ${repo.repoId}`);
    repo.headSha = oid;
  });
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Commit on top of `req.ref`; 412 when it moved past `parentCommit` or during the write. */
export async function commitFiles(ctx: HubContext, user: HubUser, repo: StoredRepo, req: CommitRequest): Promise<{ oid: string; oldSha: string }> {
  for (const op of req.ops) checkPath(op.path);
  const result = await ctx.git.lock.run(repoKey(repo), async () => {
    const head = (await ctx.git.refs(repo.type, repo.repoId)).get(req.ref);
    if (!head) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${req.ref.replace(/^refs\/heads\//, '')}`);
    if (req.parentCommit && req.parentCommit !== head) throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
    await checkDeletes(ctx, repo, head, req.ops);
    const oid = await ctx.git.writeCommit(repo.type, repo.repoId, {
      parent: head, ops: req.ops, message: message(req.summary, req.description), author: user.name, time: nowSeconds(),
    });
    if (!await ctx.git.casRef(repo.type, repo.repoId, req.ref, oid, head)) throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
    return { oid, oldSha: head };
  });
  await refsChanged(ctx, repo, [{ ref: req.ref, oldSha: result.oldSha, newSha: result.oid }]);
  return result;
}

async function checkDeletes(ctx: HubContext, repo: StoredRepo, head: string, ops: HubCommitOp[]): Promise<void> {
  if (!ops.some((o) => o.op === 'delete')) return;
  const files = new Set((await ctx.git.tree(repo.type, repo.repoId, head)).filter((e) => e.type === 'file').map((e) => e.path));
  for (const op of ops) {
    if (op.op === 'add') files.add(op.path);
    else if (op.op === 'delete' && !files.delete(op.path)) throw badRequest(`File to delete does not exist: ${op.path}`);
  }
}

/** Record the new head, persist, and raise `repo.content` with the refs that moved. */
export async function refsChanged(ctx: HubContext, repo: StoredRepo, updatedRefs: UpdatedRef[]): Promise<void> {
  if (updatedRefs.length === 0) return;
  const main = updatedRefs.find((r) => r.ref === 'refs/heads/main');
  if (main) {
    repo.headSha = main.newSha;
    repo.lastModified = new Date().toISOString();
  }
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo.content', 'update', { updatedRefs }), repo.creator);
}

/** The refs that differ between two snapshots, as the Hub reports them (null for created/deleted). */
export function diffRefs(before: Map<string, string>, after: Map<string, string>): UpdatedRef[] {
  const out: UpdatedRef[] = [];
  for (const [ref, sha] of after) if (before.get(ref) !== sha) out.push({ ref, oldSha: before.get(ref) ?? null, newSha: sha });
  for (const [ref, sha] of before) if (!after.has(ref)) out.push({ ref, oldSha: sha, newSha: null });
  return out;
}
