import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { MARKER_VAR } from '../../../lib/python-apps/marker.js';

// What /proc says about processes: a process is identified by its pid AND
// its start time (pids are reused), and everything a daemon spawns carries
// the daemon's marker in its environment (lib/python-apps/marker.ts). Linux
// only; elsewhere every reader answers "unknown" and only process groups are used.

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat). */
  start: number;
  zombie: boolean;
}

// A sweep reads the stat line of every process on the machine (hundreds while
// a fleet runs its apps): one open, read and close into a shared buffer, not
// readFileSync's fstat and new buffer per file.
const statBuffer = Buffer.alloc(4096);

function readStat(pid: number): string {
  const fd = openSync(`/proc/${pid}/stat`, 'r');
  try {
    return statBuffer.toString('latin1', 0, readSync(fd, statBuffer, 0, statBuffer.length, 0));
  } finally {
    closeSync(fd);
  }
}

export function procInfo(pid: number): ProcInfo | null {
  try {
    const stat = readStat(pid);
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(f[1]), pgid: Number(f[2]), start: Number(f[19]), zombie: f[0] === 'Z' };
  } catch {
    return null;
  }
}

/** The process that was recorded (same pid, same start time) is still there and not a zombie. */
export function sameProcessAlive(pid: number, start: number): boolean {
  const p = procInfo(pid);
  return p !== null && !p.zombie && p.start === start;
}

function allPids(): number[] {
  try {
    return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return [];
  }
}

/** The process's environment has MARKER_VAR set to marker or to marker + '/…'. */
function hasMarker(pid: number, marker: string): boolean {
  const exact = `${MARKER_VAR}=${marker}`;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((v) => v === exact || v.startsWith(`${exact}/`));
  } catch {
    return false;
  }
}

export interface Sweep {
  marker?: string;
  pgid?: number;
  root?: number;
  /**
   * The start time (procInfo's `start`) of the oldest process the set can
   * hold, when known: an app's group, descendants and marker carriers all
   * started after the app. Older processes are passed over without reading
   * their environment, the costly part of a sweep.
   */
  since?: number;
}

/**
 * For each set: the live processes that carry its marker, are in its group,
 * or descend from its root; all from one reading of the process table.
 */
function processesOfEach(sets: Sweep[]): number[][] {
  const since = Math.min(...sets.map((s) => s.since ?? 0));
  const infos = allPids().map(procInfo).filter((p): p is ProcInfo => p !== null && !p.zombie && p.pid !== process.pid && p.start >= since);
  const children = new Map<number, number[]>();
  for (const p of infos) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  return sets.map((opts) => {
    const out = new Set<number>();
    for (const p of infos) {
      if (p.start < (opts.since ?? 0)) continue;
      if ((opts.pgid && p.pgid === opts.pgid) || (opts.marker && hasMarker(p.pid, opts.marker))) out.add(p.pid);
    }
    const queue = opts.root ? [opts.root] : [];
    for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
      for (const c of children.get(pid) ?? []) if (!out.has(c)) { out.add(c); queue.push(c); }
    }
    return [...out];
  });
}

/** SIGKILL every process of the set until none is left (a dying parent may still fork). */
export function killAll(opts: Sweep): number {
  return killAllOf([opts]);
}

/** killAll for several sets, each round reading the process table once for all of them. */
export function killAllOf(sets: Sweep[]): number {
  let killed = 0;
  let left = sets;
  for (let round = 0; round < 10 && left.length > 0; round++) {
    for (const opts of left) if (opts.pgid) try { process.kill(-opts.pgid, 'SIGKILL'); } catch { /* ESRCH: group gone */ }
    const found = processesOfEach(left);
    left = left.filter((_, i) => (found[i] ?? []).length > 0);
    for (const pid of new Set(found.flat())) {
      try { process.kill(pid, 'SIGKILL'); killed++; } catch { /* gone meanwhile */ }
    }
  }
  return killed;
}
