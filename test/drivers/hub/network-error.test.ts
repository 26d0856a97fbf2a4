import t from 'tap';
import { createHubClient } from '../../../drivers/hub/client.js';
import { networkCodeText } from '../../../lib/network-words.js';
import { runInProcess } from '../../helpers/cli.js';
import { freePort } from '../../helpers/ports.js';

// A hub nobody answers on: the error names the call and the code, then says
// in words what the code means (the readme walk met `failed: EAI_AGAIN`
// alone from `app publish` offline).

t.test('a refused connection is named and explained', async (t) => {
  const port = await freePort();
  const hub = createHubClient({ endpoint: `http://127.0.0.1:${port}`, token: 'hf_test_token_value', maxRetries: 0 });
  await t.rejects(hub.whoami(), {
    message: `GET http://127.0.0.1:${port}/api/whoami-v2 failed: ECONNREFUSED (connection refused: nothing listens on that port)`,
  });
});

t.test('auth whoami against a hub that does not answer: one line, in words', async (t) => {
  const port = await freePort();
  const r = await runInProcess(['auth', 'whoami'], { env: { HF_ENDPOINT: `http://127.0.0.1:${port}`, HF_TOKEN: 'hf_test_token_value' } });
  t.equal(r.code, 1);
  t.match(r.stderr, /^Error: GET http:\/\/127\.0\.0\.1:\d+\/api\/whoami-v2 failed: ECONNREFUSED \(connection refused: nothing listens on that port\)\n/);
  t.notMatch(r.stderr, /hf_test_token_value|\n\s+at /, 'no token, no stack trace');
});

t.test('words for a known code; an unknown one stays as it is', async (t) => {
  t.equal(networkCodeText('EAI_AGAIN'), 'EAI_AGAIN (host name not found: no network, or a wrong name?)');
  t.equal(networkCodeText('ESOMETHING'), 'ESOMETHING');
});
