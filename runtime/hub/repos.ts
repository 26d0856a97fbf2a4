import type { RepoType } from '../../lib/wire/hub.js';
import type { HubContext } from './context.js';
import { badRequest, HubApiError, REPO_NOT_FOUND_MESSAGE } from './errors.js';
import { objectId } from './ids.js';
import { namespaceOf, repoEvent } from './repo-events.js';
import { writeFirstCommit } from './commits.js';
import { defaultGitattributes } from './lfs/attributes.js';

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

/** How a repo is shown: `protected` exists for Spaces only (their files private, like `private`). */
export type Visibility = 'public' | 'private' | 'protected';

export function visibilityOf(repo: StoredRepo): Visibility {
  return repo.visibility === 'protected' ? 'protected' : repo.private ? 'private' : 'public';
}

export function setVisibility(repo: StoredRepo, v: Visibility): void {
  repo.private = v !== 'public';
  if (v === 'protected') repo.visibility = 'protected';
  else delete repo.visibility;
}

/**
 * `visibility` (huggingface_hub ≥ 0.25 sends it) or the older `private` flag,
 * from a create or settings body; null when neither is given.
 */
export function parseVisibility(body: Record<string, unknown>, type: RepoType): Visibility | null {
  const { visibility, private: flag } = body;
  if (visibility !== undefined && visibility !== null) {
    if (visibility !== 'public' && visibility !== 'private' && visibility !== 'protected') {
      throw badRequest(`Invalid \`visibility\` ${JSON.stringify(visibility)}: use "public", "private" or "protected"`);
    }
    if (visibility === 'protected' && type !== 'space') throw badRequest('Only Spaces can be "protected": use "public" or "private"');
    return visibility;
  }
  if (flag === undefined || flag === null) return null;
  if (typeof flag !== 'boolean') throw badRequest('`private` must be true or false');
  return flag ? 'private' : 'public';
}

/** Repos whose first commit is being written: claimed (a second create is a 409) but not yet readable. */
const creating = new WeakSet<StoredRepo>();

export function isReady(repo: StoredRepo): boolean {
  return !creating.has(repo);
}

/**
 * Lookups ignore case, as the Hub's do (the stored casing is kept and shown).
 * `x` and `x.git` name the same git URL, so they count as one name for uniqueness.
 */
export function sameRepoName(a: string, b: string): boolean {
  const key = (id: string) => id.toLowerCase().replace(/\.git$/, '');
  return key(a) === key(b);
}

export function findRepo(ctx: HubContext, type: RepoType, repoId: string): StoredRepo | undefined {
  const wanted = repoId.toLowerCase();
  return ctx.store.data.repos.find((r) => r.type === type && r.repoId.toLowerCase() === wanted);
}

/** The repo a git URL names: `…/x.git` is repo `x`, or repo `x.git` when there is no `x`. */
export function findGitRepo(ctx: HubContext, type: RepoType, owner: string, name: string): StoredRepo | undefined {
  const stripped = name.replace(/\.git$/i, '');
  return (stripped !== name ? findRepo(ctx, type, `${owner}/${stripped}`) : undefined) ?? findRepo(ctx, type, `${owner}/${name}`);
}

export function canWrite(user: HubUser, repo: { repoId: string; creator: string }): boolean {
  return namespaceOf(repo.repoId) === user.name || repo.creator === user.name || (user.orgs ?? []).includes(namespaceOf(repo.repoId));
}

/** Read access: a public repo, or a private one to its owner. */
export function canRead(user: HubUser | null, repo: StoredRepo): boolean {
  return isReady(repo) && (!repo.private || (user !== null && canWrite(user, repo)));
}

/**
 * The Hub's answer for a repo the caller cannot see, the same whether it is
 * missing or private: 401 without a token, 404 with one; X-Error-Code RepoNotFound.
 */
export function repoNotFound(_repoId: string, user: HubUser | null): HubApiError {
  // The Hub's words, without the id: huggingface_hub's own message names the URL and leaves these out.
  return new HubApiError(user ? 'HUB_ERR_REPO_NOT_FOUND' : 'HUB_ERR_REPO_AUTH_REQUIRED', REPO_NOT_FOUND_MESSAGE);
}

/** Private repos look missing to everyone but their owner (like the real hub). */
export function readableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser | null): StoredRepo {
  checkRepoId(repoId);
  const repo = findRepo(ctx, type, repoId);
  if (!repo || !canRead(user, repo)) throw repoNotFound(repoId, user);
  return repo;
}

export function writableRepo(ctx: HubContext, type: RepoType, repoId: string, user: HubUser): StoredRepo {
  const repo = readableRepo(ctx, type, repoId, user);
  if (!canWrite(user, repo)) throw new HubApiError('HUB_ERR_FORBIDDEN', `You don't have the rights to write to ${repoId}`);
  return repo;
}

/**
 * A gated repo's files: its owner reads them; the embedded hub keeps no access
 * requests, so anyone else gets the Hub's GatedRepo answer (401 without a token, 403 with one).
 */
export function checkGatedAccess(repo: StoredRepo, user: HubUser | null): void {
  if (!repo.gated || (user && canWrite(user, repo))) return;
  const message = `Access to ${repo.repoId} is restricted: it is gated and you have not been granted access`;
  throw new HubApiError(user ? 'HUB_ERR_GATED' : 'HUB_ERR_GATED_AUTH', message);
}

/** A branch, tag, ref or commit sha of the repo → its commit sha (404 RevisionNotFound otherwise). */
export async function resolveRevision(ctx: HubContext, repo: StoredRepo, rev: string): Promise<string> {
  const sha = await ctx.git.resolve(repo.type, repo.repoId, rev === 'HEAD' ? 'main' : rev);
  if (!sha) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${rev}`);
  return sha;
}

/**
 * The namespace a user may create or move a repo into, in its stored casing:
 * their own (whatever the case asked), or one that is no user's (an organisation: a declared one's members only).
 */
export function ownNamespace(ctx: HubContext, user: HubUser, repoId: string): string {
  const ns = namespaceOf(repoId);
  if (ns.toLowerCase() === user.name.toLowerCase()) return `${user.name}/${repoId.slice(ns.length + 1)}`;
  if (ctx.users.some((u) => u.name.toLowerCase() === ns.toLowerCase())) {
    throw new HubApiError('HUB_ERR_FORBIDDEN', `You cannot create a repo in the namespace of user '${ns}'`);
  }
  if (ctx.orgs.some((o) => o.name.toLowerCase() === ns.toLowerCase()) && !(user.orgs ?? []).some((o) => o.toLowerCase() === ns.toLowerCase())) {
    throw new HubApiError('HUB_ERR_FORBIDDEN', `You are not a member of the organisation '${ns}'`);
  }
  return repoId;
}

/** 409 for the same name in another case (the Hub's words), 400 for `x` beside `x.git`. */
export function checkNameFree(ctx: HubContext, type: RepoType, repoId: string, except?: StoredRepo): void {
  const other = ctx.store.data.repos.find((r) => r !== except && r.type === type && sameRepoName(r.repoId, repoId));
  if (!other) return;
  if (other.repoId.toLowerCase() === repoId.toLowerCase()) throw new HubApiError('HUB_ERR_REPO_EXISTS', `You already created this ${type} repo: ${other.repoId}`);
  throw badRequest(`Repository name '${repoId}' is taken: '${other.repoId}' has the same git URL (a name and the name with '.git' are one repo)`);
}

export async function createRepo(
  ctx: HubContext, user: HubUser, type: RepoType, requested: string, opts: { visibility: Visibility; sdk: string | null },
): Promise<StoredRepo> {
  checkRepoId(requested);
  const repoId = ownNamespace(ctx, user, requested);
  checkNameFree(ctx, type, repoId);
  const now = new Date().toISOString();
  const repo: StoredRepo = {
    objectId: objectId(), type, repoId, creator: user.name, private: false,
    sdk: type === 'space' ? (opts.sdk ?? 'gradio') : null, createdAt: now, lastModified: now, headSha: null, discussions: [],
  };
  setVisibility(repo, opts.visibility);
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
  const files: Record<string, Buffer> = { '.gitattributes': Buffer.from(defaultGitattributes(repo.type)) };
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
  await ctx.git.lock.run(`${type}/${repo.repoId}`, () => ctx.git.remove(type, repo.repoId));
  await ctx.store.save();
  ctx.deliverer.emit(repoEvent(ctx, repo, 'repo', 'delete'), repo.creator);
}
