import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { repoRoot } from '../helpers/cli.js';
import { ALICE } from './helpers.js';

// Runs test/hub/python_client_wire.py (the requests of huggingface_hub 1.x
// and 0.2x, parsed as the client parses them) against the embedded hub.

t.test('huggingface_hub wire conformance (python, stdlib only)', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const child = spawn('python3', [join(repoRoot, 'test', 'hub', 'python_client_wire.py')], {
    env: { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: ALICE.token },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((r) => child.on('close', r));
  t.equal(code, 0, err);
  t.match(out, /^OK \d+ checks/);
  t.equal(hub.data().webhooks.length, 0, 'the script cleaned up');
});
