// Agent failover (issue 13): two `robotctl agent` processes (the built CLI) on
// one shared state, webhooks on the embedded hub. The leader is removed and a
// webhook added to robot.yaml at the same moment; figures: time until the
// standby leads, and until it has converged (the new webhook on the hub).
//   - postgres, kill -9: the server closes the session, the lock is free;
//   - hub, kill -9: the dead pid is seen on this host at the next poll (1 s);
//   - hub, SIGSTOP (as a leader on another host that died: its pid still
//     "runs", nobody renews): the lease (default 10 s) has to expire.
// Target: converged < 15 s. Build first: it runs bin/robotctl.js. Cleans up
// its temp folder, servers and children.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, root } from './lib/measure.mjs';
import { postgresMissing, startPostgres } from './lib/postgres.mjs';
import { figure } from './lib/figures.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const { createHubClient } = await import('../dist/drivers/hub/client.js');

const USER = { name: 'demo', token: 'hf_bench_failover_token_0123456789' };
const bin = join(root, 'bin', 'robotctl.js');

async function until(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function startAgent(file, env, children) {
  const child = spawn(process.execPath, [bin, 'agent', '-f', file, '--receiver-port', '0', '--interval', '600s'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  // Lines are matched after the time stamp the agent starts each with.
  return { child, out: () => out.replace(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /gm, '') };
}

const yaml = (block, tag, hooks) => `version: 1\nstate: ${block}\nwebhooks:\n${hooks.map((h) => `  ${h}: { url: "http://127.0.0.1:9/${tag}/${h}", watched: [user:demo] }`).join('\n')}\n`;

async function scenario(label, { dir, block, signal, env, client, children }) {
  const tag = label.replace(/\W+/g, '-');
  const file = join(dir, `${tag}.yaml`);
  const count = async () => (await client.listWebhooks()).filter((h) => h.url?.includes(`/${tag}/`)).length;
  writeFileSync(file, yaml(block, tag, ['one', 'two']));
  const a = startAgent(file, env, children);
  await until(async () => /^converged$/m.test(a.out()) && (await count()) === 2, 60_000, `${label}: first agent converged`);
  const b = startAgent(file, env, children);
  await until(() => /^standing by: the leader is pid/m.test(b.out()), 60_000, `${label}: second agent stands by`);
  const t0 = performance.now();
  a.child.kill(signal);
  writeFileSync(file, yaml(block, tag, ['one', 'two', 'three']));
  let leads = null;
  await until(async () => {
    if (leads === null && /^leader: /m.test(b.out())) leads = performance.now() - t0;
    return leads !== null && /^converged$/m.test(b.out()) && (await count()) === 3;
  }, 60_000, `${label}: the standby converged`);
  const converged = performance.now() - t0;
  figure({
    name: `agent failover, ${label}: the standby converged a change`, value: Math.round(converged), unit: 'ms',
    target: '< 15000', ok: converged < 15_000, note: `it led after ${Math.round(leads)} ms`,
  });
  for (const x of [a, b]) {
    if (x.child.exitCode !== null || x.child.signalCode === 'SIGKILL') continue;
    x.child.kill('SIGCONT');
    const gone = once(x.child, 'exit');
    x.child.kill('SIGKILL');
    await gone;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-failover-'));
const children = new Set();
const closers = [];
try {
  console.log(`agent-failover (${load()}; shared machine: figures are upper bounds)`);
  const hub = await startHub({ users: [USER], port: 0 });
  closers.push(() => hub.close());
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  closers.push(() => client.close());
  const env = { ...process.env, NO_COLOR: '1', HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, HOME: dir };
  const ctx = { dir, env, client, children };
  const missing = postgresMissing();
  if (missing) console.log(`agent-failover postgres: skipped (${missing})`);
  else {
    const pg = await startPostgres();
    closers.push(() => pg.stop());
    await scenario('postgres kill -9', { ...ctx, block: `{ backend: postgres, url: "${pg.url}", key: failover }`, signal: 'SIGKILL' });
  }
  await scenario('hub kill -9', { ...ctx, block: '{ backend: hub, repo: demo/failover-kill }', signal: 'SIGKILL' });
  await scenario('hub SIGSTOP (lease 10 s expires)', { ...ctx, block: '{ backend: hub, repo: demo/failover-stop }', signal: 'SIGSTOP' });
  console.log(`agent-failover done (${load()})`);
} finally {
  for (const child of children) if (child.exitCode === null) { child.kill('SIGCONT'); child.kill('SIGKILL'); }
  for (const close of closers.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
