import { readFileSync } from 'node:fs';

// Child processes of a test (apps run detached in their own group, as the
// daemon runs them): is one still there, and the cleanup that kills a group.

/** A zombie (dead, not yet reaped by init in a container) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kill a detached process's whole group (cleanup; ignores "already gone"). */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
}
