import type { Test } from 'tap';
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHubClient } from '../../drivers/hub/client.js';
import { runCli } from '../helpers/cli.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { until } from '../helpers/wait.js';
import { SECRET, USER, env, spawnCli, writeYaml, type Child } from './helpers.js';

// Two `robotctl apply` runs of the same robot.yaml on a shared state backend
// (hub dataset, PostgreSQL table), through the built CLI. The first apply's
// webhook creations are held at a gate (a proxy in front of the embedded
// hub), so it provably holds the state lock while the others start: one with
// --lock-timeout 0s fails at once naming it, one with --lock-timeout 60s
// waits, then finds nothing left to do. Then: one webhook per name, and a
// fresh folder (another runner) sees no difference. The three applies name
// the backend the three ways: the state: block, --state, ROBOTCTL_STATE. The webhook URLs are a
// closed loopback port: the state's commits fire deliveries, and a URL that
// needs DNS makes them (and the hub's close) wait on a machine with no network.

export interface SharedStateCase {
  hubUrl: string;
  /** The robot.yaml `state:` block (one line). */
  stateBlock: string;
  /** The same backend as a --state / ROBOTCTL_STATE spec. */
  spec: string;
  /** Unique per case: in the webhook URLs and the folder names. */
  tag: string;
  hooks: number;
  /** Resolves once the waiting apply (pid, its hub traffic) is trying to take the lock. */
  waitingForLock(pid: number, seen: () => IncomingMessage[]): Promise<void>;
}

export interface SharedStateRun {
  first: Child;
  waiter: Child;
  /** Output of every run, to check that no secret was printed. */
  outputs: string[];
}

const robotYaml = (c: SharedStateCase): string => {
  const hooks = Array.from({ length: c.hooks }, (_, i) =>
    `  hook-${i}:\n    url: http://127.0.0.1:9/${c.tag}/${i}\n    watched: [user:${USER.name}]\n    secret: \${WEBHOOK_SECRET}\n`).join('');
  return `version: 1\nstate: ${c.stateBlock}\nwebhooks:\n${hooks}`;
};

const isCreate = (req: IncomingMessage): boolean => req.method === 'POST' && (req.url ?? '').startsWith('/api/settings/webhooks');

/** A proxy to the hub that holds webhook creations until open(); `held` counts them. */
async function gatedHub(t: Test, hubUrl: string): Promise<{ proxy: FaultProxy; held: () => number; open: () => void }> {
  let open: () => void = () => {};
  const gate = new Promise<null>((r) => { open = () => r(null); });
  let held = 0;
  const proxy = await startFaultProxy(hubUrl, (req) => {
    if (!isCreate(req)) return null;
    held += 1;
    return gate;
  });
  t.teardown(() => { open(); return proxy.close(); });
  return { proxy, held: () => held, open };
}

/** A pass-through proxy that records each request as it arrives. */
async function watchedHub(t: Test, hubUrl: string): Promise<{ proxy: FaultProxy; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const proxy = await startFaultProxy(hubUrl, (req) => { seen.push(req); return null; });
  t.teardown(() => proxy.close());
  return { proxy, seen };
}

export async function webhooksTagged(hubUrl: string, tag: string): Promise<{ id: string; url: string | null }[]> {
  const client = createHubClient({ endpoint: hubUrl, token: USER.token });
  try {
    return (await client.listWebhooks()).filter((h) => h.url?.includes(`/${tag}/`)).map((h) => ({ id: h.id, url: h.url ?? null }));
  } finally {
    await client.close();
  }
}

export async function twoApplies(t: Test, c: SharedStateCase): Promise<SharedStateRun> {
  const dir = t.testdir({ 'robot.yaml': robotYaml(c) });
  const outputs: string[] = [];
  const gated = await gatedHub(t, c.hubUrl);
  const first = spawnCli(['apply', '-f', 'robot.yaml', '--yes'], { env: env(gated.proxy.url), cwd: dir });
  t.teardown(() => { if (first.proc.exitCode === null) first.proc.kill('SIGKILL'); });
  await until(() => gated.held() > 0 || first.proc.exitCode !== null, 30_000, () => `the first apply's webhook creations:\n${first.stdout()}${first.stderr()}`);
  t.ok(gated.held() > 0, 'the first apply holds the lock and is creating webhooks');

  const fast = await runCli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '0s', '--state', c.spec], { env: env(c.hubUrl), cwd: dir });
  outputs.push(fast.stdout, fast.stderr);
  t.equal(fast.code, 1, 'with --lock-timeout 0s the second apply fails at once');
  t.match(fast.stderr, new RegExp(`state is locked by pid ${first.proc.pid} on host \\S+ since \\S+ \\(apply\\)(, lease until \\S+)?; gave up after 0s: try again later or raise --lock-timeout`), 'naming the holder');
  t.notMatch(fast.stdout, /will be created|created/, 'it planned and did nothing');

  const watched = await watchedHub(t, c.hubUrl);
  const waiter = spawnCli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '60s'], { env: env(watched.proxy.url, { ROBOTCTL_STATE: c.spec }), cwd: dir });
  t.teardown(() => { if (waiter.proc.exitCode === null) waiter.proc.kill('SIGKILL'); });
  await c.waitingForLock(waiter.proc.pid ?? 0, () => watched.seen);
  t.equal(waiter.proc.exitCode, null, 'a third apply waits for the lock');
  t.notOk(watched.seen.some(isCreate), 'and changes nothing while it waits');
  t.same(await webhooksTagged(c.hubUrl, c.tag), [], 'nothing reached the hub yet: the first apply is held at the gate');

  gated.open();
  t.equal(await first.exited, 0, `the first apply converges: ${first.stderr()}`);
  t.equal(await waiter.exited, 0, `the waiting apply converges: ${waiter.stderr()}`);
  outputs.push(first.stdout(), first.stderr(), waiter.stdout(), waiter.stderr());
  t.equal((first.stdout().match(/: created/g) ?? []).length, c.hooks, 'the first apply created every webhook');
  t.match(waiter.stdout(), /No changes/, 'the waiting one planned after the first had finished: nothing left to do');
  const hooks = await webhooksTagged(c.hubUrl, c.tag);
  t.equal(hooks.length, c.hooks, 'one webhook per name on the hub');
  t.equal(new Set(hooks.map((h) => h.url)).size, c.hooks, 'no duplicate');

  const elsewhere = mkdtempSync(join(tmpdir(), `robotctl-${c.tag}-`));
  t.teardown(() => rmSync(elsewhere, { recursive: true, force: true }));
  writeYaml(elsewhere, 'robot.yaml', robotYaml(c));
  const diff = await runCli(['diff', '-f', 'robot.yaml'], { env: env(c.hubUrl), cwd: elsewhere });
  outputs.push(diff.stdout, diff.stderr);
  t.equal(diff.code, 0, `another folder (a fresh runner) sees no drift: ${diff.stdout}${diff.stderr}`);
  t.notOk(outputs.some((o) => o.includes(SECRET)), 'the webhook secret is never printed');
  return { first, waiter, outputs };
}
