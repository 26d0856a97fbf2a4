import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { copyFile, link, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoType } from '../../../lib/wire/hub.js';
import type { GitRepos } from '../git/git-repos.js';
import { SHA256_HEX } from './pointer.js';

// The LFS objects of each repo, inside its bare git repo as git-lfs lays them
// out locally (lfs/objects/ab/cd/<sha256>), so a repo's move or delete takes
// its objects along. An object is written to a temp file, checked against
// its sha256 and size, then renamed into place: a reader never sees half an object.

export class LfsUploadError extends Error {}

export class LfsStore {
  constructor(private readonly git: GitRepos) {}

  /** The object's file; the oid is checked here, so no request text reaches a path unchecked. */
  path(type: RepoType, repoId: string, oid: string): string {
    if (!SHA256_HEX.test(oid)) throw new LfsUploadError(`Invalid LFS oid '${oid.slice(0, 80)}': expected 64 lowercase hex digits (sha256)`);
    return join(this.git.dir(type, repoId), 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
  }

  /** The object's size, or null when the repo does not have it. */
  async size(type: RepoType, repoId: string, oid: string): Promise<number | null> {
    try {
      const s = await stat(this.path(type, repoId, oid));
      return s.isFile() ? s.size : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Store `body` as object `oid`: refused (and nothing kept) unless it has
   * exactly `size` bytes hashing to `oid`. The body is read, never destroyed:
   * the caller still answers on its connection.
   */
  async receive(type: RepoType, repoId: string, oid: string, size: number, body: AsyncIterable<Buffer>): Promise<void> {
    const dest = this.path(type, repoId, oid);
    const tmpDir = join(this.git.dir(type, repoId), 'lfs', 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const tmp = join(tmpDir, `${oid}.${randomBytes(6).toString('hex')}`);
    const hash = createHash('sha256');
    let received = 0;
    const file = await open(tmp, 'wx', 0o600);
    try {
      for await (const chunk of body) {
        received += chunk.length;
        if (received > size) throw new LfsUploadError(`LFS object ${oid} is larger than the ${size} bytes announced`);
        hash.update(chunk);
        await file.write(chunk);
      }
      await file.close();
      if (received !== size) throw new LfsUploadError(`LFS object ${oid} has ${received} bytes, not the ${size} announced`);
      const got = hash.digest('hex');
      if (got !== oid) throw new LfsUploadError(`LFS object content does not match its oid: got sha256 ${got}, expected ${oid}`);
      await mkdir(join(dest, '..'), { recursive: true, mode: 0o700 });
      await rename(tmp, dest);
    } finally {
      await file.close().catch(() => {});
      await rm(tmp, { force: true });
    }
  }

  /** Give repo `to` the object `from` has (a hard link where the filesystem allows). */
  async copy(from: { type: RepoType; repoId: string }, to: { type: RepoType; repoId: string }, oid: string): Promise<void> {
    const src = this.path(from.type, from.repoId, oid);
    const dest = this.path(to.type, to.repoId, oid);
    if ((await this.size(to.type, to.repoId, oid)) !== null) return;
    await mkdir(join(dest, '..'), { recursive: true, mode: 0o700 });
    try {
      await link(src, dest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
      const tmp = `${dest}.${randomBytes(6).toString('hex')}`;
      await copyFile(src, tmp);
      await rename(tmp, dest);
    }
  }

  /** Bytes `start`..`end` (inclusive) of the object, or all of it. */
  open(type: RepoType, repoId: string, oid: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.path(type, repoId, oid), range ? { start: range.start, end: range.end } : {});
  }
}
