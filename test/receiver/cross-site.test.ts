import t from 'tap';
import { fixtures } from './fixtures.js';
import { post, startReceiver } from './helpers.js';

// Issue 12.2: a web page the user opens cannot make the receiver run a handler.

t.test('a cross-site POST is refused before the handler; same-origin and non-browser POSTs run it', async (t) => {
  let runs = 0;
  const { url, lines } = await startReceiver(t, {}, (r) => {
    r.add(function redeploy() { runs++; return 'ok'; });
  });
  const target = `${url}/webhooks/redeploy`;
  const evil = await post(target, fixtures.prOpened, { origin: 'http://evil.example' });
  t.equal(evil.status, 403);
  t.same(evil.body, { error: 'Cross-site request refused (Origin: http://evil.example).' });
  const fetchSite = await post(target, fixtures.prOpened, { 'sec-fetch-site': 'cross-site' });
  t.equal(fetchSite.status, 403);
  const nullOrigin = await post(target, fixtures.prOpened, { origin: 'null' });
  t.equal(nullOrigin.status, 403, 'a sandboxed page sends Origin: null');
  t.equal(runs, 0, 'the handler never ran');
  t.ok(lines.some((l) => l.includes('Cross-site request refused')));

  t.equal((await post(target, fixtures.prOpened)).status, 200, 'the hub sends no Origin');
  t.equal((await post(target, fixtures.prClosed, { origin: url, 'sec-fetch-site': 'same-origin' })).status, 200);
  t.equal(runs, 2);
});
