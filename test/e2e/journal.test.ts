import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { DIRECT_LIMIT } from '../../state/local-journal.js';
import { runCli } from '../helpers/cli.js';
import { USER, env, spawnCli, writeYaml } from './helpers.js';

// kill -9 of an apply past the state's DIRECT_LIMIT, through the built CLI:
// the records since the last fold are in `.robotctl/state.json.journal`;
// plan sees them without the lock, the next apply folds them in and
// converges with exactly one webhook per name.

let hub: RunningHub;
t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

t.test('kill -9 while the journal is in use, then plan and a re-apply: folded, converged, no duplicate', async (t) => {
  const dir = t.testdir();
  const n = 300;
  const hooks = Array.from({ length: n }, (_, i) => `  hook-${i}:\n    url: https://example.org/journal/${i}\n    watched: [user:alice]\n    secret: \${WEBHOOK_SECRET}\n`).join('');
  writeYaml(dir, 'robot.yaml', `version: 1\nwebhooks:\n${hooks}`);
  const child = spawnCli(['apply', '-f', 'robot.yaml', '--yes'], { env: env(hub.url), cwd: dir });
  // Killed between two folds of the journal into state.json (with 8 lanes and
  // a fold at every quarter of the state: about 128, 163 and 204 records), so
  // state.json is behind what was printed. At DIRECT_LIMIT + 90 the kill met
  // the third fold whenever the apply ran a few actions ahead of the reader.
  const killAt = DIRECT_LIMIT + 80;
  await child.waitFor(/: created/, killAt);
  child.proc.kill('SIGKILL');
  t.equal(await child.exited, 'SIGKILL');
  const printed = (child.stdout().match(/: created/g) ?? []).length;
  const statePath = join(dir, '.robotctl', 'state.json');
  const inFile = Object.keys((JSON.parse(readFileSync(statePath, 'utf8')) as { webhooks: object }).webhooks).length;
  const journal = readFileSync(`${statePath}.journal`, 'utf8').split('\n').filter((l) => l !== '');
  t.ok(inFile >= DIRECT_LIMIT && inFile < printed, `state.json holds ${inFile} of ${printed} reported`);
  t.ok(inFile + journal.length - 1 >= printed, 'every reported success is in the state or its journal');
  t.notMatch(readFileSync(`${statePath}.journal`, 'utf8'), /e2e-webhook-secret/, 'no secret in the journal');

  const planned = await runCli(['plan', '-f', 'robot.yaml', '--json'], { env: env(hub.url), cwd: dir });
  t.equal(planned.code, 2, planned.stderr);
  const actions = (JSON.parse(planned.stdout) as { actions: { type: string }[] }).actions;
  t.ok(actions.length <= n - printed, `plan counts the journal's records (${actions.length} left)`);
  t.ok(existsSync(`${statePath}.journal`), 'plan (no lock) leaves the journal');

  const again = await runCli(['apply', '-f', 'robot.yaml', '--yes'], { env: env(hub.url), cwd: dir });
  t.equal(again.code, 0, again.stderr);
  t.notOk(existsSync(`${statePath}.journal`), 'folded and removed');
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  try {
    const onHub = (await client.listWebhooks()).filter((h) => h.url?.includes('/journal/'));
    t.equal(onHub.length, n, 'exactly one webhook per name');
  } finally {
    await client.close();
  }
  t.equal(Object.keys((JSON.parse(readFileSync(statePath, 'utf8')) as { webhooks: object }).webhooks).length, n);
  t.equal((await runCli(['diff', '-f', 'robot.yaml'], { env: env(hub.url), cwd: dir })).code, 0);
});
