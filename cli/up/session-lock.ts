import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../lib/errors.js';
import { pidAlive as alive } from '../../lib/pid-alive.js';

// One `up` per data folder. The lock is taken before anything in the folder is
// touched (token, hub data, robots), so a second `up` leaves the first intact.
// A lock whose pid is gone (a killed up) is taken over.

const LOCK = 'up.lock';

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes `<data>/up.lock` for this process; returns its release. */
export function lockUpData(data: string): () => void {
  const file = join(data, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => { if (holder(file) === process.pid) rmSync(file, { force: true }); };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = holder(file);
      if (pid !== null && pid !== process.pid && alive(pid)) {
        throw new UserError(`another robotctl up (pid ${pid}) is running with data in ${data}: stop it (Ctrl-C) first, or pass --data for a separate session`);
      }
      rmSync(file, { force: true }); // left by an up that was killed
    }
  }
  throw new UserError(`cannot take the lock ${file}`);
}
