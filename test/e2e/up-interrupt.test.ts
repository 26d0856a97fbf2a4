import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnLongRunning } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { upFleetYaml } from './helpers.js';

// Ctrl-C in the terminal during the first start (issue 34.8): the terminal
// signals the whole foreground process group, the app launcher included. The
// shutdown lets the start in flight finish and stops everything: it is not
// reported as a failure (it was `failed start hello_app on desk: hello_app
// crashed after it started: Process exited with code -9`).

t.test('Ctrl-C to the process group during the first start: no failure reported', { timeout: 300_000 }, async (t) => {
  const dir = t.testdir();
  const ports = { receiver: await freePort(), desk: await freePort() };
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, upFleetYaml({ receiver: ports.receiver, robots: { desk: ports.desk }, apps: ['hello_app'], active: 'hello_app' }));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WEBHOOK_SECRET: 'interrupt-test' };
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const up = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env, { ownGroup: true });
  await up.waitFor('running start hello_app on desk...', 180_000);
  process.kill(-(up.child.pid ?? 0), 'SIGINT');
  t.equal(await up.exited, 0, up.output());
  const out = up.stdout();
  const after = out.slice(out.indexOf('stopping: '));
  t.match(after, /^stopping: agent, robots and their apps, hub\.\.\. \(Ctrl-C again to abort the action in flight\)\n  done    start hello_app on desk \(\d+ ms\)\n/, after);
  t.notMatch(out, /failed|crashed|code -9/, 'the shutdown is not a failure');
  t.match(out, /stopped\n$/);
});
