import { join } from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import { atomicWrite } from '../../../lib/atomic-write.js';
import { readJson } from '../../../lib/python-apps/files.js';
import { killAll, procInfo, sameProcessAlive } from './proc.js';

// The daemon's durable note of what it runs (<appsDir>/running.json): itself
// (pid + start time) with its marker, and the current app (pid, process
// group, start time). A daemon killed with -9 cannot stop its app; the next
// daemon on the same folder reads the note and stops the whole group, and
// every process still carrying the dead daemon's marker (the app's children,
// even in a new session, and pip), before it serves anything.

export interface RunningApp { name: string; pid: number; pgid: number; start: number }
export interface RunningRecord {
  daemon: { pid: number; start: number };
  marker: string;
  app: RunningApp | null;
}

const FILE = 'running.json';

export async function readRunning(appsDir: string): Promise<RunningRecord | null> {
  const r = (await readJson(join(appsDir, FILE))) as Partial<RunningRecord> | null;
  return r && typeof r.marker === 'string' && r.daemon ? (r as RunningRecord) : null;
}

export async function writeRunning(appsDir: string, r: RunningRecord): Promise<void> {
  await mkdir(appsDir, { recursive: true });
  await atomicWrite(join(appsDir, FILE), `${JSON.stringify(r)}\n`);
}

export async function clearRunning(appsDir: string): Promise<void> {
  await rm(join(appsDir, FILE), { force: true });
}

export function selfIdentity(): { pid: number; start: number } {
  return { pid: process.pid, start: procInfo(process.pid)?.start ?? 0 };
}

/**
 * Stop what a previous daemon on this folder left running. A previous daemon
 * that is still alive in another process is left alone (and named in the log).
 */
export async function reapLeftovers(appsDir: string, log: (l: string) => void): Promise<void> {
  const prev = await readRunning(appsDir);
  if (!prev) return;
  if (prev.daemon.pid !== process.pid && sameProcessAlive(prev.daemon.pid, prev.daemon.start)) {
    log(`Warning: daemon pid ${prev.daemon.pid} still uses ${appsDir}; its apps are left alone`);
    return;
  }
  const app = prev.app;
  const appAlive = app !== null && sameProcessAlive(app.pid, app.start);
  const killed = killAll({ marker: prev.marker, ...(appAlive && app ? { pgid: app.pgid, root: app.pid } : {}) });
  if (appAlive && app) log(`Stopped app '${app.name}' (pid ${app.pid}) left running by a previous daemon (pid ${prev.daemon.pid})`);
  if (killed > 0) log(`Killed ${killed} process(es) left by a previous daemon (pid ${prev.daemon.pid})`);
}
