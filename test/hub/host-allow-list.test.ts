import t from 'tap';
import { embeddedHub } from '../helpers/servers.js';
import { requestAs } from '../helpers/host-requests.js';

// Issue 29.3 on the embedded hub: its pages, API and git over HTTP answer only
// under loopback, this machine's names and addresses, and --allowed-host names.

const USER = { name: 'demo', token: 'hf_host_allow_list_token' };
const AUTH = { authorization: `Bearer ${USER.token}` };

t.test('a rebound name gets 403 on pages, API and git; the hub\'s own names and --allowed-host pass', async (t) => {
  const hub = await embeddedHub(t, { users: [USER], allowedHosts: ['hub.example.org'] });
  await hub.createRepo('demo', 'space', 'demo/app', { sdk: 'static' });
  const port = new URL(hub.url).port;
  const paths = ['/', '/spaces/demo/app', '/api/whoami-v2', '/api/spaces/demo/app', '/spaces/demo/app.git/info/refs?service=git-upload-pack'];
  for (const path of paths) {
    const rebound = await requestAs(hub.url, { path, headers: { ...AUTH, host: `evil.example:${port}` } });
    t.equal(rebound.status, 403, `${path} under a rebound name`);
    t.match(JSON.parse(rebound.body), { error: /^Host 'evil\.example:\d+' is not allowed: .* --allowed-host evil\.example\.$/ });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `hub.example.org:${port}`]) {
      const res = await requestAs(hub.url, { path, headers: { ...AUTH, host } });
      t.equal(res.status, 200, `${path} under ${host}`);
    }
  }
  const write = await requestAs(hub.url, { method: 'POST', path: '/api/repos/create', headers: { ...AUTH, host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, body: JSON.stringify({ type: 'space', name: 'evil', space_sdk: 'static' }) });
  t.equal(write.status, 403, 'a rebound page cannot create a repo');
  t.notOk(hub.data().repos.some((r) => r.repoId.endsWith('/evil')), 'nothing was created');
});
