import type { RepoType } from '../../lib/wire/hub.js';
import { namespaceId, type HubContext } from './context.js';
import { badRequest, HubApiError } from './errors.js';
import { objectId, sha1 } from './ids.js';
import { repoSnapshot, type HubEvent } from './events.js';
import type { HubUser, StoredCommit, StoredRepo } from './types.js';

// Repositories as data: lookup with visibility rules, create, delete, commit,
// and the events each of them raises.

export const REPO_TYPES: readonly RepoType[] = ['model', 'dataset', 'space'];
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

export type HubCommitOp =
  | { op: 'add'; path: string; content: Buffer }
  | { op: 'delete'; path: string }
  | { op: 'deleteFolder'; path: string };

export function parseRepoType(value: unknown): RepoType {
  if (value === undefined || value === null) return 'model';
  if (typeof value === 'string' && (REPO_TYPES as readonly string[]).includes(value)) return value as RepoType;
  throw badRequest(`Invalid repo type ${JSON.stringify(value)}: use model, dataset or space`);
}

export function checkRepoId(repoId: string): void {
  const [owner, name, extra] = repoId.split('/');
  if (!owner || !name || extra !== undefined || !NAME_RE.test(owner) || !NAME_RE.test(name)) {
    throw badRequest(`Invalid repo id '${repoId}': expected owner/name with letters, digits, '.', '_' and '-'`);
  }
}

export function namespaceOf(repoId: string): string {
  return repoId.split('/')[0] ?? '';
}

function notFound(repoId: string): HubApiError {
  return new HubApiError('HUB_ERR_REPO_NOT_FOUND', `Repository not found: ${repoId}`);
}

export function findRepo(ctx: HubContext, type: RepoType, repoId: string): StoredRepo | undefined {
  return ctx.store.data.repos.find((r) => r.type === type && r.repoId === repoId);
}

export function canWrite(user: HubUser, repo: { repoId: string; creator: string }): boolean {
  return namespaceOf(repo.repoId) === user.name || repo.creator === user.name;
}

/** Private repos look missing to everyone but their owner (like the real hub). */
export function readableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser | null): StoredRepo {
  const repo = findRepo(ctx, type, repoId);
  if (!repo || (repo.private && !(user && canWrite(user, repo)))) throw notFound(repoId);
  return repo;
}

export function writableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser): StoredRepo {
  const repo = readableRepo(ctx, type, repoId, user);
  if (!canWrite(user, repo)) throw new HubApiError('HUB_ERR_FORBIDDEN', `You don't have the rights to write to ${repoId}`);
  return repo;
}

export function headCommit(repo: StoredRepo): StoredCommit {
  const head = repo.commits[repo.commits.length - 1];
  if (!head) throw new Error(`repo ${repo.repoId} has no commit`);
  return head;
}

export function resolveRevision(repo: StoredRepo, rev: string): StoredCommit {
  if (rev === 'main' || rev === 'refs/heads/main' || rev === 'HEAD') return headCommit(repo);
  const hit = rev.length >= 7 ? repo.commits.find((c) => c.oid.startsWith(rev)) : undefined;
  if (!hit) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${rev}`);
  return hit;
}

export function repoEvent(ctx: HubContext, repo: StoredRepo, scope: HubEvent['scope'], action: HubEvent['action'], extra: Partial<HubEvent> = {}): HubEvent {
  return { id: objectId(), scope, action, repo: repoSnapshot(repo), ownerId: namespaceId(ctx, namespaceOf(repo.repoId)), ...extra };
}

export async function createRepo(
  ctx: HubContext, user: HubUser, type: RepoType, repoId: string, opts: { private: boolean; sdk: string | null },
): Promise<StoredRepo> {
  checkRepoId(repoId);
  const ns = namespaceOf(repoId);
  if (ns !== user.name && ctx.users.some((u) => u.name === ns)) {
    throw new HubApiError('HUB_ERR_FORBIDDEN', `You cannot create a repo in the namespace of user '${ns}'`);
  }
  if (findRepo(ctx, type, repoId)) throw new HubApiError('HUB_ERR_REPO_EXISTS', `You already created this ${type} repo: ${repoId}`);
  const now = new Date().toISOString();
  const repo: StoredRepo = {
    objectId: objectId(), type, repoId, creator: user.name, private: opts.private,
    sdk: type === 'space' ? (opts.sdk ?? 'gradio') : null, createdAt: now, lastModified: now, commits: [], discussions: [],
  };
  const files: HubCommitOp[] = [{ op: 'add', path: '.gitattributes', content: Buffer.from('*.bin filter=lfs diff=lfs merge=lfs -text\n') }];
  if (type === 'space') files.push({ op: 'add', path: 'README.md', content: Buffer.from(spaceReadme(repoId, repo.sdk ?? 'gradio')) });
  await addCommit(ctx, user, repo, files, 'initial commit', '');
  ctx.store.data.repos.push(repo);
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo', 'create'), repo.creator);
  return repo;
}

function spaceReadme(repoId: string, sdk: string): string {
  const title = repoId.split('/')[1] ?? repoId;
  return `---\ntitle: ${title}\nemoji: 🤖\ncolorFrom: blue\ncolorTo: green\nsdk: ${sdk}\npinned: false\n---\n`;
}

export async function deleteRepo(ctx: HubContext, user: HubUser, type: RepoType, repoId: string): Promise<void> {
  const repo = writableRepo(ctx, type, repoId, user);
  ctx.store.data.repos = ctx.store.data.repos.filter((r) => r !== repo);
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo', 'delete'), repo.creator);
}

/** Apply operations on top of the head and append the new commit (no save, no event). */
export async function addCommit(
  ctx: HubContext, user: HubUser, repo: StoredRepo, ops: HubCommitOp[], summary: string, description: string,
): Promise<StoredCommit> {
  const parent = repo.commits[repo.commits.length - 1] ?? null;
  const tree: Record<string, string> = { ...(parent?.tree ?? {}) };
  for (const op of ops) {
    checkPath(op.path);
    if (op.op === 'add') tree[op.path] = await ctx.store.putBlob(op.content);
    else if (op.op === 'delete') {
      if (!(op.path in tree)) throw badRequest(`File to delete does not exist: ${op.path}`);
      delete tree[op.path];
    } else {
      const prefix = op.path.replace(/\/+$/, '') + '/';
      for (const p of Object.keys(tree)) if (p.startsWith(prefix)) delete tree[p];
    }
  }
  const entries = Object.keys(tree).sort().map((p) => `${tree[p]} ${p}`).join('\n');
  // Deterministic: same parent, tree, message and position give the same sha.
  const oid = sha1(`${parent?.oid ?? ''}\n${repo.commits.length}\n${user.name}\n${summary}\n${description}\n${entries}`);
  const commit: StoredCommit = { oid, parent: parent?.oid ?? null, summary, description, author: user.name, date: new Date().toISOString(), tree };
  repo.commits.push(commit);
  repo.lastModified = commit.date;
  return commit;
}

function checkPath(path: string): void {
  const parts = path.split('/');
  if (path === '' || path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw badRequest(`Invalid path in repo: '${path}'`);
  }
}

/** Commit to main, persist, and raise `repo.content` with updatedRefs. */
export async function commitFiles(
  ctx: HubContext, user: HubUser, repo: StoredRepo, ops: HubCommitOp[], summary: string, description: string,
): Promise<StoredCommit> {
  const oldSha = headCommit(repo).oid;
  const commit = await addCommit(ctx, user, repo, ops, summary, description);
  await ctx.store.save();
  const updatedRefs = [{ ref: 'refs/heads/main', oldSha, newSha: commit.oid }];
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo.content', 'update', { updatedRefs }), repo.creator);
  return commit;
}
