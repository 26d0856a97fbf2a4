import { open, readdir, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

// One way to replace a file so that a kill or a power loss at any moment
// leaves either the old or the new content: a temp file in the same folder,
// fsync, rename over, fsync the folder. Used for the state file, the token
// file, the embedded hub's store and the daemon's app records and .pth switch.

const TMP_MARK = '.tmp-';

export async function atomicWrite(file: string, data: string | Buffer, mode = 0o600): Promise<void> {
  const tmp = `${file}${TMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dirname(file));
}

/** fsync a folder, so that a file created or renamed in it stays after a power loss. */
export async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; some filesystems refuse, which is harmless.
  try {
    const fh = await open(dir, 'r');
    try { await fh.sync(); } finally { await fh.close(); }
  } catch { /* best effort */ }
}

/** Remove temp files a killed writer left behind in dir (they are never read). */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[];
  try { names = await readdir(dir); } catch { return; }
  await Promise.all(names.filter((n) => n.includes(TMP_MARK)).map((n) => rm(join(dir, n), { force: true })));
}
