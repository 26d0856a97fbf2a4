import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathWithoutRobotctl, repoRoot, runProcess, spawnLongRunning, type LongRunning } from '../helpers/cli.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/wait.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';
import { upFleetYaml } from './helpers.js';

// Issue 34.1: a Space pushed with git (up's own "Next:" lines) survives a
// restart of `up`: the example folder has not changed since up published it,
// so up leaves the Space as it is, says it is ahead and how to get its
// commits, and the robots keep running what was pushed. The restarted up's
// hint (the git loop only) works as written too.

t.test('restarting up keeps a Space pushed with git, and the robots keep running it', { timeout: 300_000 }, async (t) => {
  // up prints paths under its working folder (the clone's root) relative to
  // it, and the hints below are checked as such: this folder stays in the
  // clone, where tap keeps fixtures, not in the run's temporary folder
  // (test/setup/tap-bundle.mjs).
  t.testdirName = join(repoRoot, '.tap', 'fixtures', basename(t.testdirName));
  const dir = t.testdir();
  const ports = { receiver: await freePort(), desk: await freePort(), lab: await freePort(), hub: await freePort() };
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, upFleetYaml({ receiver: ports.receiver, robots: { desk: ports.desk, lab: ports.lab }, apps: ['hello_app'], active: 'hello_app', watched: ['hello_app'] }));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: pathWithoutRobotctl() };
  delete env.WEBHOOK_SECRET;
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const shell: NodeJS.ProcessEnv = { ...env, HOME: join(dir, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE };
  const hubUrl = `http://127.0.0.1:${ports.hub}`;
  const clone = join(dir, '.robotctl', 'up', 'clones', 'hello_app');
  // up runs in the clone's root and prints paths under it relative to it (t.testdir() is inside it).
  const here = (path: string): string => relative(repoRoot, path);
  const spaceSha = async (): Promise<string> => ((await (await fetch(`${hubUrl}/api/spaces/demo/hello_app`)).json()) as { sha: string }).sha;
  const robotsRun = async (sha: string): Promise<void> => {
    for (const port of [ports.desk, ports.lab]) {
      const robot = createDaemonClient({ baseUrl: `http://127.0.0.1:${port}` });
      try {
        await until(async () => (await robot.listInstalled()).find((a) => a.name === 'hello_app')?.extra.installed_sha === sha
          && (await robot.currentAppStatus())?.state === 'running', 120_000, `the robot on ${port} to run ${sha}`);
      } finally {
        await robot.close();
      }
    }
  };
  const start = async (): Promise<LongRunning> => {
    const up = spawnLongRunning(t, ['up', '-f', file, '--hub-port', String(ports.hub)], env);
    await up.waitFor('Ctrl-C stops everything', 180_000);
    t.match(up.stdout(), /robotctl up: ready/, up.output());
    return up;
  };
  const stop = async (up: LongRunning): Promise<void> => {
    up.child.kill('SIGINT');
    t.equal(await up.exited, 0, up.stdout().slice(-400));
  };
  /** The shell lines of the ready block's "Next:" section, run as written from the clone's root. */
  const runNext = async (up: LongRunning): Promise<void> => {
    const out = up.stdout();
    const next = out.slice(out.lastIndexOf('Next:'), out.lastIndexOf('Ctrl-C stops everything'));
    const script = next.split('\n').filter((l) => l.startsWith('  ')).join('\n');
    const ran = await runProcess('bash', ['-c', `set -e\n${script}\n`], shell);
    t.equal(ran.code, 0, `the hint works as written:\n${script}\n${ran.stdout}\n${ran.stderr}`);
  };

  const first = await start();
  t.match(first.stdout(), /\[OK\] App published: .*\/spaces\/demo\/hello_app/);
  const publishedSha = await spaceSha();
  await runNext(first); // publish (no changes), clone, tweak, push
  const pushed = spawnSync('git', ['-C', clone, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  t.not(pushed, publishedSha, 'the push made a commit');
  await robotsRun(pushed);
  await stop(first);

  const second = await start();
  const out = second.stdout();
  t.notMatch(out, /App published: .*hello_app/, 'the Space is not published over');
  t.ok(out.includes(`Space demo/hello_app has commits that examples/apps/hello_app does not have (it is at ${pushed.slice(0, 7)}): `
    + 'kept as it is, not published over; the robots keep running it. To get them:\n'
    + `  git -C ${here(clone)} pull\n`
    + `To publish the folder over them instead: node bin/robotctl.js app publish examples/apps/hello_app (with HF_ENDPOINT and HF_TOKEN exported as "Next:" shows)\n`), out);
  t.equal(await spaceSha(), pushed, 'the Space is still at the pushed commit');
  t.match((await (await fetch(`${hubUrl}/spaces/demo/hello_app/resolve/main/README.md`)).text()), /# tweak/, 'with the pushed content');
  t.notMatch(out, /running (update_app|install) hello_app/, 'the robots are not redeployed');
  await robotsRun(pushed);
  t.ok(out.includes(`Next: change hello_app in its Space's clone and push it (the Space is ahead of examples/apps/hello_app); the robots that have it redeploy it within seconds.
In another terminal, here (the Space's remote is ${hubUrl}/spaces/demo/hello_app, the token its password):
  export HF_ENDPOINT=${hubUrl}
  export HF_TOKEN="$(cat ${here(join(dir, '.robotctl', 'up', 'hub-token'))})"
  git -C ${here(clone)} pull
  echo "# tweak" >> ${here(clone)}/README.md
  git -C ${here(clone)} commit -am "Tweak" && git -C ${here(clone)} push
`), 'the hint offers the git loop only: a publish of the folder would replace the push');
  t.notMatch(out.slice(out.lastIndexOf('Next:')), /app publish/);

  // The restarted up's hint, as written: another push reaches the robots.
  await runNext(second);
  const again = spawnSync('git', ['-C', clone, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  t.not(again, pushed);
  await robotsRun(again);
  await stop(second);
  t.match(readFileSync(join(dir, '.robotctl', 'up', 'published.json'), 'utf8'), /"hello_app"/);
});
