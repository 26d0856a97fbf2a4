// The state backends side by side (issue 13): local file, a private dataset
// on the embedded hub, a table in a real PostgreSQL (skipped, and said so,
// when the server is not installed). For each:
//   - taking and releasing the state lock (nobody else holds it);
//   - writing and reading a state that owns 1,000 webhooks;
//   - failover: a second process waits for the lock (as `apply --lock-timeout`
//     does, default poll) while the holder is killed with kill -9 → time until
//     the waiter holds it (detection plus up to one poll interval). Local: the dead pid is seen; postgres: the server
//     closes the session; hub: the dead pid on this host is seen at once.
//   - hub only: a holder on another host stops renewing (killed there) → the
//     waiter takes over when the lease expires (worst case: lease just renewed).
// Build first: it imports ../dist. Everything lives in one temp folder; every
// server and child is stopped at the end.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { load, median } from './lib/measure.mjs';
import { postgresMissing, startPostgres } from './lib/postgres.mjs';
import { figure } from './lib/figures.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const { createHubClient } = await import('../dist/drivers/hub/client.js');
const { openStore } = await import('../dist/state/open.js');
const { newState } = await import('../dist/state/file.js');
const { DEFAULT_LEASE_MS } = await import('../dist/state/hub-store.js');

const USER = { name: 'demo', token: 'hf_bench_state_token_0123456789' };
const HOOKS = 1000;
const LOCK_ROUNDS = 20;
const IO_ROUNDS = 7;
const KILL_ROUNDS = 3;
/** How often a waiting lock tries again, by default, per backend (state/lock.ts, postgres-store.ts, hub-lease.ts). */
const POLL_MS = { local: 100, hub: 1000, postgres: 500 };
const holderScript = fileURLToPath(new URL('./lib/store-holder.mjs', import.meta.url));

const fmt = (ms) => `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms`;
const spread = (xs) => `median ${fmt(median(xs))} (min ${fmt(Math.min(...xs))}, max ${fmt(Math.max(...xs))})`;

function bigState() {
  const s = newState();
  for (let i = 0; i < HOOKS; i++) s.webhooks[`hook-${i}`] = { id: `6${String(i).padStart(23, '0')}`, specHash: `sha256:${'ab'.repeat(32)}` };
  return s;
}

async function timed(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return times;
}

/** A child that holds the state lock of `spec`; resolves once it does. */
function startHolder(spec, env, children) {
  const child = spawn(process.execPath, [holderScript, spec], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => { out += d; if (/locked \d+/.test(out)) resolve(child); });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

async function measureBackend(name, spec, openSpec, env, children) {
  const store = await openStore(openSpec, { env, token: USER.token });
  const other = await openStore(openSpec, { env, token: USER.token });
  try {
    const lock = await timed(LOCK_ROUNDS, async () => { const l = await store.lock({ timeoutMs: 0 }); await l.release(); });
    figure({ name: `state lock take + release, ${name}`, value: median(lock), unit: 'ms', note: spread(lock) });
    await store.read();
    let s = bigState();
    const bytes = Buffer.byteLength(JSON.stringify(s, null, 2));
    const writes = await timed(IO_ROUNDS, async () => { s = await store.write(s); });
    const reads = await timed(IO_ROUNDS, async () => { const r = await other.read(); if (Object.keys(r.webhooks).length !== HOOKS) throw new Error('short read'); });
    figure({ name: `state write, ${HOOKS} webhooks (${Math.round(bytes / 1024)} KiB), ${name}`, value: median(writes), unit: 'ms', note: spread(writes) });
    figure({ name: `state read, ${HOOKS} webhooks, ${name}`, value: median(reads), unit: 'ms', note: spread(reads) });
    const kills = [];
    for (let i = 0; i < KILL_ROUNDS; i++) {
      const child = await startHolder(spec, env, children);
      child.removeAllListeners('exit');
      let killed = false;
      let early = false;
      const waiting = other.lock({ timeoutMs: 60_000, operation: 'apply', onNote: () => {} }).finally(() => { early = !killed; });
      waiting.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      // Let the waiter find the lock held and sleep in its poll, as a waiting apply does.
      await sleep(POLL_MS[name] * 1.5);
      const gone = once(child, 'exit');
      killed = true;
      const t0 = performance.now();
      child.kill('SIGKILL');
      await gone;
      children.delete(child);
      const l = await waiting;
      if (early) throw new Error('the waiter got the lock while its holder lived');
      kills.push(performance.now() - t0);
      await l.release();
    }
    figure({
      name: `lock failover, ${name}: holder killed (kill -9) half-way through a waiting apply's ${POLL_MS[name]} ms poll, until the waiter holds the lock`,
      value: median(kills), unit: 'ms', note: spread(kills),
    });
  } finally {
    await store.close();
    await other.close();
  }
}

async function leaseExpiry(hubUrl, env) {
  const repo = `${USER.name}/bench-expiry`;
  const client = createHubClient({ endpoint: hubUrl, token: USER.token });
  const store = await openStore({ backend: 'hub', repo, path: 'state.json', leaseMs: DEFAULT_LEASE_MS, endpoint: hubUrl }, { env, token: USER.token });
  try {
    await client.createRepo('dataset', repo, { private: true });
    const expires = new Date(Date.now() + DEFAULT_LEASE_MS).toISOString();
    const lease = { pid: 4242, host: 'ci-runner-elsewhere', time: new Date().toISOString(), operation: 'apply', token: 'x', expires };
    await client.commit('dataset', repo, [{ op: 'add', path: 'state.json.lock', content: Buffer.from(JSON.stringify(lease)) }], 'a lease from another host');
    const t0 = performance.now();
    const lock = await store.lock({ timeoutMs: 60_000, onNote: () => {} });
    const ms = performance.now() - t0;
    await lock.release();
    figure({
      name: `hub lock failover: the holder on another host stops renewing a just-renewed ${DEFAULT_LEASE_MS / 1000} s lease, until the waiter holds it`,
      value: ms, unit: 'ms', target: '< 15000', ok: ms < 15_000,
    });
  } finally {
    await store.close();
    await client.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-state-'));
const children = new Set();
const closers = [];
try {
  console.log(`state-backends (${load()}; shared machine: figures are upper bounds)`);
  const hub = await startHub({ users: [USER], port: 0 });
  closers.push(() => hub.close());
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token };
  const local = join(dir, 'state.json');
  await measureBackend('local', local, { backend: 'local', path: local }, env, children);
  const repo = `${USER.name}/bench-state`;
  await measureBackend('hub', `hub:${repo}`, { backend: 'hub', repo, path: 'state.json', leaseMs: DEFAULT_LEASE_MS, endpoint: null }, env, children);
  await leaseExpiry(hub.url, env);
  const missing = postgresMissing();
  if (missing) console.log(`state-backends postgres: skipped (${missing})`);
  else {
    const pg = await startPostgres();
    closers.push(() => pg.stop());
    await measureBackend('postgres', pg.url, { backend: 'postgres', url: pg.url, table: 'robotctl_state', key: 'default' }, env, children);
  }
  console.log(`state-backends done (${load()})`);
} finally {
  for (const child of children) child.kill('SIGKILL');
  for (const close of closers.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
