import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveEndpoint } from '../../../drivers/hub/endpoint.js';
import { resolveToken, tokenFilePath } from '../../../drivers/hub/token.js';
import { tempDir } from '../../hub/helpers.js';

t.test('resolveEndpoint: HF_ENDPOINT beats the file, default huggingface.co, trailing / stripped', async (t) => {
  t.equal(resolveEndpoint({}), 'https://huggingface.co');
  t.equal(resolveEndpoint({}, 'http://127.0.0.1:1234/'), 'http://127.0.0.1:1234');
  t.equal(resolveEndpoint({ HF_ENDPOINT: 'http://localhost:9//' }, 'http://127.0.0.1:1234'), 'http://localhost:9');
  t.equal(resolveEndpoint({ HF_ENDPOINT: '' }, null), 'https://huggingface.co');
});

t.test('tokenFilePath follows huggingface_hub', async (t) => {
  t.equal(tokenFilePath({ HF_TOKEN_PATH: '/x/tok', HF_HOME: '/h' }), '/x/tok');
  t.equal(tokenFilePath({ HF_HOME: '/h' }), '/h/token');
  t.equal(tokenFilePath({ XDG_CACHE_HOME: '/c' }), '/c/huggingface/token');
  t.equal(tokenFilePath({ HOME: '/home/u' }), '/home/u/.cache/huggingface/token');
  t.equal(tokenFilePath({}), join(homedir(), '.cache', 'huggingface', 'token'));
});

t.test('resolveToken order: --token, HF_TOKEN, HF_TOKEN_PATH, $HF_HOME/token', async (t) => {
  const dir = tempDir(t);
  const home = join(dir, 'hf');
  mkdirSync(home);
  writeFileSync(join(home, 'token'), 'hf_from_home\n');
  writeFileSync(join(dir, 'explicit'), '  hf_from_path  \n');
  const env = { HF_HOME: home, HF_TOKEN_PATH: join(dir, 'explicit'), HF_TOKEN: 'hf_env' };
  t.same(resolveToken({ flag: 'hf_flag', env }), { token: 'hf_flag', source: '--token' });
  t.same(resolveToken({ env }), { token: 'hf_env', source: 'HF_TOKEN' });
  t.same(resolveToken({ env: { ...env, HF_TOKEN: '' } }), { token: 'hf_from_path', source: join(dir, 'explicit') });
  t.same(resolveToken({ env: { HF_HOME: home } }), { token: 'hf_from_home', source: join(home, 'token') });
  t.equal(resolveToken({ env: { HF_HOME: join(dir, 'none') } }), null);
});
