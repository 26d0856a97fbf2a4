import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { hfClient } from './hf-client.js';

// The hub's pages next to its API (issue 33 point 6): HTML at the addresses
// people open, JSON wherever the client asks, git's paths untouched, private
// repos never shown (pages have no login).

const DEMO = { name: 'demo', token: 'hf_demo_local_token' };
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

t.test('pages at the Hub\'s addresses; the API and git keep theirs', async (t) => {
  const hub = await startHub({ users: [DEMO] });
  t.teardown(() => hub.close());
  await hub.createRepo('demo', 'space', 'demo/hello_app', { sdk: 'gradio' });
  await hub.createRepo('demo', 'dataset', 'demo/data');
  await hub.createRepo('demo', 'model', 'demo/m');
  await hub.createRepo('demo', 'model', 'demo/hidden', { private: true });
  await hub.commit('demo', 'model', 'demo/m', { 'README.md': '# Model m\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))\n' });

  const root = await fetch(`${hub.url}/`, { headers: HTML });
  t.equal(root.status, 200);
  t.match(root.headers.get('content-type'), /^text\/html/);
  t.match(root.headers.get('content-security-policy'), /default-src 'none'/, 'pages run no script');
  const rootHtml = await root.text();
  for (const href of ['/spaces/demo/hello_app', '/datasets/demo/data', '/demo/m']) t.match(rootHtml, `href="${href}"`, `the root links ${href}`);
  t.notMatch(rootHtml, 'demo/hidden', 'a private repo is not listed');

  for (const path of ['/spaces/demo/hello_app', '/datasets/demo/data', '/demo/m']) {
    const r = await fetch(`${hub.url}${path}`, { headers: HTML });
    t.equal(r.status, 200, `${path} is a page`);
    t.match(await r.text(), `git clone ${hub.url}${path}`);
  }
  const model = await (await fetch(`${hub.url}/demo/m`, { headers: HTML })).text();
  t.match(model, '<h1>Model m</h1>', 'the README rendered');
  t.match(model, '&lt;img src=x onerror=alert(1)&gt;', 'raw HTML written as text');
  t.notMatch(model, /href="javascript:/, 'no javascript: link');

  const css = await fetch(`${hub.url}/-/hub.css`);
  t.match(css.headers.get('content-type'), /^text\/css/);
  t.match(await css.text(), /--accent: #0b5cad/, 'the dashboard\'s colours');

  const privatePage = await fetch(`${hub.url}/demo/hidden`, { headers: HTML });
  t.equal(privatePage.status, 404, 'a private repo has no page, even for its owner (no login on pages)');
  await privatePage.arrayBuffer();
  const withToken = await fetch(`${hub.url}/demo/hidden`, { headers: { ...HTML, authorization: `Bearer ${DEMO.token}` } });
  t.equal(withToken.status, 404);
  await withToken.arrayBuffer();
  const nothing = await fetch(`${hub.url}/spaces/demo/nothing`, { headers: HTML });
  t.equal(nothing.status, 404);
  await nothing.arrayBuffer();

  // JSON where the client asks: the API, downloads, and any address asked without text/html.
  const api = hfClient(hub.url, DEMO.token);
  t.equal((await api.call<{ id: string }>('GET', '/api/spaces/demo/hello_app')).body.id, 'demo/hello_app');
  const missingJson = await fetch(`${hub.url}/spaces/demo/nothing`);
  t.equal(missingJson.status, 404);
  t.match(missingJson.headers.get('content-type'), /application\/json/, 'a client gets JSON');
  t.equal(missingJson.headers.get('x-error-code'), null, 'a page address is not a repo API address');
  await missingJson.arrayBuffer();
  const unknownApi = await fetch(`${hub.url}/api/agent-harnesses`, { headers: HTML });
  t.match(unknownApi.headers.get('content-type'), /application\/json/, 'an unknown /api address stays JSON');
  await unknownApi.arrayBuffer();
  const download = await fetch(`${hub.url}/demo/m/resolve/main/README.md`, { headers: HTML });
  t.equal(download.headers.get('content-type'), 'text/plain; charset=utf-8', 'a download stays a download');
  await download.arrayBuffer();

  // git's smart HTTP at the same addresses.
  const refs = await fetch(`${hub.url}/spaces/demo/hello_app/info/refs?service=git-upload-pack`);
  t.equal(refs.status, 200);
  t.equal(refs.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
  t.match(Buffer.from(await refs.arrayBuffer()).toString('utf8'), /# service=git-upload-pack/);
});
