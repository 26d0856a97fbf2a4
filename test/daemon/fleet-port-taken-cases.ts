import t from 'tap';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot, runCli } from '../helpers/cli.js';
import { spawnCli } from '../e2e/helpers.js';
import { inNamespace } from '../helpers/netns.js';
import { listenMdns } from '../helpers/mdns-listener.js';
import { until } from '../helpers/wait.js';

// Run inside a private network namespace by fleet-port-taken.test.ts: its
// ports are its own, so 8000-8002 are free but for the one taken here.

if (!inNamespace()) throw new Error('fleet-port-taken-cases.ts runs only inside the namespace fleet-port-taken.test.ts makes');

const dir = t.testdir();
const env = { HOME: dir };

t.test('port 8001 taken: one line, nothing advertised, nothing said as advertised', async (t) => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(8001, '127.0.0.1', r));
  t.teardown(() => taken.close());
  const mdns = await listenMdns();
  t.teardown(() => mdns.close());
  const r = await runCli(['daemon', '--sim', '--robots', '3', '--port', '8000', '--apps-dir', join(dir, 'apps')], { env, timeoutMs: 60_000 });
  t.equal(r.code, 1);
  t.equal(r.stdout, '', 'no robot said as listening');
  t.equal(r.stderr, 'Error: port 8001 on 127.0.0.1 is already in use (try --port 0)\n');
  t.equal(mdns.heard(), 0, 'no announcement, no goodbye: robot 0 was never advertised');
});

t.test('the ports free: each robot listens, then is advertised', async (t) => {
  const mdns = await listenMdns();
  t.teardown(() => mdns.close());
  const child = spawnCli(['daemon', '--sim', '--robots', '3', '--port', '8000', '--apps-dir', join(dir, 'apps')], { env, cwd: repoRoot });
  t.teardown(() => { if (child.proc.exitCode === null) child.proc.kill('SIGKILL'); });
  await child.waitFor(/listening on /, 3, 60_000);
  t.equal(child.stdout(), [0, 1, 2].map((i) => `listening on http://127.0.0.1:${8000 + i} (reachy_mini-${i})\n`).join(''));
  t.match(child.stderr(), /^\[reachy_mini-0\] mDNS: advertising _reachy-mini\._tcp on 127\.0\.0\.1 \(.*robots discover` lists the robots\)$/m);
  await until(() => mdns.heard() > 0, 10_000, 'an announcement');
  child.proc.kill('SIGTERM');
  t.equal(await child.exited, 0);
});
