import { copyState, type StateChange, type StateJournal } from './journal.js';
import type { StateFile } from './types.js';

// The StateJournal of a remote backend (hub dataset, PostgreSQL), where one
// write is a commit or a transaction of the whole state: the changes stay in
// this process and the state is written every `maxPending` actions or
// `maxDelayMs` after the first unwritten one, in the background (actions go
// on meanwhile), and at close. A kill -9 loses at most that window's
// records; the next run adopts the identical webhooks it finds (see
// state/README.md). A failed write fails the next record and close.

export interface BatchOptions {
  maxPending?: number;
  maxDelayMs?: number;
  /** Calls `fn` after `ms`; returns a cancel. Tests inject their own clock. */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export const BATCH_MAX_PENDING = 256;
export const BATCH_MAX_DELAY_MS = 1000;

function realTimer(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
}

export function batchedJournal(write: (state: StateFile) => Promise<StateFile>, base: StateFile, o: BatchOptions = {}): StateJournal {
  const maxPending = o.maxPending ?? BATCH_MAX_PENDING;
  const maxDelayMs = o.maxDelayMs ?? BATCH_MAX_DELAY_MS;
  const setTimer = o.setTimer ?? realTimer;
  let stored = base;
  let latest = base;
  let pending = 0;
  let flushing: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;
  let cancelTimer: (() => void) | null = null;

  const disarm = (): void => { cancelTimer?.(); cancelTimer = null; };
  const arm = (): void => { cancelTimer ??= setTimer(flush, maxDelayMs); };
  function flush(): void {
    disarm();
    if (flushing || pending === 0 || failure) return;
    // A copy: the recorder changes its state in place while this write is in flight.
    const snapshot = copyState(latest);
    pending = 0;
    flushing = write(snapshot).then((s) => { stored = s; }, (error: unknown) => { failure = { error }; }).finally(() => {
      flushing = null;
      if (pending >= maxPending) flush();
      else if (pending > 0) arm();
    });
  }
  /** Until everything recorded so far is stored: the write in flight may predate the last record. */
  async function settle(): Promise<void> {
    for (;;) {
      while (flushing) await flushing;
      if (failure) throw failure.error;
      if (pending === 0) return;
      flush();
    }
  }

  return {
    record: async (_change: StateChange, next: StateFile): Promise<void> => {
      if (failure) throw failure.error;
      latest = next;
      pending += 1;
      if (pending >= maxPending) flush();
      else arm();
    },
    recordNow: async (_change: StateChange, next: StateFile): Promise<void> => {
      if (failure) throw failure.error;
      latest = next;
      pending += 1;
      await settle();
    },
    close: async (): Promise<StateFile> => {
      disarm();
      while (flushing) await flushing;
      disarm();
      if (failure) throw failure.error;
      if (pending > 0) {
        pending = 0;
        stored = await write(copyState(latest));
      }
      return stored;
    },
  };
}
