import { open, rename, rm, readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

const TMP_MARK = '.tmp-';

/**
 * Write a file so that a kill at any moment leaves either the old or the new
 * content: temp file in the same folder, fsync, rename over, fsync the folder.
 */
export async function atomicWrite(file: string, data: string | Buffer, mode = 0o600): Promise<void> {
  const tmp = `${file}${TMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  const fh = await open(tmp, 'w', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; some filesystems refuse, which is harmless.
  try {
    const fh = await open(dir, 'r');
    try { await fh.sync(); } finally { await fh.close(); }
  } catch { /* best effort */ }
}

/** Remove temp files a killed writer left behind (they are never read). */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[];
  try { names = await readdir(dir); } catch { return; }
  await Promise.all(names.filter((n) => n.includes(TMP_MARK)).map((n) => rm(join(dir, n), { force: true })));
}

export function isTempName(file: string): boolean {
  return basename(file).includes(TMP_MARK);
}

/**
 * Serialises writes and coalesces bursts: every caller's promise resolves once
 * a write that started after its call has finished.
 */
export class CoalescingWriter {
  private queued: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly write: () => Promise<void>) {}

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.tail.catch(() => {}).then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = next;
    this.tail = next;
    return next;
  }
}
