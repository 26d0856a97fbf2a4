import t from 'tap';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFile, stat, readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireLock, breakLock, isStale, LockError, lockPath, readLock } from '../../state/lock.js';

// Lock contention in one process and across processes, stale locks, and the
// explicit break.

const holderScript = fileURLToPath(new URL('./lock-holder.ts', import.meta.url));

function startHolder(statePath: string): Promise<{ child: ChildProcessWithoutNullStreams; pid: number }> {
  // The test's TypeScript loader (.taprc's ts-cache hook; tap's own on a first run after npm ci).
  const loader = process.execArgv.filter((a) => /ts-cache\.mjs|typescript/.test(a));
  const child = spawn(process.execPath, [...loader, holderScript, statePath], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /locked (\d+)/.exec(out);
      if (m) resolve({ child, pid: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

async function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}

t.test('the lock file says who holds it, mode 0600', async (t) => {
  const sp = join(t.testdir(), '.robotctl', 'state.json');
  const lock = await acquireLock(sp, { timeoutMs: 0, operation: 'import' });
  const info = await readLock(sp);
  t.match(info, { pid: process.pid, host: hostname(), operation: 'import', time: /^\d{4}-\d\d-\d\dT/ });
  t.equal((await stat(lockPath(sp))).mode & 0o777, 0o600);
  await lock.release();
  t.equal(await readLock(sp), null);
  t.same((await readdir(join(sp, '..'))).filter((f) => f.endsWith('.tmp')), [], 'no temp files');
});

t.test('a second acquirer fails fast naming the holder', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const first = await acquireLock(sp, { timeoutMs: 0 });
  const err = await acquireLock(sp, { timeoutMs: 0 }).catch((e: unknown) => e);
  t.type(err, LockError);
  t.match((err as Error).message, new RegExp(`^state is locked by pid ${process.pid} on host ${hostname()} since \\S+ \\(apply\\)`));
  t.equal((err as LockError).exitCode, 1);
  await first.release();
});

t.test('a second acquirer waits for the release', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const first = await acquireLock(sp, { timeoutMs: 0 });
  let released = false;
  setTimeout(() => { released = true; void first.release(); }, 80);
  const second = await acquireLock(sp, { timeoutMs: 30_000, pollMs: 10 });
  t.ok(released, 'acquired only after the release');
  t.equal((await readLock(sp))?.token, second.info.token);
  await second.release();
});

t.test('a lock held by another process: fail with its pid, or wait for its release', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const { child, pid } = await startHolder(sp);
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  child.removeAllListeners('exit');
  const err = await acquireLock(sp, { timeoutMs: 150, pollMs: 20 }).catch((e: unknown) => e);
  t.type(err, LockError);
  t.match((err as Error).message, `state is locked by pid ${pid} on host ${hostname()}`);
  t.match((err as Error).message, /raise --lock-timeout/);
  t.equal((err as LockError).stale, false);

  const waiting = acquireLock(sp, { timeoutMs: 10_000, pollMs: 20 });
  child.stdin.end();
  const lock = await waiting;
  t.equal((await readLock(sp))?.pid, process.pid);
  await lock.release();
  await exited(child);
});

t.test('a dead holder\'s lock on this host is broken automatically, with one line that says so', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const dead = spawn(process.execPath, ['-e', '']);
  await once(dead, 'exit');
  const pid = dead.pid ?? 0;
  await writeFile(lockPath(sp), JSON.stringify({ pid, host: hostname(), time: new Date().toISOString(), operation: 'apply', token: 'x' }));
  const holder = await readLock(sp);
  t.ok(holder && isStale(holder), 'a dead holder is stale');
  const notes: string[] = [];
  const mine = await acquireLock(sp, { timeoutMs: 0, onNote: (l) => notes.push(l) });
  t.equal(notes.length, 1);
  t.match(notes[0], new RegExp(`^Broke the stale state lock of pid ${pid} on host ${hostname()} \\(apply since .*\\): that process no longer runs\\.$`));
  t.equal((await readLock(sp))?.token, mine.info.token);
  await mine.release();
  t.same((await readdir(join(sp, '..'))).filter((f) => f.endsWith('.broken')), [], 'nothing left aside');
});

t.test('racing waiters break a dead lock once: exactly one of them holds it', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const dead = spawn(process.execPath, ['-e', '']);
  await once(dead, 'exit');
  await writeFile(lockPath(sp), JSON.stringify({ pid: dead.pid, host: hostname(), time: new Date().toISOString(), operation: 'apply', token: 'x' }));
  const results = await Promise.allSettled(Array.from({ length: 6 }, () => acquireLock(sp, { timeoutMs: 0 })));
  const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>> => r.status === 'fulfilled');
  t.equal(won.length, 1, 'one winner');
  t.equal((await readLock(sp))?.token, won[0]?.value.info.token);
  await won[0]?.value.release();
});

t.test('a lock held by another host is never broken silently', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  await writeFile(lockPath(sp), JSON.stringify({ pid: 1, host: `not-${hostname()}`, time: new Date().toISOString(), operation: 'apply', token: 'x' }));
  const err = await acquireLock(sp, { timeoutMs: 0 }).catch((e: unknown) => e);
  t.match((err as Error).message, `state is locked by pid 1 on host not-${hostname()}`);
  t.ok(await readLock(sp), 'still there');
  t.match(await breakLock(sp), { pid: 1 }, 'only broken on request');
});

t.test('a holder on another host is never called stale', (t) => {
  t.equal(isStale({ pid: 1, host: `not-${hostname()}`, time: '', operation: 'apply', token: '' }), false);
  t.end();
});

t.test('release after a forced break does not remove the new holder', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const old = await acquireLock(sp, { timeoutMs: 0 });
  await breakLock(sp);
  const fresh = await acquireLock(sp, { timeoutMs: 0 });
  await old.release();
  t.equal((await readLock(sp))?.token, fresh.info.token);
  await fresh.release();
  t.equal(await breakLock(sp), null, 'breaking no lock is fine');
  t.notOk(await readFile(lockPath(sp)).catch(() => null));
});
