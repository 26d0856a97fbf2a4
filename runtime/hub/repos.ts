import type { RepoType } from '../../lib/wire/hub.js';
import type { HubContext } from './context.js';
import { badRequest, HubApiError } from './errors.js';
import { objectId } from './ids.js';
import { namespaceOf, repoEvent } from './repo-events.js';
import { writeFirstCommit } from './commits.js';

export { namespaceOf, repoEvent } from './repo-events.js';
import type { HubUser, StoredRepo } from './types.js';

// Repositories as records: names as the Hub accepts them, lookup with
// visibility rules, create and delete. Their content lives in git (commits.ts).

export const REPO_TYPES: readonly RepoType[] = ['model', 'dataset', 'space'];

/**
 * The Hub's rule (huggingface_hub's validate_repo_id): letters, digits, `_`,
 * `-`, `.`; at most 96; no `--` or `..`; not starting or ending with `-` or `.`.
 * `__DUMMY_HUB_USER__` (the official test suite's user) is valid.
 */
export function validName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,96}$/.test(name) && !/^[.-]|[.-]$/.test(name) && !name.includes('--') && !name.includes('..');
}

export function parseRepoType(value: unknown): RepoType {
  if (value === undefined || value === null) return 'model';
  if (typeof value === 'string' && (REPO_TYPES as readonly string[]).includes(value)) return value as RepoType;
  throw badRequest(`Invalid repo type ${JSON.stringify(value)}: use model, dataset or space`);
}

export function checkRepoId(repoId: string, field = 'repo id'): void {
  const [owner, name, extra] = repoId.split('/');
  if (!owner || !name || extra !== undefined || !validName(owner) || !validName(name)) {
    throw badRequest(`Invalid ${field} '${repoId}': expected owner/name, each 1-96 letters, digits, '_', '-' or '.', not starting or ending with '-' or '.', without '--' or '..'`);
  }
}

function notFound(repoId: string): HubApiError {
  return new HubApiError('HUB_ERR_REPO_NOT_FOUND', `Repository not found: ${repoId}`);
}

/** Repos whose first commit is being written: claimed (a second create is a 409) but not yet readable. */
const creating = new WeakSet<StoredRepo>();

export function isReady(repo: StoredRepo): boolean {
  return !creating.has(repo);
}

export function findRepo(ctx: HubContext, type: RepoType, repoId: string): StoredRepo | undefined {
  return ctx.store.data.repos.find((r) => r.type === type && r.repoId === repoId);
}

export function canWrite(user: HubUser, repo: { repoId: string; creator: string }): boolean {
  return namespaceOf(repo.repoId) === user.name || repo.creator === user.name;
}

/** Private repos look missing to everyone but their owner (like the real hub). */
export function readableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser | null): StoredRepo {
  checkRepoId(repoId);
  const repo = findRepo(ctx, type, repoId);
  if (!repo || !isReady(repo) || (repo.private && !(user && canWrite(user, repo)))) throw notFound(repoId);
  return repo;
}

export function writableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser): StoredRepo {
  const repo = readableRepo(ctx, type, repoId, user);
  if (!canWrite(user, repo)) throw new HubApiError('HUB_ERR_FORBIDDEN', `You don't have the rights to write to ${repoId}`);
  return repo;
}

/** A branch, tag, ref or commit sha of the repo → its commit sha (404 RevisionNotFound otherwise). */
export async function resolveRevision(ctx: HubContext, repo: StoredRepo, rev: string): Promise<string> {
  const sha = await ctx.git.resolve(repo.type, repo.repoId, rev === 'HEAD' ? 'main' : rev);
  if (!sha) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${rev}`);
  return sha;
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
    sdk: type === 'space' ? (opts.sdk ?? 'gradio') : null, createdAt: now, lastModified: now, headSha: null, discussions: [],
  };
  // Claimed before the first await, so two concurrent creates cannot both pass.
  ctx.store.data.repos.push(repo);
  creating.add(repo);
  try {
    await writeFirstCommit(ctx, user, repo, initialFiles(repo));
  } catch (err) {
    ctx.store.data.repos = ctx.store.data.repos.filter((r) => r !== repo);
    throw err;
  } finally {
    creating.delete(repo);
  }
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo', 'create'), repo.creator);
  return repo;
}

function initialFiles(repo: StoredRepo): Record<string, Buffer> {
  const files: Record<string, Buffer> = { '.gitattributes': Buffer.from('*.bin filter=lfs diff=lfs merge=lfs -text\n') };
  if (repo.type === 'space') files['README.md'] = Buffer.from(spaceReadme(repo.repoId, repo.sdk ?? 'gradio'));
  return files;
}

function spaceReadme(repoId: string, sdk: string): string {
  const title = repoId.split('/')[1] ?? repoId;
  return `---\ntitle: ${title}\nemoji: 🤖\ncolorFrom: blue\ncolorTo: green\nsdk: ${sdk}\npinned: false\n---\n`;
}

export async function deleteRepo(ctx: HubContext, user: HubUser, type: RepoType, repoId: string): Promise<void> {
  const repo = writableRepo(ctx, type, repoId, user);
  ctx.store.data.repos = ctx.store.data.repos.filter((r) => r !== repo);
  await ctx.git.lock.run(`${type}/${repoId}`, () => ctx.git.remove(type, repoId));
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo', 'delete'), repo.creator);
}
