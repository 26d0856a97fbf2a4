import { killAllOf, type Sweep } from './proc.js';

// The sweep made when an app exits (process.ts) reads the stat line of every
// process of the machine: about 10 ms of the daemon's thread with a few
// hundred processes. A fleet switching its app stops a hundred apps within a
// second or so, in one daemon process: sweeps asked for within BATCH_MS of
// each other share one reading of the process table per round.

const BATCH_MS = 10;
const queued: { sweep: Sweep; done: () => void }[] = [];

/** killAll(sweep), done with the other sweeps asked for within a few milliseconds. */
export function sweepSoon(sweep: Sweep): Promise<void> {
  return new Promise((done) => {
    if (queued.push({ sweep, done }) === 1) setTimeout(runQueued, BATCH_MS);
  });
}

function runQueued(): void {
  const batch = queued.splice(0);
  killAllOf(batch.map((b) => b.sweep));
  for (const b of batch) b.done();
}
