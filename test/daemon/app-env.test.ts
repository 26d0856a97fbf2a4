import t from 'tap';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { spawnLongRunning } from '../helpers/cli.js';
import { makeApp, QUIET_LOOP } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';

// Issue 29.9: an app's os.environ held HF_TOKEN, PGPASSWORD and
// WEBHOOK_SECRET. `robotctl daemon` (the built binary), with those in its
// environment, starts an app that prints its os.environ, and installs it
// with a setup.py that writes the build's environment to a file.

const SECRETS = {
  HF_TOKEN: 'hf_secret_token_app_env', PGPASSWORD: 'pg-secret', WEBHOOK_SECRET: 'hook-secret',
  DATABASE_URL: 'postgres://u:db-secret@127.0.0.1/db', HF_HOME_TOKEN_PATH: '/x', AWS_SECRET_ACCESS_KEY: 'aws-secret',
  REACHY_API_KEY: 'reachy-key', ROBOTCTL_STATE: 'postgres://u:state-secret@127.0.0.1/state', HTTPS_PROXY: 'http://user:proxy-secret@127.0.0.1:3128',
};

const PRINT_ENV = `
def main():
    print("ENV " + json.dumps(dict(os.environ)), flush=True)
${QUIET_LOOP}`;

t.test('an app started by the daemon has what it needs and none of the daemon\'s secrets; its build has PIP_* too', async (t) => {
  const dir = t.testdir();
  const src = makeApp(join(dir, 'src'), 'env_app', PRINT_ENV);
  const buildEnv = join(dir, 'build-env.json');
  // setuptools runs setup.py while it builds the wheel: the install's own
  // environment. A nonce makes the source new, so no cached wheel skips the build.
  writeFileSync(join(src, 'setup.py'), `# ${randomUUID()}\nimport json, os\nfrom setuptools import setup\nopen(${JSON.stringify(buildEnv)}, "w").write(json.dumps(dict(os.environ)))\nsetup()\n`);
  const env: NodeJS.ProcessEnv = {
    ...process.env, ...SECRETS, NO_COLOR: '1', HF_ENDPOINT: 'http://127.0.0.1:9', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC',
    REACHY_ROBOT_NAME: 'desk', PIP_DEFAULT_TIMEOUT: '7', APP_CHOSEN: 'given-on-purpose',
  };
  const run = spawnLongRunning(t, ['daemon', '--sim', '--port', '0', '--apps-dir', join(dir, 'apps'), '--app-env', 'APP_CHOSEN'], env);
  // Teardowns run last first: a failing test still has the daemon stop its app before the helper's SIGKILL.
  t.teardown(async () => { if (run.child.exitCode === null) { run.child.kill('SIGTERM'); await run.exited; } });
  await run.waitFor('listening on', 60_000);
  const url = /listening on (http:\S+)/.exec(run.output())?.[1] ?? '';
  const client = createDaemonClient({ baseUrl: url, jobTimeoutMs: 180_000 });
  t.teardown(() => client.close());
  await client.install({ name: 'env_app', source_kind: 'local', description: '', url: null, extra: { path: src } });
  await client.startApp('env_app');
  const line = (await until(() => /^ENV (\{.*\})$/m.exec(run.output())?.[1], 30_000, () => `the app's environment in:\n${run.output()}`)) ?? '';
  const app = JSON.parse(line) as Record<string, string>;
  const build = JSON.parse(readFileSync(buildEnv, 'utf8')) as Record<string, string>;

  for (const [name, value] of Object.entries(SECRETS)) {
    t.notOk(name in app, `the app has no ${name}`);
    t.notOk(Object.values(app).some((v) => v.includes(value)), `nor ${name}'s value under another name`);
  }
  t.equal(app.PATH, env.PATH);
  t.equal(app.HOME, env.HOME);
  t.equal(app.HF_ENDPOINT, 'http://127.0.0.1:9');
  t.equal(app.LANG, 'C.UTF-8');
  t.equal(app.LC_ALL, 'C.UTF-8');
  t.equal(app.TZ, 'UTC');
  t.equal(app.REACHY_ROBOT_NAME, 'desk', 'the SDK\'s REACHY_* variables');
  t.equal(app.ROBOT_DAEMON_URL, url, 'the daemon\'s address');
  t.equal(app.APP_CHOSEN, 'given-on-purpose', '--app-env passes a chosen variable');
  t.notOk('PIP_DEFAULT_TIMEOUT' in app, 'pip\'s settings are the install\'s, not the app\'s');

  for (const name of ['HF_TOKEN', 'PGPASSWORD', 'WEBHOOK_SECRET', 'DATABASE_URL', 'AWS_SECRET_ACCESS_KEY', 'ROBOTCTL_STATE', 'APP_CHOSEN']) {
    t.notOk(name in build, `the build has no ${name}`);
  }
  t.equal(build.PIP_DEFAULT_TIMEOUT, '7', 'the build has PIP_* (pip honours them, as on the real daemon)');
  t.equal(build.HTTPS_PROXY, SECRETS.HTTPS_PROXY, 'and the proxy pip goes through, credentials included');
  t.equal(build.PATH, env.PATH);
  await client.stopCurrentApp();
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});
