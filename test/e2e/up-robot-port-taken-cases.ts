import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnLongRunning } from '../helpers/cli.js';
import { inNamespace } from '../helpers/netns.js';
import { listenMdns } from '../helpers/mdns-listener.js';
import { until } from '../helpers/wait.js';
import { upFleetYaml } from './helpers.js';

// Run inside a private network namespace by up-robot-port-taken.test.ts: its
// ports are its own. Robots desk (8001) and shelf (8002) start in that order.
// up tries every port before it starts anything (cli/up/ports.ts), so the port
// is taken after that check: by up's own hub, given shelf's port with
// --hub-port (each port is free when tried alone). Robot desk has bound its
// port by then; before the fix it was announced, then said goodbye.

if (!inNamespace()) throw new Error('up-robot-port-taken-cases.ts runs only inside the namespace up-robot-port-taken.test.ts makes');

const dir = t.testdir();
const file = join(dir, 'fleet.yaml');
writeFileSync(file, upFleetYaml({ receiver: 8010, robots: { desk: 8001, shelf: 8002 }, apps: ['hello_app'], active: 'hello_app' }));
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', HOME: dir, WEBHOOK_SECRET: 'port-taken-secret' };
delete env.HF_TOKEN;
delete env.HF_ENDPOINT;

t.test("robot shelf's port taken: up's refusal as before, and no robot was ever advertised", async (t) => {
  const mdns = await listenMdns();
  t.teardown(() => mdns.close());
  const r = await runCli(['up', '-f', file, '--data', join(dir, 'taken'), '--hub-port', '8002'], { env, timeoutMs: 120_000 });
  t.equal(r.code, 1, r.stdout + r.stderr);
  t.equal(r.stderr, "Error: cannot start robot shelf: port 8002 (from its url http://127.0.0.1:8002) is already in use; stop what runs there or change the robot's url\n");
  t.notMatch(r.stdout, /^robot /m, 'no robot said as started');
  t.equal(mdns.heard(), 0, 'no announcement, no goodbye: robot desk was never advertised');
});

t.test('the ports free: both robots start, then both are advertised', async (t) => {
  const mdns = await listenMdns();
  t.teardown(() => mdns.close());
  const up = spawnLongRunning(t, ['up', '-f', file, '--data', join(dir, 'free'), '--hub-port', '7870'], env);
  await up.waitFor('robot shelf: simulated daemon on', 120_000);
  t.match(up.stdout(), /^robot desk: simulated daemon on http:\/\/127\.0\.0\.1:8001\nrobot shelf: simulated daemon on http:\/\/127\.0\.0\.1:8002$/m, up.output());
  await until(() => mdns.heard('desk') > 0 && mdns.heard('shelf') > 0, 20_000, 'an announcement of each robot');
  up.child.kill('SIGINT');
  await up.exited;
});
