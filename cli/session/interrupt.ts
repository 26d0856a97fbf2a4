import type { Io } from '../../lib/io.js';

// Ctrl-C during an apply: the first one stops scheduling new actions and lets
// those in flight finish and be recorded; a second one aborts them too.

export async function withInterrupts<T>(io: Io, work: (stop: AbortSignal, hard: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const hard = new AbortController();
  const onSignal = (): void => {
    if (!stop.signal.aborted) {
      io.err('\nInterrupt received: finishing the actions in flight, starting no new ones (Ctrl-C again to abort them).\n');
      stop.abort();
    } else if (!hard.signal.aborted) {
      io.err('\nSecond interrupt: aborting the actions in flight.\n');
      hard.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(stop.signal, hard.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
