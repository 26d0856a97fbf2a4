import t from 'tap';
import { join } from 'node:path';
import { startRecorder } from './recorder.js';
import { appEnv, examplesDir, startApp } from './helpers.js';
import { alive, killGroup } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

// The example apps (real Reachy Mini apps, with the reachy_mini stand-in) run
// as the daemon runs them (`python3 -u -m <pkg>.main` in their own process
// group) against the real simulated daemon, whose robot records what they
// made it do over /ws/sdk.

t.test('hello_app streams set_target at ~50 Hz and exits 0 on SIGINT', async (t) => {
  const rec = await startRecorder();
  const app = startApp(join(examplesDir, 'hello_app'), 'hello_app', appEnv(rec.url));
  t.teardown(async () => { killGroup(app.child.pid); await rec.close(); });
  await rec.waitFor('set_target', 30);
  const times = rec.calls.filter((c) => c.kind === 'set_target').map((c) => c.at);
  const rate = (times.length - 5) / ((times[times.length - 1]! - times[4]!) / 1000);
  t.ok(rate > 15 && rate < 60, `about 50 Hz under load (got ${rate.toFixed(1)})`);
  const first = rec.calls.find((c) => c.kind === 'set_target')!;
  t.equal(first.target.head!.length, 16);
  t.equal(first.target.antennas!.length, 2);
  app.child.kill('SIGINT');
  const { code } = await app.exited;
  t.equal(code, 0, app.stderr());
  t.match(app.stdout(), 'App is stopping...');
  t.equal(app.stderr(), '');
});

t.test('wave_app moves the body too (a different motion)', async (t) => {
  const rec = await startRecorder();
  const app = startApp(join(examplesDir, 'wave_app'), 'wave_app', appEnv(rec.url));
  t.teardown(async () => { killGroup(app.child.pid); await rec.close(); });
  await rec.waitFor('set_target', 20);
  const yaws = rec.calls.filter((c) => c.kind === 'set_target').map((c) => c.target.bodyYaw);
  t.ok(yaws.every((y) => typeof y === 'number'), 'body yaw in every target');
  t.ok(yaws.some((y) => y !== 0), 'the body moves');
  app.child.kill('SIGINT');
  t.equal((await app.exited).code, 0);
});

t.test('crash_app writes to stderr and exits non-zero after ~0.3 s', async (t) => {
  const rec = await startRecorder();
  const started = Date.now();
  const app = startApp(join(examplesDir, 'crash_app'), 'crash_app', appEnv(rec.url));
  t.teardown(async () => { killGroup(app.child.pid); await rec.close(); });
  const { code } = await app.exited;
  t.equal(code, 1);
  t.ok(Date.now() - started >= 300, 'ran for at least 0.3 s');
  t.ok(rec.count('set_target') > 0, 'moved before crashing');
  t.match(app.stderr(), 'crash_app: the sensor check failed, giving up');
  t.match(app.stderr(), 'RuntimeError: crash_app crashed on purpose');
});

t.test('oneshot_app does its move and exits 0 by itself', async (t) => {
  const rec = await startRecorder();
  const app = startApp(join(examplesDir, 'oneshot_app'), 'oneshot_app', appEnv(rec.url));
  t.teardown(async () => { killGroup(app.child.pid); await rec.close(); });
  const { code } = await app.exited;
  t.equal(code, 0, app.stderr());
  const gotos = rec.calls.flatMap((c) => (c.kind === 'goto' ? [c] : []));
  t.equal(gotos.length, 2);
  t.same(gotos.map((g) => [g.duration, g.interpolation]), [[0.3, 'minjerk'], [0.3, 'minjerk']]);
  t.ok(gotos[1]!.at - gotos[0]!.at >= 290, 'waited for the first move to finish (task_progress) before the second');
  t.match(app.stdout(), 'oneshot_app: done');
});

t.test('stubborn_app survives SIGINT; only a process-group kill ends it and its child', async (t) => {
  const rec = await startRecorder();
  const app = startApp(join(examplesDir, 'stubborn_app'), 'stubborn_app', appEnv(rec.url));
  t.teardown(async () => { killGroup(app.child.pid); await rec.close(); });
  await rec.waitFor('set_target', 3);
  const m = /stubborn_app pid (\d+) child pid (\d+)/.exec(app.stdout());
  t.ok(m, app.stdout());
  const child = Number(m![2]);
  app.child.kill('SIGINT');
  const n = rec.count('set_target');
  await rec.waitFor('set_target', n + 10);
  t.ok(alive(app.child.pid!), 'still running after SIGINT');
  t.ok(rec.count('set_target') >= n + 10, 'still moving after SIGINT');
  killGroup(app.child.pid);
  await app.exited;
  await until(() => !alive(child), 10_000, 'the helper process to die with the group');
  t.notOk(alive(child), 'the helper process died with the group');
});

t.test('an app with no daemon says where it looked and exits 1', async (t) => {
  const app = startApp(join(examplesDir, 'oneshot_app'), 'oneshot_app', appEnv('http://127.0.0.1:9'));
  t.teardown(() => killGroup(app.child.pid));
  const { code } = await app.exited;
  t.equal(code, 1);
  t.match(app.stderr(), 'ConnectionError: Could not connect to the Reachy Mini daemon at ws://127.0.0.1:9/ws/sdk');
});
