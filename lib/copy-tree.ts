import { constants } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, readlink, stat, symlink, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// A folder tree copied as installs need it: folders with their modes, files
// with their modes (libuv's copyfile sets them), symbolic links kept as
// written. Node 20's fs.promises.cp does the same with several promises and
// stats per entry: a 25 MB apps venv of 1,700 files cost 0.6-0.7 s of CPU to
// copy, against 0.12-0.18 s here (tmpfs, measured on the 2-core machine),
// and every simulated robot copies one on its first install.

export interface CopyTreeOptions {
  /** Replace files and links already at the destination (folders merge either way); else such a file is an error. */
  overwrite?: boolean;
}

export class CopyTreeError extends Error {}

export async function copyTree(src: string, dst: string, opts: CopyTreeOptions = {}): Promise<void> {
  const top = await lstat(src);
  if (!top.isDirectory()) throw new CopyTreeError(`cannot copy ${src}: not a folder`);
  await mkdir(dirname(dst), { recursive: true });
  await copyFolder(src, dst, top.mode, opts);
}

async function copyFolder(src: string, dst: string, mode: number, opts: CopyTreeOptions): Promise<void> {
  const made = await mkdir(dst).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST') return false;
    throw err;
  });
  const entries = await readdir(src, { withFileTypes: true });
  await Promise.all(entries.map(async (e) => {
    const from = join(src, e.name);
    const to = join(dst, e.name);
    if (e.isDirectory()) return copyFolder(from, to, (await lstat(from)).mode, opts);
    if (e.isSymbolicLink()) return place(to, opts, async () => symlink(await readlink(from), to));
    if (e.isFile()) return place(to, opts, () => copyFile(from, to, constants.COPYFILE_EXCL).then(() => keepPythonSourceTime(from, to)));
    throw new CopyTreeError(`cannot copy ${from}: not a file, folder or symbolic link`);
  }));
  // A folder made here takes the source's mode after its entries are in (a
  // read-only one still receives them); a folder already there keeps its own, as with cp.
  if (made) await chmod(dst, mode & 0o7777);
}

/**
 * A Python source keeps its modification time: the .pyc beside it records
 * that time, and a copy with a new one makes Python compile the module again
 * at every import (it may not write the .pyc back). A copied venv's pip then
 * cost 0.8 s more CPU per run (1.6 s against 0.8 s for an install). Only
 * sources: other files' times matter to nothing here, and each is two more
 * system calls.
 */
async function keepPythonSourceTime(from: string, to: string): Promise<void> {
  if (!from.endsWith('.py')) return;
  const { atime, mtime } = await stat(from);
  await utimes(to, atime, mtime);
}

/** Writes a new entry; with overwrite, one already there (even a link to elsewhere) is removed first, never written through. */
async function place(to: string, opts: CopyTreeOptions, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !opts.overwrite) throw err;
    await unlink(to);
    await write();
  }
}
