import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { faultsOncePerRequest, startFaultProxy, type Decide, type FaultProxy } from '../helpers/fault-proxy.js';
import { SECRET, USER, env, writeYaml } from './helpers.js';

// One `robotctl apply` against a hub that fails 20% of its distinct requests,
// each at most once (500 before the work, 500 after it, reset, lost answer,
// 429 with Retry-After), converges in that one run with no duplicate webhook; a persistent 503 costs a bounded
// number of requests (one retry layer, not two). The fault proxy sits in front
// of the embedded hub; the CLI only knows the proxy's URL.

let hub: RunningHub;
const outputs: string[] = [];

t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

function hooksYaml(tag: string, n: number): string {
  const hooks = Array.from({ length: n }, (_, i) =>
    `  hook-${i}:\n    url: https://example.org/${tag}/${i}\n    watched: [user:alice]\n    secret: \${WEBHOOK_SECRET}\n${i % 7 === 3 ? '    enabled: false\n' : ''}`).join('');
  return `version: 1\nwebhooks:\n${hooks}`;
}

async function behind(t: Test, decide: Decide): Promise<FaultProxy> {
  const proxy = await startFaultProxy(hub.url, decide);
  t.teardown(() => proxy.close());
  return proxy;
}

async function cli(args: string[], dir: string, endpoint: string): Promise<CliResult> {
  const r = await runCli(args, { env: env(endpoint), cwd: dir, timeoutMs: 120_000 });
  outputs.push(r.stdout, r.stderr);
  return r;
}

/** Two runs whose faults, together, hit creates with every kind (checked below). */
const SEEDS = [2, 3];

/** Faults that met a create, over every run of this file. */
const createFaults = new Set<string | null>();

const hooksOf = (tag: string) => hub.data().webhooks.filter((w) => w.url?.includes(`/${tag}/`));

for (const seed of SEEDS) {
  t.test(`seed ${seed}: one apply of 30 webhooks converges through 20% faults, no duplicate`, async (t) => {
    const dir = t.testdir();
    const tag = `faults-${seed}`;
    writeYaml(dir, 'robot.yaml', hooksYaml(tag, 30));
    const proxy = await behind(t, faultsOncePerRequest(0.2, seed));
    const r = await cli(['apply', '-f', 'robot.yaml', '--yes'], dir, proxy.url);
    const faults = proxy.seen.filter((s) => s.fault !== null);
    for (const s of proxy.seen) if (s.method === 'POST' && s.url === '/api/settings/webhooks') createFaults.add(s.fault);
    if (r.code !== 0) t.comment(r.stdout, r.stderr);
    t.equal(r.code, 0, `apply exits 0 (${faults.length} faults in ${proxy.seen.length} requests)`);
    t.ok(faults.length >= 5, 'faults were injected');
    const hooks = hooksOf(tag);
    t.equal(hooks.length, 30, 'every webhook exists');
    t.equal(new Set(hooks.map((h) => h.url)).size, 30, 'no duplicate');
    t.equal(hooks.filter((h) => h.disabled).length, 4, 'the disabled ones were disabled');
    const state = JSON.parse(readFileSync(join(dir, '.robotctl', 'state.json'), 'utf8')) as { webhooks: Record<string, { id: string }> };
    t.same(Object.values(state.webhooks).map((w) => w.id).sort(), hooks.map((h) => h.id).sort(), 'the state owns exactly them');
    const again = await cli(['diff', '-f', 'robot.yaml'], dir, hub.url);
    t.equal(again.code, 0, 'nothing left to do');
  });
}

t.test('the runs above met every kind of fault on creates, including work done and answer lost', async (t) => {
  for (const kind of ['lost', 'late500', 'reset', 'status']) t.ok(createFaults.has(kind), `a create met "${kind}"`);
});

t.test('a persistent 503 on creates: 5 requests per create (1 + 4 retries), never 15', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hooksYaml('down', 1));
  const proxy = await behind(t, (req) => (req.method === 'POST' ? { kind: 'status', status: 503 } : null));
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes'], dir, proxy.url);
  t.equal(r.code, 1, 'apply fails');
  t.match(r.stdout + r.stderr, /503/);
  const creates = proxy.seen.filter((s) => s.method === 'POST').length;
  t.equal(creates, 5, '1 + 4 retries');
  t.equal(proxy.seen.filter((s) => s.method === 'GET' && s.url === '/api/settings/webhooks').length, 1 + 4,
    'one observation list, then one list before each repeated create');
  t.equal(hooksOf('down').length, 0);
});

t.test('no secret in any output', async (t) => {
  for (const o of outputs) t.notMatch(o, SECRET);
  t.ok(outputs.length > 0);
});
