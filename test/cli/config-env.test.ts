import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configEnvPath, readConfigEnv, updateConfigEnv, withConfigEnv } from '../../cli/session/config-env.js';
import type { Io } from '../../lib/io.js';

// .robotctl/env beside robot.yaml: dotenv lines (Node's util.parseEnv), the
// process environment winning over the file.

t.test('variables, comments and names that are not variable names', async (t) => {
  const file = join(t.testdir(), 'env');
  writeFileSync(file, '# written by robotctl up\nHF_ENDPOINT=http://127.0.0.1:7870\nHF_TOKEN="hf_abc"\n\nbad name=1\nWEBHOOK_SECRET=0f1e2d\n');
  t.strictSame(readConfigEnv(file), { HF_ENDPOINT: 'http://127.0.0.1:7870', HF_TOKEN: 'hf_abc', WEBHOOK_SECRET: '0f1e2d' });
  t.strictSame(readConfigEnv(join(t.testdir(), 'missing')), {}, 'a missing file is empty');
});

t.test('updated and read back; the process environment wins', async (t) => {
  const dir = t.testdir();
  const path = configEnvPath(join(dir, 'robot.yaml'));
  await updateConfigEnv(path, { WEBHOOK_SECRET: 's1', HF_TOKEN: 'hf_x' });
  await updateConfigEnv(path, { HF_TOKEN: null });
  t.strictSame(readConfigEnv(path), { WEBHOOK_SECRET: 's1' });
  t.match(readFileSync(path, 'utf8'), /^# written by robotctl up/);
  const said: string[] = [];
  const io: Io = { env: { HF_TOKEN: 'mine' }, cwd: dir, out: () => {}, err: (s) => { said.push(s); }, isTTY: false, stdinIsTTY: false };
  await updateConfigEnv(path, { HF_TOKEN: 'from-file' });
  const merged = withConfigEnv(io, 'robot.yaml');
  t.equal(merged.env.HF_TOKEN, 'mine', 'exported wins');
  t.equal(merged.env.WEBHOOK_SECRET, 's1', 'the file fills what is unset');
  t.match(said.join(''), /using WEBHOOK_SECRET from /);
  t.notMatch(said.join(''), /s1/, 'names, never values');
});
