import t from 'tap';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { bin, pathWithoutRobotctl, runProcess, spawnLongRunning, type LongRunning } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/wait.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';
import { launchChromium, skipWithoutChromium } from '../browser/browser.js';
import { upFleetYaml } from './helpers.js';

// Issue 34: the newcomer's second hour, as the README's "write your own app"
// section walks it, from a clone's root with `npm start` (robotctl up)
// running: create an app, edit it, check it, publish it to the embedded hub,
// install it on a simulated robot from its dashboard (Chromium), put it on
// the robots from robot.yaml, restart up, push a change with git. After each
// step the robots run the new code (what it prints). Every URL up and
// publish print opens in Chromium (the hub's as its pages).
// Ports are free ones written into the fleet file; up's own are fixed
// (test/e2e/example-headers.test.ts runs those in a network namespace).

interface Ports { receiver: number; desk: number; lab: number; hub: number }

/** examples/fleet.yaml of the walk: before, and after the README's robot.yaml step (my_app on every robot, lab runs it, its Space watched). */
function fleet(ports: Ports, withMyApp: boolean): string {
  const apps = withMyApp ? ['hello_app', 'my_app'] : ['hello_app'];
  return upFleetYaml({ receiver: ports.receiver, robots: { desk: ports.desk, lab: withMyApp ? { port: ports.lab, active: 'my_app' } : ports.lab }, apps, active: 'hello_app', watched: apps });
}

async function json<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

interface Installed { name: string; extra: { installed_sha?: string | null } }

/** The robot runs `app` at the Space's `sha` and it printed `marker`. */
async function runs(port: number, app: string, sha: string, marker: string): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  await until(async () => {
    const installed = await json<Installed[]>(`${base}/api/apps/list-available/installed`);
    const status = await json<{ info?: { name?: string }; state?: string } | null>(`${base}/api/apps/current-app-status`);
    const logs = await json<{ logs: string[] }>(`${base}/api/apps/current-app-logs`);
    return installed.find((a) => a.name === app)?.extra.installed_sha === sha && status?.info?.name === app && status.state === 'running'
      && logs.logs.some((l) => l.includes(marker));
  }, 120_000, `the robot on ${port} to run ${app} at ${sha.slice(0, 7)} printing "${marker}"`);
}

t.test('write your own app: create, edit, check, publish, dashboard, robot.yaml, restart, git push', { skip: skipWithoutChromium, timeout: 300_000 }, async (t) => {
  const root = t.testdir(); // the clone's root
  const ports: Ports = { receiver: await freePort(), desk: await freePort(), lab: await freePort(), hub: await freePort() };
  mkdirSync(join(root, 'examples'));
  const file = join(root, 'examples', 'fleet.yaml');
  writeFileSync(file, fleet(ports, false));
  mkdirSync(join(root, 'linked'));
  symlinkSync(bin, join(root, 'linked', 'robotctl')); // `npm link`
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: pathWithoutRobotctl() };
  delete env.WEBHOOK_SECRET;
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const hubUrl = `http://127.0.0.1:${ports.hub}`;
  const shell = async (script: string): Promise<string> => {
    const r = await runProcess('bash', ['-c', `set -e\ncd "$0"\nexport HF_ENDPOINT=${hubUrl}\nexport HF_TOKEN="$(cat examples/.robotctl/up/hub-token)"\n${script}`, root], {
      ...env, PATH: `${join(root, 'linked')}:${env.PATH ?? ''}`, HOME: join(root, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0',
      ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE,
    });
    t.equal(r.code, 0, `${script}\n${r.stdout}\n${r.stderr}`);
    return r.stdout + r.stderr;
  };
  const spaceSha = async (): Promise<string> => (await json<{ sha: string }>(`${hubUrl}/api/spaces/demo/my_app`)).sha;
  const start = async (): Promise<LongRunning> => {
    const up = spawnLongRunning(t, ['up', '--hub-port', String(ports.hub)], env, { cwd: root });
    await up.waitFor('Ctrl-C stops everything', 180_000);
    t.match(up.stdout(), /robotctl up: ready\n/, up.output());
    return up;
  };

  // npm start, then the README's steps in another terminal.
  const first = await start();
  const created = await shell(`
robotctl app create my_app ./apps
sed -i 's/def run(self, reachy_mini: ReachyMini, stop_event: threading.Event):/&\\n        print("my_app v1", flush=True)/' apps/my_app/my_app/main.py
robotctl app check apps/my_app
robotctl app publish apps/my_app
`);
  t.match(created, `[OK] Created app 'my_app' in ${join(root, 'apps', 'my_app')}/`);
  t.match(created, "[OK] App 'my_app' passed all checks!");
  t.match(created, `[OK] App published: ${hubUrl}/spaces/demo/my_app (`);
  const v1 = await spaceSha();

  // Every URL printed opens: the agent's and the robots' pages in Chromium; the hub's are its pages' forms.
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const urls = [...new Set([...`${first.output()}\n${created}`.matchAll(/https?:\/\/127\.0\.0\.1:\d+[^\s)'"`]*/g)].map((m) => m[0].replace(/[.,:;]+$/, '')))];
  t.ok(urls.length >= 6, urls.join('\n'));
  for (const url of urls) {
    const res = await page.goto(url);
    t.equal(res?.status(), 200, `${url} opens`);
    // The hub's root and its Spaces are its pages (HTML), not its JSON API.
    if (url.startsWith(hubUrl)) t.match(res?.headers()['content-type'], /^text\/html/, `${url} is a page`);
  }

  // The dashboard of desk: install the Space by its URL on the embedded hub, run it.
  await page.goto(`http://127.0.0.1:${ports.desk}/`);
  await page.locator('#install-source').fill(`${hubUrl}/spaces/demo/my_app`);
  await page.locator('#install-submit').click();
  await page.waitForFunction(() => /^(done|failed)$/.test(document.querySelector('#job-status')?.textContent ?? ''), undefined, { timeout: 120_000 });
  t.equal(await page.locator('#job-status').textContent(), 'done', (await page.locator('#job-log').textContent()) ?? '');
  // One app runs at a time: stop hello_app (robotctl's agent starts it again at its next check), start my_app.
  await page.locator('#stop-app').click();
  await page.waitForFunction(() => document.querySelector('#current-name')?.textContent === 'No app running', undefined, { timeout: 60_000 });
  await page.locator('button[aria-label="Start my_app"]').click();
  await page.waitForFunction(() => /my_app v1/.test(document.querySelector('#current-output')?.textContent ?? ''), undefined, { timeout: 60_000 });
  await runs(ports.desk, 'my_app', v1, 'my_app v1');

  // robot.yaml: my_app on every robot, lab runs it, its Space watched (a push redeploys it).
  writeFileSync(file, fleet(ports, true));
  await runs(ports.lab, 'my_app', v1, 'my_app v1');

  // Restart up (Ctrl-C, npm start): my_app stays what it is on the robots.
  first.child.kill('SIGINT');
  t.equal(await first.exited, 0);
  const second = await start();
  t.notMatch(second.stdout(), /Publishing 'my_app'|Space demo\/my_app/, 'up publishes only its examples, never my_app');
  t.match(second.stdout(), new RegExp(`lab +http://127\\.0\\.0\\.1:${ports.lab}/ +\\(simulated, runs my_app\\)`));
  t.notMatch(second.stdout(), /running (install|update_app) my_app/);
  await runs(ports.lab, 'my_app', v1, 'my_app v1');
  t.equal(await spaceSha(), v1);

  // As Space authors work: clone the Space, change the code, push; the robots redeploy it.
  await shell(`
git clone -c credential.helper='!f() { echo username=demo; echo "password=$HF_TOKEN"; }; f' \\
  -c user.name=demo -c user.email=demo@localhost ${hubUrl}/spaces/demo/my_app examples/.robotctl/up/clones/my_app
sed -i 's/my_app v1/my_app v2/' examples/.robotctl/up/clones/my_app/my_app/main.py
git -C examples/.robotctl/up/clones/my_app commit -am "Say v2" && git -C examples/.robotctl/up/clones/my_app push
`);
  const v2 = await spaceSha();
  t.not(v2, v1);
  await runs(ports.lab, 'my_app', v2, 'my_app v2');
  // desk has my_app too (installed, not active): the push updated it there as well.
  await until(async () => (await json<Installed[]>(`http://127.0.0.1:${ports.desk}/api/apps/list-available/installed`))
    .find((a) => a.name === 'my_app')?.extra.installed_sha === v2, 60_000, 'desk to have my_app v2 installed');
  t.pass('desk has my_app at the pushed revision');
  second.child.kill('SIGINT');
  t.equal(await second.exited, 0);
  t.match(readFileSync(join(root, 'apps', 'my_app', 'my_app', 'main.py'), 'utf8'), 'print("my_app v1", flush=True)', 'the edit was made where the README says');
});
