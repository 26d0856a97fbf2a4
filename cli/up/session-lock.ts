import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../lib/errors.js';
import { pidAlive as alive } from '../../lib/pid-alive.js';

// One `up` per configuration folder and one per data folder. Both locks are
// taken before anything is written (the kept secret, the env file, the token,
// the hub's data), so a second `up` leaves the first intact: files beside
// robot.yaml (.robotctl/env, .robotctl/state.json) are shared by every up of
// that folder whatever its --data. A lock whose pid is gone (a killed up) is
// taken over.

const LOCK = 'up.lock';

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes `<dir>/up.lock` for this process; returns its release. `refusal` words the error when a live up holds it. */
export function lockFolder(dir: string, refusal: (pid: number) => string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => { if (holder(file) === process.pid) rmSync(file, { force: true }); };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = holder(file);
      if (pid !== null && pid !== process.pid && alive(pid)) throw new UserError(refusal(pid));
      rmSync(file, { force: true }); // left by an up that was killed
    }
  }
  throw new UserError(`cannot take the lock ${file}`);
}

/** The data folder's lock (hub data, robots' apps, token). */
export function lockUpData(data: string): () => void {
  return lockFolder(data, (pid) => `another robotctl up (pid ${pid}) is running with data in ${data}: stop it (Ctrl-C in its terminal) first, or pass --data for a separate session`);
}
