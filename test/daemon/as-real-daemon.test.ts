import t from 'tap';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import type { AppInfo, JobInfo } from '../../lib/wire/daemon.js';
import { appFiles, appMain, QUIET_BODY } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';
import { fileScratch } from '../helpers/file-scratch.js';

// The simulator answers as Pollen's daemon did when robotctl drove it
// (shared/spec/robot-daemon.md §9): each test names the line of §9 it pins.

const scratch = fileScratch('as-real-daemon');
let hub: RunningHub;
let daemon: RunningDaemon;
let plain: RunningDaemon;

const CRASH_BODY = `
def main():
    raise RuntimeError("crash_rt boom on purpose")
`;

async function space(repo: string, files: Record<string, string>): Promise<string> {
  await hub.createRepo('demo', 'space', repo, { sdk: 'static' }).catch(() => {});
  await hub.commit('demo', 'space', repo, files);
  return `${hub.url}/spaces/${repo}`;
}

async function post(d: RunningDaemon, path: string, body?: unknown, method = 'POST'): Promise<Response> {
  return fetch(`${d.url}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
}

async function job(d: RunningDaemon, id: string): Promise<JobInfo> {
  return (await (await fetch(`${d.url}/api/apps/job-status/${id}`)).json()) as JobInfo;
}

async function ended(d: RunningDaemon, id: string): Promise<JobInfo> {
  return until(async () => { const j = await job(d, id); return j.status === 'done' || j.status === 'failed' ? j : null; }, 120_000, `job ${id}`) as Promise<JobInfo>;
}

async function install(d: RunningDaemon, info: Partial<AppInfo>): Promise<JobInfo> {
  const { job_id } = (await (await post(d, '/api/apps/install', { source_kind: 'hf_space', ...info })).json()) as { job_id: string };
  return ended(d, job_id);
}

async function listed(d: RunningDaemon): Promise<AppInfo[]> {
  return (await (await fetch(`${d.url}/api/apps/list-available/installed`)).json()) as AppInfo[];
}

async function stopApp(d: RunningDaemon): Promise<void> {
  await post(d, '/api/apps/stop-current-app');
}

t.before(async () => {
  hub = await startHub({ port: 0 });
  daemon = await startDaemon({ appsDir: join(scratch.dir, 'sim'), sim: true, port: 0, hubEndpoint: hub.url });
  plain = await startDaemon({ appsDir: join(scratch.dir, 'plain'), sim: true, port: 0, hubEndpoint: hub.url, robotctlExtensions: false });
});
t.teardown(async () => {
  await daemon.close();
  await plain.close();
  await hub.close();
  scratch.remove();
});

t.test('§9 Names: installed under its entry point whatever the request named; the request name is a plain 500', async (t) => {
  const url = await space('demo/hello_rt', appFiles('hello_rt', QUIET_BODY));
  for (const d of [daemon, plain]) {
    const j = await install(d, { name: 'greeter', url });
    t.equal(j.status, 'done', j.logs.join('\n'));
    const names = (await listed(d)).map((a) => a.name);
    t.ok(names.includes('hello_rt') && !names.includes('greeter'), `listed as hello_rt only: ${names.join(', ')}`);
    const res = await post(d, '/api/apps/start-app/greeter');
    t.equal(res.status, 500);
    t.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    t.equal(await res.text(), 'Internal Server Error');
  }
});

t.test('§9 Names: a Space name with dashes installs the package with underscores', async (t) => {
  const url = await space('demo/hello-world', appFiles('hello-world', QUIET_BODY, { pkg: 'hello_world' }));
  const j = await install(daemon, { name: 'hello-world', url });
  t.equal(j.status, 'done', j.logs.join('\n'));
  t.ok((await listed(daemon)).some((a) => a.name === 'hello_world'));
});

t.test('§9 Install failures: the job log carries pip\'s ERROR line; the job\'s error is only "Failed to install app"', async (t) => {
  const files = appFiles('bad_rt', QUIET_BODY);
  files['pyproject.toml'] = (files['pyproject.toml'] ?? '').replace('requires-python = ">=3.10"', 'requires-python = ">=3.99"').replace('name = "bad_rt"', 'name = "bad-rt"');
  const j = await install(daemon, { name: 'bad_rt', url: await space('demo/bad_rt', files) });
  t.equal(j.status, 'failed');
  // pip may colour its lines (ANSI escapes) even into a pipe: compare their text.
  const text = j.logs.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim());
  t.ok(text.some((l) => /^ERROR: Package 'bad-rt' requires a different Python: 3\.\d+\.\d+ not in '>=3\.99'$/.test(l)), j.logs.join('\n'));
  t.equal(j.logs[j.logs.length - 1], "Job 'install' failed with error: Failed to install app 'bad_rt'");
});

t.test('§9 Crashes: current-app-status holds the traceback, its last line the exception', async (t) => {
  const j = await install(daemon, { name: 'crash_rt', url: await space('demo/crash_rt', { ...appFiles('crash_rt', ''), 'crash_rt/main.py': appMain(CRASH_BODY) }) });
  t.equal(j.status, 'done', j.logs.join('\n'));
  await post(daemon, '/api/apps/start-app/crash_rt');
  const st = await until(async () => {
    const s = (await (await fetch(`${daemon.url}/api/apps/current-app-status`)).json()) as { state: string; error: string | null } | null;
    return s?.state === 'error' ? s : null;
  }, 20_000, 'crash') as { state: string; error: string | null };
  const lines = (st.error ?? '').split('\n');
  t.equal(lines[0], 'Process exited with code 1');
  t.ok(lines.includes('Traceback (most recent call last):'), st.error ?? '');
  t.equal(lines[lines.length - 1], 'RuntimeError: crash_rt boom on purpose');
  await stopApp(daemon);
});

t.test('§9 Remove of an app that is not installed: 200 with a job id, then the job fails', async (t) => {
  for (const d of [daemon, plain]) {
    const res = await post(d, '/api/apps/remove/nope_app');
    t.equal(res.status, 200);
    const j = await ended(d, ((await res.json()) as { job_id: string }).job_id);
    t.equal(j.status, 'failed');
    t.equal(j.logs[j.logs.length - 1], "Job 'remove' failed with error: Cannot uninstall app 'nope_app': it is not installed");
  }
});

t.test('§9 Start while another app runs: 400 "An app is already running"', async (t) => {
  t.equal((await post(daemon, '/api/apps/start-app/hello_rt')).status, 200);
  const res = await post(daemon, '/api/apps/start-app/hello_world');
  t.equal(res.status, 400);
  t.same(await res.json(), { detail: 'An app is already running' });
  await stopApp(daemon);
});

t.test('§9 Metadata: stored and listed only when the install request\'s extra is not empty', async (t) => {
  const url = await space('demo/meta_rt', appFiles('meta_rt', QUIET_BODY));
  const bare = await space('demo/bare_rt', appFiles('bare_rt', QUIET_BODY));
  const extra = { id: 'demo/meta_rt', private: false, cardData: { title: 'Meta', short_description: 'shows its metadata' } };
  t.equal((await install(plain, { name: 'meta_rt', url, extra })).status, 'done');
  t.equal((await install(plain, { name: 'bare_rt', url: bare, extra: {} })).status, 'done');
  const list = await listed(plain);
  t.same(list.find((a) => a.name === 'meta_rt'), { name: 'meta_rt', source_kind: 'installed', description: '', url: null, extra: { custom_app_url: null, ...extra } });
  t.same(list.find((a) => a.name === 'bare_rt'), { name: 'bare_rt', source_kind: 'installed', description: '', url: null, extra: { custom_app_url: null } });
});

t.test('§9 Jobs are not serialised: two jobs run at once, and two installs of one Space snapshot collide', async (t) => {
  const a = await space('demo/par_a', appFiles('par_a', QUIET_BODY, { marker: `a-${Date.now()}` }));
  const b = await space('demo/par_b', appFiles('par_b', QUIET_BODY, { marker: `b-${Date.now()}` }));
  const start = async (name: string, url: string): Promise<string> => ((await (await post(daemon, '/api/apps/install', { name, source_kind: 'hf_space', url })).json()) as { job_id: string }).job_id;
  const [ja, jb] = await Promise.all([start('par_a', a), start('par_b', b)]);
  const both = await until(async () => {
    const [x, y] = await Promise.all([job(daemon, ja), job(daemon, jb)]);
    return x && y && x.logs.length > 0 && y.logs.length > 0 ? [x, y] : null;
  }, 60_000, 'both jobs logging') as JobInfo[];
  t.ok(both.some((j) => j.status === 'in_progress'), 'the second job logged before the first ended');
  await Promise.all([ended(daemon, ja), ended(daemon, jb)]);
  const same = await space('demo/twice_rt', appFiles('twice_rt', QUIET_BODY, { marker: `t-${Date.now()}` }));
  const [j1, j2] = await Promise.all([start('twice_rt', same), start('twice_rt', same)]);
  const results = await Promise.all([ended(daemon, j1), ended(daemon, j2)]);
  t.same(results.map((r) => r.status).sort(), ['done', 'failed'], 'one of the two fails');
  const failed = results.find((r) => r.status === 'failed');
  t.ok(failed?.logs.some((l) => l.includes('build/lib/build/lib')), failed?.logs.join('\n') ?? 'no failed job');
});

t.test('§9 Startup app: GET, PUT of an installed app, 400 for one that is not', async (t) => {
  const get = async (): Promise<unknown> => (await fetch(`${plain.url}/api/apps/startup-app`)).json();
  t.same(await get(), { startup_app: null });
  const bad = await post(plain, '/api/apps/startup-app', { startup_app: 'greeter' }, 'PUT');
  t.equal(bad.status, 400);
  t.same(await bad.json(), { detail: "App 'greeter' is not installed" });
  const ok = await post(plain, '/api/apps/startup-app', { startup_app: 'hello_rt' }, 'PUT');
  t.same([ok.status, await ok.json()], [200, { startup_app: 'hello_rt' }]);
  t.same(await get(), { startup_app: 'hello_rt' });
  t.same(await (await post(plain, '/api/apps/startup-app', { startup_app: null }, 'PUT')).json(), { startup_app: null });
});

t.test('without robotctl\'s extensions: no local installs, no robotctl_simulator, a bare current app', async (t) => {
  const res = await post(plain, '/api/apps/install', { name: 'x', source_kind: 'local', extra: { path: scratch.dir } });
  t.same([res.status, await res.json()], [400, { detail: "source_kind 'local' is not installable via the API" }]);
  const status = (await (await fetch(`${plain.url}/api/daemon/status`)).json()) as Record<string, unknown>;
  t.notOk('robotctl_simulator' in status);
  t.equal((await post(plain, '/api/apps/start-app/hello_rt')).status, 200);
  const current = (await (await fetch(`${plain.url}/api/apps/current-app-status`)).json()) as { info: AppInfo };
  t.same(current.info, { name: 'hello_rt', source_kind: 'installed', description: '', url: null, extra: {} });
  await stopApp(plain);
});
