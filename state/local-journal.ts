import { open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError, errorMessage } from '../lib/errors.js';
import { syncDir } from '../lib/atomic-write.js';
import { storeState } from './file.js';
import { headerLine, journalPath } from './journal-file.js';
import { recordCount, type StateChange, type StateJournal } from './journal.js';
import type { StateFile } from './types.js';

// The local backend's StateJournal. A small state (under DIRECT_LIMIT
// records) is rewritten after every action, as it always was: that costs
// about one journal append, and state.json stays current for whoever reads
// it. Past that, every action appends one fsynced line to `<state>.journal`
// (O(1)); the journal is folded into state.json when it reaches a quarter of
// the state (so the rewrites cost O(1) per action amortised) and at close.
// A kill leaves the journal; the next locked read folds it in.
// Group commit: records that arrive while a write is in flight (actions run
// concurrently) are written and fsynced together by the next one; each
// record resolves once its line, or a state holding it, is on disk.

export const DIRECT_LIMIT = 100;
const FOLD_FRACTION = 4;

interface Waiter {
  line: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function localJournal(statePath: string, base: StateFile): StateJournal {
  const path = journalPath(statePath);
  let stored = base;
  /** Records in the state as last stored: what a rewrite costs. */
  let storedCount = recordCount(base);
  let latest = base;
  let fh: FileHandle | null = null;
  let pending = 0;
  let queue: Waiter[] = [];
  let draining: Promise<void> | null = null;

  const fold = async (next: StateFile): Promise<void> => {
    stored = await storeState(statePath, { ...next, serial: stored.serial + 1 });
    storedCount = recordCount(stored);
    pending = 0;
    if (fh) await guard(path, async () => { await fh?.truncate(0); await fh?.write(headerLine(stored)); await fh?.datasync(); });
  };

  // One batch: every line queued so far, made durable by one write and one fsync (or one rewrite).
  const commit = async (batch: Waiter[]): Promise<void> => {
    if (fh === null && storedCount < DIRECT_LIMIT) {
      await fold(latest);
      return;
    }
    fh ??= await startJournal(path, stored);
    const handle = fh;
    await guard(path, async () => { await handle.write(batch.map((w) => w.line).join('')); await handle.datasync(); });
    pending += batch.length;
    if (pending * FOLD_FRACTION >= storedCount) await fold(latest);
  };

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await commit(batch);
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
  };

  const kick = (): void => {
    if (draining) return;
    draining = drain().finally(() => {
      draining = null;
      if (queue.length > 0) kick();
    });
  };

  const record = (change: StateChange, next: StateFile): Promise<void> => {
    latest = next;
    return new Promise<void>((resolve, reject) => {
      queue.push({ line: `${JSON.stringify(change)}\n`, resolve, reject });
      kick();
    });
  };
  return {
    record,
    // Every record here is on disk before it resolves already.
    recordNow: record,
    close: async (): Promise<StateFile> => {
      while (draining) await draining;
      const handle = fh;
      if (handle === null) return stored;
      try {
        if (pending > 0) await fold(latest);
      } finally {
        fh = null;
        await handle.close();
      }
      // Folded: what is left is a header alone (a kill before this rm leaves just that).
      await rm(path, { force: true });
      return stored;
    },
  };
}

async function startJournal(path: string, stored: StateFile): Promise<FileHandle> {
  return guard(path, async () => {
    // Append mode: every write goes to the end, also after a fold truncates.
    const fh = await open(path, 'a', 0o600);
    try {
      await fh.truncate(0);
      await fh.write(headerLine(stored));
      await fh.datasync();
      await syncDir(dirname(path));
      return fh;
    } catch (err) {
      await fh.close();
      throw err;
    }
  });
}

async function guard<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new UserError(`cannot write the state journal ${path}: ${errorMessage(err)}`);
  }
}
