import t from 'tap';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startFaultProxy, type Decide, type FaultProxy } from '../helpers/fault-proxy.js';
import { runInProcess } from '../helpers/cli.js';
import { USER, env, writeYaml } from '../e2e/helpers.js';

// plan, diff and status ask the hub for its webhooks before robot.yaml is
// read (cli/session/prefetch.ts). Through a proxy that counts and can hold
// requests: one list per command, the list used only for the hub the file
// names, dropped at once when the file is broken, and never asked before the
// file is loaded when its endpoint needs a ${VAR}.

let hub: RunningHub;
let proxy: FaultProxy;
let decide: Decide = () => null;

t.before(async () => {
  hub = await startHub({ users: [USER] });
  proxy = await startFaultProxy(hub.url, (req, body) => decide(req, body));
});
t.teardown(async () => {
  await proxy.close();
  await hub.close();
});

/** Each test starts with a proxy that forwards everything and has seen nothing. */
function fresh(): void {
  decide = () => null;
  proxy.seen.length = 0;
}

const lists = (): number => proxy.seen.filter((s) => s.method === 'GET' && s.url === '/api/settings/webhooks').length;

function hooks(n: number, head = 'version: 1'): string {
  const lines = [head, 'webhooks:'];
  for (let i = 0; i < n; i++) lines.push(`  hook-${i}:`, `    url: https://example.org/prefetch/${i}`, '    watched: [user:alice]', '    secret: ${WEBHOOK_SECRET}');
  return `${lines.join('\n')}\n`;
}

t.test('plan, diff and status list the hub once each, and plan what the hub holds', async (t) => {
  fresh();
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hooks(3));
  for (const command of ['plan', 'diff', 'status']) {
    proxy.seen.length = 0;
    const r = await runInProcess([command, '-f', 'robot.yaml'], { env: env(proxy.url), cwd: dir });
    t.equal(r.code, command === 'status' ? 0 : 2, `${command}: ${r.stderr}`);
    t.equal(lists(), 1, `${command}: one list call`);
  }
  const plan = await runInProcess(['plan', '-f', 'robot.yaml'], { env: env(proxy.url), cwd: dir });
  t.match(plan.stdout, /^Plan: 3 to create, 0 to update, 0 to delete/m, 'three webhooks to create');
});

t.test('a broken robot.yaml: the list asked early is dropped, no wait for a hub that never answers', async (t) => {
  fresh();
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hooks(2).replace('watched: [user:alice]', 'colour: blue\n    watched: [user:alice]'));
  let asked!: () => void;
  const listAsked = new Promise<void>((resolve) => { asked = resolve; });
  decide = (req) => {
    if (req.url !== '/api/settings/webhooks') return null;
    asked();
    return { kind: 'hang' };
  };
  const r = await runInProcess(['plan', '-f', 'robot.yaml'], { env: env(proxy.url), cwd: dir });
  await listAsked;
  t.equal(r.code, 1);
  t.match(r.stderr, /robot\.yaml:\d+:\d+: webhooks\.hook-0: unknown key colour|colour/, 'the file\'s own diagnostic');
  t.equal(lists(), 1, 'the list had been asked before the file was read');
});

t.test('the file names the hub: the list is asked there; a ${VAR} endpoint waits for the file', async (t) => {
  fresh();
  const dir = t.testdir();
  const bare = { ...env(proxy.url), HF_ENDPOINT: '' };
  writeYaml(dir, 'robot.yaml', hooks(2, `version: 1\nhub:\n  endpoint: ${proxy.url}`));
  const named = await runInProcess(['diff', '-f', 'robot.yaml'], { env: bare, cwd: dir });
  t.equal(named.code, 2, named.stderr);
  t.equal(lists(), 1, 'one list, at the endpoint robot.yaml names');
  proxy.seen.length = 0;
  // With a ${VAR} endpoint the hub is known only once the file is loaded; a
  // broken file then sends the token nowhere.
  writeYaml(dir, 'robot.yaml', hooks(2, 'version: 1\nhub:\n  endpoint: ${HUB_URL}').replace('watched: [user:alice]', 'colour: blue\n    watched: [user:alice]'));
  const broken = await runInProcess(['plan', '-f', 'robot.yaml'], { env: { ...bare, HUB_URL: proxy.url }, cwd: dir });
  t.equal(broken.code, 1);
  t.equal(proxy.seen.length, 0, 'no request before the file was read');
  writeYaml(dir, 'robot.yaml', hooks(2, 'version: 1\nhub:\n  endpoint: ${HUB_URL}'));
  const later = await runInProcess(['plan', '-f', 'robot.yaml'], { env: { ...bare, HUB_URL: proxy.url }, cwd: dir });
  t.equal(later.code, 2, later.stderr);
  t.equal(lists(), 1, 'listed once the file was loaded');
});

t.test('apply lists only after it holds the state lock: still one list, nothing prefetched', async (t) => {
  fresh();
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hooks(2));
  const r = await runInProcess(['apply', '-f', 'robot.yaml', '--yes'], { env: env(proxy.url), cwd: dir });
  t.equal(r.code, 0, r.stderr);
  t.equal(lists(), 1);
  const again = await runInProcess(['diff', '-f', 'robot.yaml'], { env: env(proxy.url), cwd: dir });
  t.equal(again.code, 0, `converged: ${again.stdout}`);
});
