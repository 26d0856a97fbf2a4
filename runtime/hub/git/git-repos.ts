import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RepoType } from '../../../lib/wire/hub.js';
import { fastImportStream, type HubCommitOp } from './fast-import.js';
import { GitError, runGit } from './run-git.js';
import { KeyedLock } from './keyed-lock.js';
import { pidAlive as alive } from '../../../lib/pid-alive.js';
import { parsePointer, POINTER_MAX_BYTES, POINTER_MIN_BYTES, type LfsPointer } from '../lfs/pointer.js';
import { installHooks } from './pre-receive.js';

// The hub's repositories as bare git repos under <root>/repos/<type>s/<owner>/<name>.git.
// The API commits into them with git's own plumbing and git http-backend
// serves clone/fetch/push from the same folders, so both see the same commits.

export const ZERO_SHA = '0'.repeat(40);
const SCRATCH_REF = 'refs/robotctl/import';
const TREE_CACHE = 256;
const TEMP_PREFIX = 'robotctl-hub-git-';
const POINTER_CACHE = 4096;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Temp folders of hubs whose process is gone (killed before close()): removed. */
async function sweepTempRoots(): Promise<void> {
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    const pid = Number(/^robotctl-hub-git-(\d+)-/.exec(name)?.[1] ?? 0);
    if (pid > 0 && pid !== process.pid && !alive(pid)) await rm(join(tmpdir(), name), { recursive: true, force: true });
  }
}

export interface TreeEntry {
  path: string;
  type: 'file' | 'directory';
  /** The git object id (for an LFS file, its pointer's). */
  oid: string;
  /** Bytes of the content (an LFS file's own size, not its pointer's; 0 for a directory). */
  size: number;
  /** Set when the blob is an LFS pointer, as the Hub's tree lists it. */
  lfs?: { oid: string; size: number; pointerSize: number };
}

export interface CommitEntry {
  id: string;
  parents: string[];
  author: string;
  date: string;
  title: string;
  message: string;
}

export class GitRepos {
  readonly lock = new KeyedLock();
  private readonly refCache = new Map<string, Map<string, string>>();
  private readonly treeCache = new Map<string, TreeEntry[]>();
  private readonly commitCache = new Map<string, CommitEntry>();
  /** Small blobs read to learn whether they are LFS pointers (a blob never changes). */
  private readonly pointerCache = new Map<string, LfsPointer | null>();

  private constructor(readonly root: string, private readonly temporary: boolean) {}

  /** Under `dir`, or in a temp folder removed by close() when the hub keeps nothing. */
  static async open(dir: string | null): Promise<GitRepos> {
    if (dir === null) await sweepTempRoots();
    const root = dir ?? await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    await mkdir(join(root, 'repos'), { recursive: true, mode: 0o700 });
    await installHooks(join(root, 'git-hooks'));
    return new GitRepos(join(root, 'repos'), dir === null);
  }

  /** core.hooksPath for git http-backend's receive-pack: the checks of git/pre-receive.ts. */
  get hooksDir(): string {
    return join(dirname(this.root), 'git-hooks');
  }

  async close(): Promise<void> {
    if (this.temporary) await rm(dirname(this.root), { recursive: true, force: true });
  }

  /**
   * PATH_INFO prefix of a repo for git http-backend (relative to root): `<name>.git`,
   * or the name itself when it already ends with `.git` (no repo `x` sits beside `x.git`).
   */
  relPath(type: RepoType, repoId: string): string {
    return /\.git$/i.test(repoId) ? `${type}s/${repoId}` : `${type}s/${repoId}.git`;
  }

  /** Earlier hubs kept repo `x.git` in `x.git.git`: move it where relPath() looks. */
  async adoptLegacyDir(type: RepoType, repoId: string): Promise<void> {
    if (!/\.git$/i.test(repoId)) return;
    const old = join(this.root, `${type}s/${repoId}.git`);
    const now = this.dir(type, repoId);
    if (await exists(old) && !await exists(now)) await rename(old, now);
  }

  dir(type: RepoType, repoId: string): string {
    return join(this.root, this.relPath(type, repoId));
  }

  async init(type: RepoType, repoId: string): Promise<void> {
    const dir = this.dir(type, repoId);
    await rm(dir, { recursive: true, force: true }); // a leftover of a create that died midway
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await runGit({ cwd: dir, args: ['init', '--quiet', '--bare', '--initial-branch=main'] });
    this.invalidate(type, repoId);
  }

  async remove(type: RepoType, repoId: string): Promise<void> {
    await rm(this.dir(type, repoId), { recursive: true, force: true });
    this.invalidate(type, repoId);
  }

  async move(type: RepoType, from: string, to: string): Promise<void> {
    await mkdir(dirname(this.dir(type, to)), { recursive: true, mode: 0o700 });
    await rename(this.dir(type, from), this.dir(type, to));
    this.invalidate(type, from);
    this.invalidate(type, to);
  }

  invalidate(type: RepoType, repoId: string): void {
    this.refCache.delete(`${type}/${repoId}`);
  }

  /** Every ref (refs/heads/…, refs/tags/…, refs/pr/…) → commit sha. */
  async refs(type: RepoType, repoId: string): Promise<Map<string, string>> {
    const key = `${type}/${repoId}`;
    const hit = this.refCache.get(key);
    if (hit) return hit;
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['for-each-ref', '--format=%(refname) %(objectname) %(*objectname)'] });
    const refs = new Map<string, string>();
    for (const line of stdout.toString('utf8').split('\n')) {
      const [name, oid, peeled] = line.split(' ');
      if (name && oid && !name.startsWith('refs/robotctl/')) refs.set(name, peeled || oid);
    }
    this.refCache.set(key, refs);
    return refs;
  }

  /** A branch, tag, full ref or (abbreviated) commit sha → the commit sha, or null. */
  async resolve(type: RepoType, repoId: string, rev: string): Promise<string | null> {
    const refs = await this.refs(type, repoId);
    const named = refs.get(`refs/heads/${rev}`) ?? refs.get(`refs/tags/${rev}`) ?? (rev.startsWith('refs/') ? refs.get(rev) : undefined);
    if (named) return named;
    if (!/^[0-9a-f]{7,40}$/.test(rev)) return null;
    const r = await runGit({ cwd: this.dir(type, repoId), args: ['rev-parse', '--quiet', '--verify', `${rev}^{commit}`], okCodes: [1, 128] });
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  }

  /** Every file and folder of a commit, recursive; cached (a commit never changes). */
  async tree(type: RepoType, repoId: string, sha: string): Promise<TreeEntry[]> {
    const hit = this.treeCache.get(sha);
    if (hit) return hit;
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['ls-tree', '-r', '-t', '-l', '-z', '--full-tree', sha] });
    const entries: TreeEntry[] = [];
    for (const rec of stdout.toString('utf8').split('\0')) {
      const tab = rec.indexOf('\t');
      if (tab < 0) continue;
      const [, kind, oid, size] = rec.slice(0, tab).split(/ +/);
      if (kind !== 'blob' && kind !== 'tree') continue;
      entries.push({ path: rec.slice(tab + 1), type: kind === 'tree' ? 'directory' : 'file', oid: oid ?? '', size: kind === 'blob' ? Number(size) : 0 });
    }
    await this.notePointers(type, repoId, entries);
    if (this.treeCache.size >= TREE_CACHE) this.treeCache.delete(this.treeCache.keys().next().value as string);
    this.treeCache.set(sha, entries);
    return entries;
  }

  /** Read the blobs small enough to be LFS pointers (one `cat-file --batch`) and mark the entries that are. */
  private async notePointers(type: RepoType, repoId: string, entries: TreeEntry[]): Promise<void> {
    const candidates = entries.filter((e) => e.type === 'file' && e.size >= POINTER_MIN_BYTES && e.size <= POINTER_MAX_BYTES);
    const unknown = [...new Set(candidates.filter((e) => !this.pointerCache.has(e.oid)).map((e) => e.oid))];
    if (unknown.length > 0) {
      const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['cat-file', '--batch'], input: `${unknown.join('\n')}\n` });
      let at = 0;
      while (at < stdout.length) {
        const nl = stdout.indexOf(0x0a, at);
        if (nl < 0) break;
        const [oid = '', kind = '', len = '0'] = stdout.subarray(at, nl).toString('latin1').split(' ');
        if (kind === 'missing') { at = nl + 1; continue; }
        const body = stdout.subarray(nl + 1, nl + 1 + Number(len));
        if (this.pointerCache.size >= POINTER_CACHE) this.pointerCache.delete(this.pointerCache.keys().next().value as string);
        this.pointerCache.set(oid, parsePointer(body));
        at = nl + 1 + Number(len) + 1;
      }
    }
    for (const e of candidates) {
      const p = this.pointerCache.get(e.oid);
      if (p) {
        e.lfs = { oid: p.oid, size: p.size, pointerSize: e.size };
        e.size = p.size;
      }
    }
  }

  /** A new commit holding `sha`'s tree and no parent (super-squash); no ref moves. */
  async squash(type: RepoType, repoId: string, sha: string, message: string, author: string): Promise<string> {
    const email = `${author}@users.noreply.robotctl.local`;
    const env = { GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: author, GIT_COMMITTER_EMAIL: email };
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['commit-tree', `${sha}^{tree}`], input: message, env });
    return stdout.toString('utf8').trim();
  }

  async blob(type: RepoType, repoId: string, oid: string): Promise<Buffer> {
    return (await runGit({ cwd: this.dir(type, repoId), args: ['cat-file', 'blob', oid] })).stdout;
  }

  /** Write a commit on top of `parent` (git fast-import); no ref of the repo moves. */
  async writeCommit(type: RepoType, repoId: string, spec: { parent: string | null; ops: HubCommitOp[]; message: string; author: string; time: number }): Promise<string> {
    const input = fastImportStream({ ...spec, ref: SCRATCH_REF, author: { name: spec.author, email: `${spec.author}@users.noreply.robotctl.local` } });
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['fast-import', '--quiet', '--force'], input });
    return stdout.toString('utf8').trim().split('\n').pop() ?? '';
  }

  /** Move `ref` to `next` only if it still points at `expected` (ZERO_SHA: must not exist); false when it moved. */
  async casRef(type: RepoType, repoId: string, ref: string, next: string, expected: string): Promise<boolean> {
    try {
      await runGit({ cwd: this.dir(type, repoId), args: ['update-ref', '--no-deref', ref, next, expected] });
      // Keep the cached refs (no re-read on the next commit); pushes invalidate them.
      this.refCache.get(`${type}/${repoId}`)?.set(ref, next);
      return true;
    } catch (err) {
      this.invalidate(type, repoId);
      if (err instanceof GitError) return false;
      throw err;
    }
  }

  async deleteRef(type: RepoType, repoId: string, ref: string): Promise<void> {
    await runGit({ cwd: this.dir(type, repoId), args: ['update-ref', '-d', ref] });
    this.invalidate(type, repoId);
  }

  /** One commit's metadata; cached (a commit never changes). */
  async commit(type: RepoType, repoId: string, sha: string): Promise<CommitEntry> {
    const hit = this.commitCache.get(sha);
    if (hit) return hit;
    const [entry] = await this.log(type, repoId, sha, 1);
    if (!entry) throw new Error(`no commit ${sha} in ${repoId}`);
    if (this.commitCache.size >= TREE_CACHE) this.commitCache.delete(this.commitCache.keys().next().value as string);
    this.commitCache.set(sha, entry);
    return entry;
  }

  /** For each path, the newest commit (from `sha` back) that touched it or, for a folder, anything under it. */
  async lastCommits(type: RepoType, repoId: string, sha: string, paths: string[]): Promise<Map<string, CommitEntry>> {
    const want = new Set(paths);
    const found = new Map<string, CommitEntry>();
    if (want.size === 0) return found;
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['log', '--format=%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%s', '--name-only', '--no-renames', sha] });
    for (const block of stdout.toString('utf8').split('\x1e')) {
      const [head = '', ...files] = block.split('\n');
      const [id = '', parents = '', author = '', date = '', title = ''] = head.split('\x1f');
      if (!id) continue;
      const entry: CommitEntry = { id, parents: parents ? parents.split(' ') : [], author, date: new Date(date).toISOString(), title, message: title };
      for (const f of files) {
        const parts = f.split('/');
        for (let i = parts.length; i > 0; i--) {
          const p = parts.slice(0, i).join('/');
          if (want.has(p) && !found.has(p)) found.set(p, entry);
        }
      }
      if (found.size === want.size) break;
    }
    return found;
  }

  async log(type: RepoType, repoId: string, sha: string, limit = 1000): Promise<CommitEntry[]> {
    const fmt = '%H%x1f%P%x1f%an%x1f%aI%x1f%s%x1f%B%x1e';
    const { stdout } = await runGit({ cwd: this.dir(type, repoId), args: ['log', `--max-count=${limit}`, `--format=${fmt}`, sha] });
    return stdout.toString('utf8').split('\x1e').map((r) => r.replace(/^\n/, '')).filter((r) => r !== '').map((r) => {
      const [id = '', parents = '', author = '', date = '', title = '', message = ''] = r.split('\x1f');
      return { id, parents: parents ? parents.split(' ') : [], author, date: new Date(date).toISOString(), title, message: message.trimEnd() };
    });
  }
}
