import t from 'tap';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';
import { BODIES, makeApp } from '../helpers/python-apps.js';
import { closePair, daemonPair } from '../helpers/servers.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';
import { sdkReachProblem } from '../../runtime/daemon/apps/sdk-reach.js';

// Issue 11.2: several simulated robots on one machine, no silent failure.
// The real reachy-mini package dials 127.0.0.1:8000 whatever robot started
// the app; robotctl's stand-in follows ROBOT_DAEMON_URL. A daemon on another
// port says so in the app's log when the venv holds the real package.

const STAND_IN = join(repoRoot, 'sdk', 'python', 'reachy_mini', 'reachy_mini.py');
const REAL_LIKE = 'class ReachyMini:\n    def __init__(self, host="localhost", port=8000):\n        pass\n';

function siteWith(root: string, sdk: 'none' | 'real' | 'stand-in'): string {
  const site = join(root, sdk);
  mkdirSync(join(site, 'reachy_mini'), { recursive: true });
  if (sdk === 'real') writeFileSync(join(site, 'reachy_mini', 'reachy_mini.py'), REAL_LIKE);
  if (sdk === 'stand-in') copyFileSync(STAND_IN, join(site, 'reachy_mini', 'reachy_mini.py'));
  return site;
}

t.test('which SDK reaches which robot', (t) => {
  const root = t.testdir();
  const real = siteWith(root, 'real');
  t.match(sdkReachProblem(real, 'http://127.0.0.1:8123'), /^the installed reachy-mini package is the real one, which connects to the daemon at 127\.0\.0\.1:8000, not to this robot \(http:\/\/127\.0\.0\.1:8123\)/);
  t.equal(sdkReachProblem(real, 'http://127.0.0.1:8000'), null, 'the robot on 8000 is the one the real SDK reaches');
  t.equal(sdkReachProblem(siteWith(root, 'stand-in'), 'http://127.0.0.1:8123'), null, 'the stand-in follows ROBOT_DAEMON_URL');
  t.equal(sdkReachProblem(siteWith(root, 'none'), 'http://127.0.0.1:8123'), null, 'no SDK in the venv: nothing to say');
  t.equal(sdkReachProblem(null, 'http://127.0.0.1:8123'), null);
  t.end();
});

t.test('a daemon off port 8000 warns in the app log when the venv holds the real package', async (t) => {
  const scratch = fileScratch('sdk-reach');
  const appsDir = join(scratch.dir, 'apps');
  const pair = await daemonPair(appsDir);
  t.teardown(async () => {
    await closePair(pair);
    scratch.remove();
  });
  const path = makeApp(join(scratch.dir, 'src'), 'reach_app', BODIES.oneshot);
  await pair.client.install({ name: 'reach_app', source_kind: 'local', description: '', url: null, extra: { path } });
  const lib = join(appsDir, 'venv', 'lib');
  const site = join(lib, readdirSync(lib).find((n) => n.startsWith('python')) ?? 'python3', 'site-packages');
  const runOnce = async (): Promise<string[]> => {
    await pair.client.startApp('reach_app');
    await until(async () => (await pair.client.currentAppStatus())?.state === 'done', 30_000, 'reach_app done');
    const res = await fetch(`${pair.daemon.url}/api/apps/current-app-logs?limit=1000`);
    return ((await res.json()) as { logs: string[] }).logs;
  };
  const warning = /^Warning: the installed reachy-mini package is the real one/;

  t.notOk((await runOnce()).some((l) => warning.test(l)), 'no SDK in the venv: no warning');
  mkdirSync(join(site, 'reachy_mini'), { recursive: true });
  writeFileSync(join(site, 'reachy_mini', 'reachy_mini.py'), REAL_LIKE);
  const logs = await runOnce();
  t.ok(logs.some((l) => warning.test(l) && l.includes(pair.daemon.url)), `the real package: the log says so\n${logs.join('\n')}`);
  t.ok(logs.includes('hello once'), 'and the app still runs');
  copyFileSync(STAND_IN, join(site, 'reachy_mini', 'reachy_mini.py'));
  t.notOk((await runOnce()).some((l) => warning.test(l)), 'the stand-in: no warning');
});
