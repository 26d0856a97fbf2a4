import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnLongRunning } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { upFleetYaml } from './helpers.js';

// `up` says what the robots run, not what the file wants: when the active
// app cannot be installed (here its Space does not exist on the embedded
// hub), the ready block says that nothing runs and where to look, instead of
// "runs missing_app" (issue 15 item 3: "prints ready … runs hello_app while
// nothing runs").

t.test('ready names what really runs on each robot', async (t) => {
  const dir = t.testdir();
  const ports = { receiver: await freePort(), desk: await freePort() };
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, upFleetYaml({ receiver: ports.receiver, robots: { desk: ports.desk }, apps: ['missing_app'], active: 'missing_app' }));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WEBHOOK_SECRET: 'not-running-secret' };
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const up = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env);
  await up.waitFor('Ctrl-C stops everything', 120_000);
  const stdout = up.output();
  t.match(stdout, /robotctl up: ready \(first run: [a-z_ ]+; see the fleet page\)\n/, stdout);
  t.ok(stdout.includes(`    desk   http://127.0.0.1:${ports.desk}/  (simulated, no app running; missing_app should run: see the fleet page)\n`), 'the robot line says nothing runs');
  t.notMatch(stdout, /runs missing_app/);
  up.child.kill('SIGINT');
  t.equal(await up.exited, 0);
});
