import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { openStore } from '../../state/open.js';
import { parseSpec } from '../../state/spec.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { fileScratch } from '../helpers/file-scratch.js';

// kill -9 of a process that holds the state lock, on each backend, then a
// run that proceeds without a person: the local lock names a dead pid on this
// host (broken, one line says so), the PostgreSQL session is closed by the
// server, the hub lease expires and is taken over (one line says so).

const holderScript = fileURLToPath(new URL('./store-holder.ts', import.meta.url));
const USER = { name: 'alice', token: 'hf_alice_kill_token_0123456789' };
const noPg = postgresMissing();

let hub: RunningHub;
let pg: TestPostgres | null = null;
// The local state's folder: the holder process creates the file in it.
const scratch = fileScratch('kill-holder');
t.before(async () => {
  hub = await startHub({ users: [USER] });
  if (!noPg) pg = await startPostgres();
});
t.teardown(async () => {
  await hub.close();
  await pg?.stop();
  scratch.remove();
});

function startHolder(spec: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // The test's TypeScript loader (.taprc's ts-cache hook; tap's own on a first run after npm ci).
  const loader = process.execArgv.filter((a) => /ts-cache\.mjs|typescript/.test(a));
  const child = spawn(process.execPath, [...loader, holderScript, spec], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout?.on('data', (d: Buffer) => { out += d.toString(); if (/locked \d+/.test(out)) resolve(child); });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

async function killNine(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  const gone = once(child, 'exit');
  child.kill('SIGKILL');
  await gone;
}

const cases: [string, () => string, NodeJS.ProcessEnv, RegExp | null, string | false][] = [
  ['local', () => join(scratch.dir, 'state.json'), {}, /^Broke the stale state lock of pid \d+ on host \S+ \(apply since \S+\): that process no longer runs\.$/, false],
  ['postgres', () => pg?.url ?? '', {}, null, noPg ?? false],
  // On this host the dead pid is seen at once; from another host the lease's expiry decides (backends.test.ts).
  ['hub', () => 'hub:alice/killed-state', {}, /^Took over the state lock of pid \d+ on host \S+ \(apply since \S+\): that process no longer runs\.$/, false],
];

for (const [kind, specOf, extra, note, skip] of cases) {
  t.test(`${kind}: kill -9 of the holder, then the next run takes the lock by itself`, { skip }, async (t) => {
    const spec = specOf();
    const env = { ...extra, HF_TOKEN: USER.token, HF_ENDPOINT: hub.url, LEASE_MS: '1500' };
    const child = await startHolder(spec, env);
    t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    const parsed = parseSpec(spec, process.cwd(), 'test');
    const store = await openStore(parsed.backend === 'hub' ? { ...parsed, leaseMs: 1500 } : parsed, { env });
    t.teardown(() => store.close());
    t.match(await store.holder(), { pid: child.pid }, 'the holder is named');
    await t.rejects(store.lock({ timeoutMs: 0 }), new RegExp(`locked by pid ${child.pid}`), 'while it lives, the lock holds');
    await killNine(child);
    const notes: string[] = [];
    const lock = await store.lock({ timeoutMs: 20_000, pollMs: 100, onNote: (l) => notes.push(l) });
    t.equal(lock.info.pid, process.pid, 'taken without a person');
    if (note) t.match(notes, [note], 'one line says what was healed');
    else t.same(notes, [], 'a closed session needs no note: the server freed the lock');
    await lock.release();
  });
}
