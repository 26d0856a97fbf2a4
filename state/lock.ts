import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../lib/errors.js';
import { suggested, type CommandLine } from '../lib/command-line.js';

// `<state>.lock` says who works on a state: pid, host, time, operation. It
// appears atomically and complete (written to a temp file, then hard-linked
// in place, which fails if the lock exists: O_EXCL semantics without the
// window where a reader sees an empty file). A holder that provably died (a
// pid that no longer runs on this host) has its lock broken with one line
// that says so; a live holder, or one on another host, is never broken
// silently: that is `robotctl state unlock --force`.

export interface LockInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  time: string;
  /** What the holder does: apply, import, state… */
  operation: string;
  /** Lets a holder release only its own lock (not one re-taken after a break). */
  token: string;
}

export interface Lock {
  readonly path: string;
  readonly info: LockInfo;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for the holder; 0 = fail at once. */
  timeoutMs: number;
  pollMs?: number;
  operation?: string;
  signal?: AbortSignal;
  /** Told (one line) when a dead holder's lock is broken. */
  onNote?: (line: string) => void;
  /** What the lock is, for that line (default `state lock`). */
  noun?: string;
  /** Called before each attempt to create the lock file; throws to give up (StoreLockOptions.mayWrite). */
  mayWrite?: () => void;
  /** How the user runs robotctl, for the `state unlock --force` advice (StoreLockOptions.command). */
  command?: CommandLine;
}

export class LockError extends UserError {
  readonly holder: LockInfo | null;
  readonly stale: boolean;
  constructor(message: string, holder: LockInfo | null, stale: boolean) {
    super(message, 1);
    this.name = 'LockError';
    this.holder = holder;
    this.stale = stale;
  }
}

export function lockPath(statePath: string): string {
  return `${statePath}.lock`;
}

export async function acquireLock(statePath: string, opts: LockOptions): Promise<Lock> {
  const path = lockPath(statePath);
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    time: new Date().toISOString(),
    operation: opts.operation ?? 'apply',
    token: randomBytes(12).toString('hex'),
  };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + Math.max(0, opts.timeoutMs);
  for (;;) {
    opts.mayWrite?.();
    if (await tryCreate(path, info)) return { path, info, release: () => release(path, info.token) };
    const dead = await breakIfDead(path, info.token);
    if (dead) {
      opts.onNote?.(`Broke the stale ${opts.noun ?? 'state lock'} of pid ${dead.pid} on host ${dead.host} (${dead.operation} since ${dead.time}): that process no longer runs.`);
      continue;
    }
    if (Date.now() >= deadline || opts.signal?.aborted) throw await lockedError(statePath, opts.timeoutMs, opts.command);
    await sleep(Math.min(opts.pollMs ?? 100, Math.max(1, deadline - Date.now())));
  }
}

/** The current holder, or null when the state is not locked. */
export async function readLock(statePath: string): Promise<LockInfo | null> {
  let text: string;
  try {
    text = await readFile(lockPath(statePath), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseLock(text);
}

/** `robotctl state unlock --force`: remove the lock whoever holds it; returns who did. */
export async function breakLock(statePath: string): Promise<LockInfo | null> {
  const holder = await readLock(statePath).catch(() => null);
  await rm(lockPath(statePath), { force: true });
  return holder;
}

/** True when the holder ran on this host and its process is gone. */
export function isStale(info: LockInfo): boolean {
  if (info.host !== hostname() || !Number.isInteger(info.pid) || info.pid <= 0) return false;
  try {
    process.kill(info.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function describeHolder(info: LockInfo): string {
  return `state is locked by pid ${info.pid} on host ${info.host} since ${info.time} (${info.operation})`;
}

async function tryCreate(path: string, info: LockInfo): Promise<boolean> {
  const tmp = `${path}.${info.token}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Remove the lock when its holder is a dead process of this host. Two
 * waiters may see the same dead holder: the lock is moved aside atomically
 * (one rename wins) and put back if what was moved is not that holder's.
 */
async function breakIfDead(path: string, myToken: string): Promise<LockInfo | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  const holder = text === null ? null : parseLock(text);
  if (!holder || !isStale(holder)) return null;
  const aside = `${path}.${myToken}.broken`;
  try {
    await rename(path, aside);
  } catch {
    return null;
  }
  const moved = parseLock(await readFile(aside, 'utf8').catch(() => ''));
  if (moved?.token !== holder.token) await link(aside, path).catch(() => {});
  await rm(aside, { force: true });
  return moved?.token === holder.token ? holder : null;
}

async function release(path: string, token: string): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null || parseLock(text)?.token !== token) return;
  await rm(path, { force: true });
}

async function lockedError(statePath: string, timeoutMs: number, command?: CommandLine): Promise<LockError> {
  const holder = await readLock(statePath).catch(() => null);
  const unlock = suggested(command, 'state unlock --force');
  if (!holder) {
    return new LockError(`state is locked (${lockPath(statePath)} exists but cannot be read); if no robotctl is running, run ${unlock}`, null, false);
  }
  const stale = isStale(holder);
  const advice = stale
    ? `; that process no longer runs, so the lock looks stale: if no robotctl is running, break it with ${unlock}`
    : `; gave up after ${Math.round(timeoutMs / 100) / 10}s: try again later or raise --lock-timeout`;
  return new LockError(describeHolder(holder) + advice, holder, stale);
}

function parseLock(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<LockInfo> | null;
    if (!v || typeof v.pid !== 'number' || typeof v.host !== 'string') return null;
    return { pid: v.pid, host: v.host, time: String(v.time ?? '?'), operation: String(v.operation ?? '?'), token: String(v.token ?? '') };
  } catch {
    return null;
  }
}
