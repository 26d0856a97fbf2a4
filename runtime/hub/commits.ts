import type { HubContext } from './context.js';
import { badRequest, HubApiError, STALE_PARENT_MESSAGE } from './errors.js';
import { repoEvent } from './repo-events.js';
import { checkCard, isCardPath } from './model-card.js';
import { ZERO_SHA } from './git/git-repos.js';
import { MAX_REGULAR_FILE_BYTES, missingObjectMessage, tooLargeMessage } from './git/pre-receive.js';
import { formatPointer, SHA256_HEX } from './lfs/pointer.js';
import { canRead } from './repos.js';
import type { HubCommitOp } from './git/fast-import.js';
import type { UpdatedRef } from './events.js';
import type { HubUser, StoredRepo } from './types.js';

export type { HubCommitOp } from './git/fast-import.js';

// Commits into a repo's bare git repo, and the `repo.content` events every ref
// change raises — from the API or from a git push alike.

/** An `lfsFile` line: a pointer to an object uploaded through the LFS batch API (size absent on copies). */
export interface LfsAddOp {
  op: 'addLfs';
  path: string;
  oid: string;
  size: number | null;
}

export type CommitOp = HubCommitOp | LfsAddOp;

export interface CommitRequest {
  ops: CommitOp[];
  summary: string;
  description: string;
  /** Full ref name: refs/heads/main, refs/pr/3… */
  ref: string;
  /** The commit the client based its change on (huggingface_hub's parent_commit). */
  parentCommit: string | null;
}

/**
 * A path inside a repo: relative, no `.`/`..`/empty segment, no `.git`, no control character. A bad path
 * in a commit is a 422 (the Hub's status for content it refuses); in a read, a 400.
 */
export function checkPath(path: string, field = 'path', code: 'HUB_ERR_BAD_REQUEST' | 'HUB_ERR_UNPROCESSABLE' = 'HUB_ERR_BAD_REQUEST'): void {
  const parts = path.split('/');
  const bad = path === '' || path.startsWith('/') || /[\0-\x1f\\]/.test(path)
    || parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git');
  if (bad) throw new HubApiError(code, `Invalid ${field} '${path}': use a relative path inside the repo (no '..', '.', '.git', empty segment, backslash or absolute path)`);
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

/**
 * The ops git writes: an LFS add becomes its pointer, once the repo has the
 * object (copied from another repo the user reads, for a cross-repo copy);
 * files over 10 MiB outside LFS are refused, with the Hub's words.
 */
async function gitOps(ctx: HubContext, user: HubUser, repo: StoredRepo, ref: string, ops: CommitOp[]): Promise<HubCommitOp[]> {
  const tooLarge = ops.filter((o) => o.op === 'add' && o.content.length > MAX_REGULAR_FILE_BYTES).map((o) => `${o.path} (ref: ${ref})`);
  if (tooLarge.length > 0) throw badRequest(oneLine(tooLargeMessage(tooLarge)));
  const out: HubCommitOp[] = [];
  const missing: string[] = [];
  for (const op of ops) {
    if (op.op !== 'addLfs') { out.push(op); continue; }
    const size = await lfsObjectSize(ctx, user, repo, op.oid);
    if (size === null) { missing.push(op.path); continue; }
    if (op.size !== null && op.size !== size) throw badRequest(`LFS file ${op.path}: size ${op.size} does not match the uploaded object (${size} bytes)`);
    out.push({ op: 'add', path: op.path, content: formatPointer({ oid: op.oid, size }) });
  }
  if (missing.length > 0) throw badRequest(oneLine(missingObjectMessage(missing)));
  return out;
}

/** A push's refusal as the commit API words it: one line, without the rules (as the Hub's message reads). */
function oneLine(lines: string[]): string {
  return lines.slice(1, -1).map((l) => l.trim()).filter((l) => l !== '').join(' ');
}

/** The object's size in `repo`'s store, after copying it from another repo `user` may read; null when none has it. */
async function lfsObjectSize(ctx: HubContext, user: HubUser, repo: StoredRepo, oid: string): Promise<number | null> {
  if (!SHA256_HEX.test(oid)) throw badRequest(`Invalid LFS oid '${oid.slice(0, 80)}': expected a sha256 in hex`);
  const here = await ctx.lfs.size(repo.type, repo.repoId, oid);
  if (here !== null) return here;
  for (const other of ctx.store.data.repos) {
    if (other === repo || !canRead(user, other) || (await ctx.lfs.size(other.type, other.repoId, oid)) === null) continue;
    await ctx.lfs.copy(other, repo, oid);
    return ctx.lfs.size(repo.type, repo.repoId, oid);
  }
  return null;
}

/** Commit on top of `req.ref`; 412 when it moved past `parentCommit` or during the write. */
export async function commitFiles(ctx: HubContext, user: HubUser, repo: StoredRepo, req: CommitRequest): Promise<{ oid: string; oldSha: string }> {
  for (const op of req.ops) {
    checkPath(op.path, 'path', 'HUB_ERR_UNPROCESSABLE');
    if (op.op === 'add' && isCardPath(op.path)) checkCommittedCard(op.content, repo);
  }
  const ops = await gitOps(ctx, user, repo, req.ref, req.ops);
  const result = await ctx.git.lock.run(repoKey(repo), async () => {
    const head = (await ctx.git.refs(repo.type, repo.repoId)).get(req.ref);
    if (!head) throw new HubApiError('HUB_ERR_REVISION_NOT_FOUND', `Invalid rev id: ${req.ref.replace(/^refs\/heads\//, '')}`);
    if (req.parentCommit && req.parentCommit !== head) throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
    const checked = await checkDeletes(ctx, repo, head, ops);
    const oid = await ctx.git.writeCommit(repo.type, repo.repoId, {
      parent: head, ops: checked, message: message(req.summary, req.description), author: user.name, time: nowSeconds(),
    });
    if (!await ctx.git.casRef(repo.type, repo.repoId, req.ref, oid, head)) throw new HubApiError('HUB_ERR_STALE_PARENT', STALE_PARENT_MESSAGE);
    return { oid, oldSha: head };
  });
  await refsChanged(ctx, repo, [{ ref: req.ref, oldSha: result.oldSha, newSha: result.oid }]);
  return result;
}

/** The Hub refuses a commit whose README.md metadata it would not accept (validate-yaml's errors). */
function checkCommittedCard(content: Buffer, repo: StoredRepo): void {
  const { errors } = checkCard(content.toString('utf8'), repo.type);
  if (errors.length > 0) throw badRequest(`Invalid metadata in README.md: ${errors.map((e) => e.message).join('; ')}`);
}

/**
 * Deletes name what exists. A `deletedFile` that names a folder deletes the folder, as on the Hub
 * (huggingface_hub sends `delete_folder`'s path without its trailing '/' when is_folder is left to "auto").
 */
async function checkDeletes(ctx: HubContext, repo: StoredRepo, head: string, ops: HubCommitOp[]): Promise<HubCommitOp[]> {
  if (!ops.some((o) => o.op === 'delete')) return ops;
  const tree = await ctx.git.tree(repo.type, repo.repoId, head);
  const files = new Set(tree.filter((e) => e.type === 'file').map((e) => e.path));
  const folders = new Set(tree.filter((e) => e.type === 'directory').map((e) => e.path));
  return ops.map((op): HubCommitOp => {
    if (op.op === 'add') files.add(op.path);
    if (op.op !== 'delete' || files.delete(op.path)) return op;
    if (folders.has(op.path)) return { op: 'deleteFolder', path: op.path };
    throw badRequest(`File to delete does not exist: ${op.path}`);
  });
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
