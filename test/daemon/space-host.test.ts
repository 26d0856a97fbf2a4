import t from 'tap';
import { spaceHost } from '../../runtime/daemon/space-host.js';
import { appFiles, QUIET_BODY } from '../helpers/python-apps.js';
import { embeddedHub, simDaemon } from '../helpers/servers.js';
import { until } from '../helpers/wait.js';

// A standalone simulated robot fetches a Space URL from the URL's own host
// (an embedded hub typed in its dashboard), while huggingface.co URLs go to
// its configured hub (--hub, HF_ENDPOINT), which is how `up` installs
// robot.yaml's huggingface.co sources offline. Its token goes only to its hub.

t.test('which hub a Space URL is fetched from', async (t) => {
  const own = 'http://127.0.0.1:7870';
  const cases: [string | null, string, boolean][] = [
    ['https://huggingface.co/spaces/demo/my_app', own, true],
    ['https://hf.co/spaces/demo/my_app', own, true],
    ['https://www.huggingface.co/spaces/demo/my_app', own, true],
    ['http://127.0.0.1:7870/spaces/demo/my_app', own, true],
    ['http://127.0.0.1:7870/spaces/demo/my_app/', own, true],
    ['http://127.0.0.1:7871/spaces/demo/my_app', 'http://127.0.0.1:7871', false],
    ['http://hub.lab.local/mirror/spaces/demo/my_app', 'http://hub.lab.local/mirror', false],
    ['http://127.0.0.1:7871/demo/my_app', 'http://127.0.0.1:7871', false],
    ['demo/my_app', own, true],
    ['file:///srv/spaces/demo/my_app', own, true],
    [null, own, true],
  ];
  for (const [url, endpoint, configured] of cases) t.same(spaceHost(url, own), { endpoint, configured }, String(url));
  t.same(spaceHost('https://huggingface.co/spaces/a/b', 'https://huggingface.co'), { endpoint: 'https://huggingface.co', configured: true });
});

interface Job { status: string; logs: string[] }

/** The request the dashboard's install form sends for a Space URL (apps-panel.js installBody), then its job to the end. */
async function installAsDashboard(daemonUrl: string, source: string, name: string): Promise<Job> {
  const res = await fetch(`${daemonUrl}/api/apps/install`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: daemonUrl },
    body: JSON.stringify({ name, source_kind: 'hf_space', description: '', url: source, extra: {} }),
  });
  const { job_id } = (await res.json()) as { job_id: string };
  let job: Job = { status: 'pending', logs: [] };
  await until(async () => {
    job = (await (await fetch(`${daemonUrl}/api/apps/job-status/${job_id}`)).json()) as Job;
    return job.status === 'done' || job.status === 'failed';
  }, 120_000, `the install of ${source}`);
  return job;
}

t.test('a daemon on another hub installs a Space typed with the embedded hub\'s URL from that hub', async (t) => {
  const user = { name: 'demo', token: 'hf_space_host_test_token_0123456789' };
  // The robot's own hub (what --hub or HF_ENDPOINT names) and another one the user runs (`robotctl hub`).
  const ownHub = await embeddedHub(t, { users: [user] });
  const otherHub = await embeddedHub(t, { users: [user] });
  for (const [hub, app] of [[ownHub, 'own_app'], [otherHub, 'my_app'], [otherHub, 'secret_app']] as const) {
    await hub.createRepo(user.name, 'space', `demo/${app}`, { sdk: 'static', private: app === 'secret_app' });
    await hub.commit(user.name, 'space', `demo/${app}`, appFiles(app, QUIET_BODY), 'first version');
  }
  const daemon = await simDaemon(t, t.testdir(), { hubEndpoint: ownHub.url, hubToken: user.token, robotName: 'desk' });

  const typed = await installAsDashboard(daemon.url, `${otherHub.url}/spaces/demo/my_app`, 'my_app');
  t.equal(typed.status, 'done', typed.logs.join('\n'));
  t.equal(typed.logs[1], 'Space found: demo/my_app (private=False)');
  const viaHf = await installAsDashboard(daemon.url, 'https://huggingface.co/spaces/demo/own_app', 'own_app');
  t.equal(viaHf.status, 'done', `a huggingface.co URL goes to the robot's own hub\n${viaHf.logs.join('\n')}`);

  const installed = (await (await fetch(`${daemon.url}/api/apps/list-available/installed`)).json()) as { name: string; extra: { space_url: string } }[];
  const where = Object.fromEntries(installed.map((a) => [a.name, a.extra.space_url]));
  t.same(where, { my_app: `${otherHub.url}/spaces/demo/my_app`, own_app: `${ownHub.url}/spaces/demo/own_app` }, 'each app says the hub it came from');

  // The robot's token is for its own hub: a private Space elsewhere is not readable with it.
  const secret = await installAsDashboard(daemon.url, `${otherHub.url}/spaces/demo/secret_app`, 'secret_app');
  t.equal(secret.status, 'failed', 'the token is not sent to a host the request named');

  // Updates and check-updates ask the hub the app came from.
  await otherHub.commit(user.name, 'space', 'demo/my_app', { 'README.md': '# v2\n' }, 'second version');
  const updates = (await (await fetch(`${daemon.url}/api/apps/check-updates`)).json()) as { apps_with_updates: { app_name: string; update_available: boolean }[] };
  t.same(updates.apps_with_updates.map((u) => [u.app_name, u.update_available]).sort(), [['my_app', true], ['own_app', false]]);
});
