import t from 'tap';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import { makeApp, treeFiles } from '../helpers/python-apps.js';
import { closePair, daemonPair, type Pair } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Installs as background jobs (spec §2, §4) from Spaces on the embedded hub
// and from local paths; failed and interrupted installs keep the old version.

const MARKER_BODY = `
def main():
    import importlib
    print("marker", importlib.import_module(__package__).MARKER, flush=True)
    # The daemon runs apps in its apps dir: a "hold" file there keeps this one running.
    if os.path.exists("hold"):
        try:
            while True:
                time.sleep(0.05)
        except KeyboardInterrupt:
            pass
`;

const scratch = fileScratch('install-test');
const root = scratch.dir;
const appsDir = join(root, 'apps');
const logs: string[] = [];
let hub: RunningHub;
let pair: Pair;

async function pushSpace(repo: string, dir: string): Promise<string> {
  return (await hub.commit('demo', 'space', repo, treeFiles(dir))).commitOid;
}

async function runMarker(name: string): Promise<string> {
  logs.length = 0;
  await pair.client.startApp(name);
  await until(async () => (await pair.client.currentAppStatus())?.state === 'done', 10_000, `${name} done`);
  return logs.find((l) => l.startsWith('marker '))?.slice(7) ?? '';
}

const spaceUrl = (repo: string): string => `${hub.url}/spaces/${repo}`;

t.before(async () => {
  hub = await startHub({ port: 0 });
  await hub.createRepo('demo', 'space', 'demo/hello_space', { sdk: 'static' });
  await pushSpace('demo/hello_space', makeApp(join(root, 'v1'), 'hello_space', MARKER_BODY, { marker: 'v1' }));
  pair = await daemonPair(appsDir, { hubEndpoint: hub.url, log: (l) => logs.push(l) });
});
t.teardown(async () => {
  await closePair(pair);
  await hub.close();
  scratch.remove();
});

t.test('install from a Space: job logs in order, listed with its sha, runs', async (t) => {
  const job = await pair.client.install({ name: 'hello_space', source_kind: 'hf_space', description: '', url: spaceUrl('demo/hello_space'), extra: {} });
  t.equal(job.status, 'done');
  t.equal(job.logs[0], 'Downloading HuggingFace Space: demo/hello_space');
  t.equal(job.logs[1], 'Space found: demo/hello_space (private=False)');
  // pip installs the wheel, or, when an earlier install (another robot, an earlier run) did, its files are copied.
  t.ok(job.logs.some((l) => (l.startsWith('Running command: ') && l.includes('pip install --no-index --no-deps --no-build-isolation'))
    || l.startsWith('Using the files pip installed earlier from the same source: ')), job.logs.join('\n'));
  t.match(job.logs[job.logs.length - 2], /^Successfully installed 'hello_space' in .*venv$/);
  t.equal(job.logs[job.logs.length - 1], "Job 'install' completed successfully");
  const [info] = await pair.client.listInstalled();
  t.match(info, { name: 'hello_space', source_kind: 'installed', url: spaceUrl('demo/hello_space'), extra: { installed_from: 'hf_space', space_id: 'demo/hello_space', space_url: `${hub.url}/spaces/demo/hello_space` } });
  t.equal(await runMarker('hello_space'), 'v1');
  t.same(await pair.client.checkUpdates(), [{ app_name: 'hello_space', space_id: 'demo/hello_space', installed_sha: info?.extra.installed_sha, latest_sha: info?.extra.installed_sha, update_available: false }]);
});

t.test('an app is named by its entry point, not the Space name (spec §9 Names, #717)', async (t) => {
  await hub.createRepo('demo', 'space', 'demo/fancy_space', { sdk: 'static' });
  await pushSpace('demo/fancy_space', makeApp(join(root, 'fancy'), 'fancy_space', MARKER_BODY, { pkg: 'fancy_pkg', entry: 'other_entry', marker: 'fancy' }));
  // the seed's install body {"url": …} is accepted too
  const res = await fetch(`${pair.daemon.url}/api/apps/install`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: spaceUrl('demo/fancy_space') }) });
  const { job_id } = (await res.json()) as { job_id: string };
  await until(async () => ((await (await fetch(`${pair.daemon.url}/api/apps/job-status/${job_id}`)).json()) as { status: string }).status === 'done', 60_000, 'install');
  const names = (await pair.client.listInstalled()).map((a) => a.name).sort();
  t.same(names, ['hello_space', 'other_entry'], 'listed by the entry point, never by the Space name');
  const bySpace = await fetch(`${pair.daemon.url}/api/apps/start-app/fancy_space`, { method: 'POST' });
  t.equal(bySpace.status, 500, 'the Space name is no app: a plain 500');
  t.equal(await bySpace.text(), 'Internal Server Error');
  t.equal(await runMarker('other_entry'), 'fancy', 'the entry-point name starts it');
});

t.test('update reinstalls as the real daemon does: uninstall, then pip --force-reinstall, whether or not the Space changed (spec §9)', async (t) => {
  await pushSpace('demo/hello_space', makeApp(join(root, 'v2'), 'hello_space', MARKER_BODY, { marker: 'v2' }));
  const u = (await pair.client.checkUpdates()).find((x) => x.app_name === 'hello_space');
  t.equal(u?.update_available, true);
  writeFileSync(join(appsDir, 'hold'), '');
  await pair.client.startApp('hello_space');
  await t.rejects(pair.client.update('hello_space'), { code: 'job_failed', detail: "Job 'update' failed with error: Cannot update 'hello_space' while it is running. Please stop it first." });
  await pair.client.stopCurrentApp();
  rmSync(join(appsDir, 'hold'));
  const job = await pair.client.update('hello_space');
  t.same(job.logs.slice(0, 2), ["Updating app 'hello_space' from demo/hello_space", "Uninstalling old version of 'hello_space'"]);
  t.ok(job.logs.some((l) => l.startsWith('Running command: ') && l.includes('--force-reinstall')), job.logs.join('\n'));
  t.same(job.logs.slice(-2), ["Successfully updated 'hello_space'", "Job 'update' completed successfully"]);
  t.equal(await runMarker('hello_space'), 'v2');
  const again = await pair.client.update('hello_space');
  t.ok(again.logs.some((l) => l.includes('--force-reinstall')), 'an unchanged Space is reinstalled all the same');
});

t.test('a failed install over the app keeps the previous version working, with the logs in the error', async (t) => {
  const broken = makeApp(join(root, 'v3'), 'hello_space', MARKER_BODY, { marker: 'v3' });
  const f = treeFiles(broken);
  f['pyproject.toml'] = 'this is [not toml';
  await hub.commit('demo', 'space', 'demo/hello_space', f);
  const err = await pair.client.install({ name: 'hello_space', source_kind: 'hf_space', description: '', url: spaceUrl('demo/hello_space'), extra: {} }).then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  t.match(err, { code: 'job_failed' });
  const logsOf = (err as DaemonError).logs;
  t.equal(logsOf[logsOf.length - 1], "Job 'install' failed with error: Failed to install app 'hello_space'");
  t.equal(await runMarker('hello_space'), 'v2');
});

t.test('an install interrupted by a daemon shutdown keeps the previous version', async (t) => {
  await pushSpace('demo/hello_space', makeApp(join(root, 'v4'), 'hello_space', MARKER_BODY, { marker: 'v4' }));
  const res = await fetch(`${pair.daemon.url}/api/apps/install`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hello_space', source_kind: 'hf_space', url: spaceUrl('demo/hello_space') }) });
  const { job_id } = (await res.json()) as { job_id: string };
  // Follow the job on its WebSocket and pull the plug once pip runs.
  const ws = new WebSocket(`${pair.daemon.url.replace('http', 'ws')}/api/apps/ws/apps-manager/${job_id}`);
  const frames: string[] = [];
  await new Promise<void>((resolve) => ws.on('message', (m) => {
    frames.push(m.toString());
    if (m.toString().startsWith('Running command: ')) resolve();
  }));
  t.match(JSON.parse(frames.find((f) => f.startsWith('{')) ?? '{}'), { command: 'install', status: 'in_progress' });
  await closePair(pair);
  ws.close();
  pair = await daemonPair(appsDir, { hubEndpoint: hub.url, log: (l) => logs.push(l) });
  t.equal(await runMarker('hello_space'), 'v2');
  t.same(readdirSync(join(appsDir, 'apps', 'hello_space')).filter((d) => !d.startsWith('.partial')).length, 1);
});

t.test('job WebSocket: a finished job sends its final state at once; unknown id', async (t) => {
  const job = await pair.client.remove('other_entry');
  t.same(job.logs, ["Removing app 'other_entry'", "Successfully uninstalled 'other_entry'", "Job 'remove' completed successfully"]);
  const { job_id } = (await (await fetch(`${pair.daemon.url}/api/apps/remove/other_entry`, { method: 'POST' })).json()) as { job_id: string };
  await until(async () => ((await (await fetch(`${pair.daemon.url}/api/apps/job-status/${job_id}`)).json()) as { status: string }).status === 'failed', 5000, 'failed');
  const ws = new WebSocket(`${pair.daemon.url.replace('http', 'ws')}/api/apps/ws/apps-manager/${job_id}`);
  const frames: string[] = [];
  ws.on('message', (m) => frames.push(m.toString()));
  await new Promise((r) => ws.on('close', r));
  t.same(frames.slice(0, 1), ["Job 'remove' failed with error: Cannot uninstall app 'other_entry': it is not installed"]);
  t.same(JSON.parse(frames[1] ?? '{}'), { command: 'remove', status: 'failed', logs: ["Job 'remove' failed with error: Cannot uninstall app 'other_entry': it is not installed"] });
  const bad = new WebSocket(`${pair.daemon.url.replace('http', 'ws')}/api/apps/ws/apps-manager/nope`);
  const msg = await new Promise<string>((r) => bad.once('message', (m) => r(m.toString())));
  t.same(JSON.parse(msg), { error: 'Job ID not found' });
  t.equal(existsSync(join(appsDir, 'apps', 'fancy_space')), false);
  await t.rejects(pair.client.startApp('other_entry'), { code: 'app_not_found' });
});

t.test('local installs cannot be updated from the hub; startup app', async (t) => {
  const path = makeApp(join(root, 'local'), 'local_app', MARKER_BODY, { marker: 'local' });
  await pair.client.install({ name: 'local_app', source_kind: 'local', description: '', url: null, extra: { path } });
  t.equal(existsSync(join(path, 'build')), false, 'nothing is built inside the app folder');
  await t.rejects(pair.client.update('local_app'), { code: 'job_failed', detail: "Job 'update' failed with error: App 'local_app' was not installed from HuggingFace - cannot update" });
  const put = await fetch(`${pair.daemon.url}/api/apps/startup-app`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ startup_app: 'local_app' }) });
  t.same(await put.json(), { startup_app: 'local_app' });
  await closePair(pair);
  logs.length = 0;
  pair = await daemonPair(appsDir, { hubEndpoint: hub.url, log: (l) => logs.push(l) });
  await until(() => logs.includes('marker local'), 10_000, 'startup app ran');
  t.pass('the startup app started with the daemon');
});
