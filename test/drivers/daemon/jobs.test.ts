import t from 'tap';
import { join } from 'node:path';
import { createDaemonClient } from '../../../drivers/daemon/client.js';
import { DaemonError } from '../../../drivers/daemon/errors.js';
import type { AppInfo, JobInfo } from '../../../lib/wire/daemon.js';
import { appFiles, QUIET_BODY } from '../../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../../helpers/servers.js';
import { startFaultProxy } from '../../helpers/fault-proxy.js';
import { until } from '../../helpers/wait.js';

// Issue 30.1 and 30.6 through the driver, against the simulator that answers
// as Pollen's daemon (spec §9): a failed install says why in pip's words; a
// remove of an app the robot lacks is a code the reconciler takes as done;
// robotctl's own jobs on one robot run one at a time (the daemon does not
// serialise them, and two builds of one Space snapshot collide there); an
// install that collided with another client's job is tried once more after it.

const info = (name: string, url: string): AppInfo => ({ name, source_kind: 'hf_space', description: '', url, extra: {} });

t.test('a failed install carries pip\'s ERROR line as its reason and its first message line', async (t) => {
  const hub = await embeddedHub(t, {});
  const daemon = await simDaemon(t, join(t.testdir(), 'apps'), { hubEndpoint: hub.url });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  const files = appFiles('bad_rt', QUIET_BODY);
  files['pyproject.toml'] = (files['pyproject.toml'] ?? '').replace('>=3.10', '>=3.99').replace('name = "bad_rt"', 'name = "bad-rt"');
  await hub.createRepo('demo', 'space', 'demo/bad_rt', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/bad_rt', files);
  const err = await client.install(info('bad_rt', `${hub.url}/spaces/demo/bad_rt`)).then(() => null, (e: unknown) => e);
  t.ok(err instanceof DaemonError);
  const e = err as DaemonError;
  t.match(e.reason, [/^ERROR: Package 'bad-rt' requires a different Python: 3\.\d+\.\d+ not in '>=3\.99'$/]);
  t.match(e.message.split('\n')[0], /^install failed: ERROR: Package 'bad-rt' requires a different Python/);
  t.equal(e.logs[e.logs.length - 1], "Job 'install' failed with error: Failed to install app 'bad_rt'", 'the job itself says only that');
});

t.test('robotctl\'s jobs on one robot run one at a time: two installs of one Space at once both succeed', async (t) => {
  const hub = await embeddedHub(t, {});
  const daemon = await simDaemon(t, join(t.testdir(), 'apps'), { hubEndpoint: hub.url });
  // Two clients of one robot (two robot.yaml entries, an agent's redeploy beside an apply's install).
  const a = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  const b = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 });
  t.teardown(async () => { await a.close(); await b.close(); });
  await hub.createRepo('demo', 'space', 'demo/twice_rt', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/twice_rt', appFiles('twice_rt', QUIET_BODY, { marker: `lock-${Date.now()}` }));
  const url = `${hub.url}/spaces/demo/twice_rt`;
  const jobs = await Promise.all([a.install(info('twice_rt', url)), b.install(info('twice_rt', url))]);
  t.same(jobs.map((j) => j.status), ['done', 'done']);
});

t.test('an install that collided with another client\'s job on the robot is tried once more after it', async (t) => {
  const hub = await embeddedHub(t, {});
  const daemon = await simDaemon(t, join(t.testdir(), 'apps'), { hubEndpoint: hub.url });
  const proxy = await startFaultProxy(daemon.url, () => null);
  t.teardown(() => proxy.close());
  const client = createDaemonClient({ baseUrl: proxy.url, jobTimeoutMs: 120_000 });
  t.teardown(() => client.close());
  await hub.createRepo('demo', 'space', 'demo/busy_rt', { sdk: 'static' });
  await hub.commit('demo', 'space', 'demo/busy_rt', appFiles('busy_rt', QUIET_BODY, { marker: `busy-${Date.now()}` }));
  const url = `${hub.url}/spaces/demo/busy_rt`;
  // The robot's dashboard installs the same Space; robotctl comes while it builds.
  const res = await fetch(`${daemon.url}/api/apps/install`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(info('busy_rt', url)) });
  const { job_id } = (await res.json()) as { job_id: string };
  const status = async (): Promise<JobInfo> => (await (await fetch(`${daemon.url}/api/apps/job-status/${job_id}`)).json()) as JobInfo;
  await until(async () => (await status()).logs.some((l) => l.startsWith('Installing offline') || l.startsWith('Running command: ')), 60_000, 'the other job building');
  const job = await client.install(info('busy_rt', url));
  t.equal(job.status, 'done');
  t.equal(proxy.seen.filter((s) => s.method === 'POST' && s.url === '/api/apps/install').length, 2, 'the first attempt collided, the second installed');
  t.equal((await status()).status, 'done', 'the other job was left to finish');
});
