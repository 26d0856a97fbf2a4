import t from 'tap';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { spawnLongRunning } from '../helpers/cli.js';
import { requestAs } from '../helpers/host-requests.js';

// Run inside a private network namespace by host-lan-address.test.ts.

const LAN = '10.123.45.6';

t.test('robotctl daemon --host 0.0.0.0 answers under the machine\'s own address', async (t) => {
  execFileSync('ip', ['addr', 'add', `${LAN}/32`, 'dev', 'lo']);
  const run = spawnLongRunning(t, ['daemon', '--sim', '--host', '0.0.0.0', '--port', '0', '--no-mdns', '--apps-dir', join(t.testdir(), 'apps')], { ...process.env, NO_COLOR: '1' });
  await run.waitFor('listening on', 60_000);
  const port = /listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(run.output())?.[1];
  t.ok(port, run.output());
  const lan = `http://${LAN}:${port ?? ''}`;
  const status = await requestAs(lan, { path: '/api/daemon/status' });
  t.equal(status.status, 200, `the LAN address answers: ${status.body.slice(0, 200)}`);
  const wake = await requestAs(lan, { method: 'POST', path: '/api/move/play/wake_up', headers: { origin: lan } });
  t.equal(wake.status, 200, 'and takes commands from its own page there');
  const rebound = await requestAs(lan, { path: '/api/daemon/status', headers: { host: `evil.example:${port ?? ''}` } });
  t.equal(rebound.status, 403, 'a rebound name does not');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});
