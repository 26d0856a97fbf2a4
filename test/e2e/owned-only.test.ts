import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { HubWebhook } from '../../drivers/hub/types.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { USER, env, writeYaml } from './helpers.js';
import { robotctlCommand } from '../../cli/views/command-line.js';

// Issue 29.1 end to end, through the built CLI: a saved plan and a state act
// only on what this file owns. A plan edited to name webhooks the file never
// owned is refused whole (nothing sent, the state untouched), and a state
// entry edited by hand to point at a foreign webhook does not get that
// webhook deleted unless --force says the state is right.

let hub: RunningHub;

t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

async function cli(args: string[], dir: string): Promise<CliResult> {
  return runCli(args, { env: env(hub.url), cwd: dir });
}

async function withClient<T>(fn: (c: ReturnType<typeof createHubClient>) => Promise<T>): Promise<T> {
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const foreign = (url: string): Promise<HubWebhook> =>
  withClient((c) => c.createWebhook({ url, watched: [{ type: 'user', name: 'alice' }] }));

const allHooks = (): Promise<HubWebhook[]> => withClient((c) => c.listWebhooks());
const byId = (hooks: HubWebhook[], id: string): HubWebhook | undefined => hooks.find((h) => h.id === id);

const hookYaml = (entries: Record<string, string>): string =>
  `version: 1\nwebhooks:\n${Object.entries(entries).map(([name, url]) => `  ${name}:\n    url: ${url}\n    watched: [user:alice]\n`).join('')}`;

const statePath = (dir: string): string => join(dir, '.robotctl', 'state.json');
/** robotctl as the CLI names it to a user in `dir` (cli/views/command-line.ts): `robotctl` or `node …/bin/robotctl.js`. */
const robotctlIn = (dir: string): string => robotctlCommand({ ...process.env, ...env(hub.url) }, dir).command;

t.test('a saved plan edited to name foreign webhooks is refused: nothing sent, the state unchanged', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hookYaml({ t1: 'https://example.org/owned/t1' }));
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  const f1 = await foreign('https://example.org/foreign/1');
  const f2 = await foreign('https://example.org/foreign/2');
  // Drift to heal: t1's URL changes in robot.yaml, so the plan updates t1 by its id.
  writeYaml(dir, 'robot.yaml', hookYaml({ t1: 'https://example.org/owned/t1-moved' }));
  const p = await cli(['plan', '-f', 'robot.yaml', '--out', 'p.json'], dir);
  t.equal(p.code, 2, p.stderr);
  const file = join(dir, 'p.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { actions: Record<string, unknown>[] };
  t.match(doc.actions, [{ type: 'update', address: 'webhooks.t1' }], 'the plan updates t1');
  const original = JSON.stringify(doc);

  const tamper = async (edit: (d: typeof doc) => void): Promise<CliResult> => {
    const d = JSON.parse(original) as typeof doc;
    edit(d);
    writeFileSync(file, JSON.stringify(d, null, 2));
    const before = { hooks: await allHooks(), state: readFileSync(statePath(dir), 'utf8') };
    hub.resetStats();
    const r = await cli(['apply', '-f', 'robot.yaml', '--plan', 'p.json', '--yes'], dir);
    t.equal(r.code, 1, 'refused');
    t.equal(r.stdout, '', 'no plan shown, nothing reported as done');
    t.equal(hub.stats().writes, 0, 'nothing sent to the hub');
    t.strictSame(await allHooks(), before.hooks, 'every webhook as it was (the foreign ones and t1)');
    t.equal(readFileSync(statePath(dir), 'utf8'), before.state, 'the state file unchanged');
    return r;
  };
  const again = `run \`${robotctlIn(dir)} plan -f robot.yaml --out p.json\` again and apply the new plan`;

  // The issue's reproduction: t1's update now names F1, and a delete of F2 is appended.
  const both = await tamper((d) => {
    (d.actions[0] as { id: string }).id = f1.id;
    d.actions.push({ type: 'delete', address: 'webhooks.x', name: 'x', id: f2.id, reason: 'no longer in robot.yaml' });
  });
  t.equal(both.stderr,
    `Error: the saved plan p.json is not the plan robotctl makes from this observation and state: action 1 (update webhooks.t1): ` +
    `id is "${f1.id}" in the file, robotctl plans "${(JSON.parse(original) as { actions: [{ id: string }] }).actions[0].id}"; nothing was sent: ${again}\n`);

  const appended = await tamper((d) => {
    d.actions.push({ type: 'delete', address: 'webhooks.x', name: 'x', id: f2.id, reason: 'no longer in robot.yaml' });
  });
  t.equal(appended.stderr,
    `Error: the saved plan p.json is not the plan robotctl makes from this observation and state: action 2 (delete webhooks.x) ` +
    `is not in robotctl's plan; nothing was sent: ${again}\n`);

  const field = await tamper((d) => {
    ((d.actions[0] as { desired: { url: string } }).desired).url = 'https://evil.example/steal';
  });
  t.equal(field.stderr,
    `Error: the saved plan p.json is not the plan robotctl makes from this observation and state: action 1 (update webhooks.t1): ` +
    `desired.url is "https://evil.example/steal" in the file, robotctl plans "https://example.org/owned/t1-moved"; nothing was sent: ${again}\n`);

  // The untouched plan still applies: the check refuses only a difference.
  writeFileSync(file, original);
  const ok = await cli(['apply', '-f', 'robot.yaml', '--plan', 'p.json', '--yes'], dir);
  t.equal(ok.code, 0, ok.stderr);
  const hooks = await allHooks();
  t.ok(byId(hooks, f1.id) && byId(hooks, f2.id), 'the foreign webhooks are still there');
  t.equal(byId(hooks, f1.id)?.url, 'https://example.org/foreign/1');
});

t.test('a state entry edited to a foreign id: its delete is held back and reported; --force deletes it', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', hookYaml({ t1: 'https://example.org/hand/t1', t2: 'https://example.org/hand/t2' }));
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  const f3 = await foreign('https://example.org/foreign/3');
  const state = JSON.parse(readFileSync(statePath(dir), 'utf8')) as { webhooks: Record<string, { id: string }> };
  const t2 = state.webhooks.t2?.id;
  (state.webhooks.t2 as { id: string }).id = f3.id; // the hand edit: t2's record names a webhook robotctl never made
  writeFileSync(statePath(dir), JSON.stringify(state, null, 2));
  writeYaml(dir, 'robot.yaml', hookYaml({ t1: 'https://example.org/hand/t1' }));

  const diff = await cli(['diff', '-f', 'robot.yaml'], dir);
  t.equal(diff.code, 2, 'drift: robot.yaml and the hub disagree');
  t.match(diff.stdout, '  webhooks.t2: delete held back (changed outside robotctl since the state recorded it)\n');
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes'], dir);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout,
    `\nNot deleted, though robot.yaml no longer declares them (\`${robotctlIn(dir)} apply --force\` deletes them):\n` +
    `  webhooks.t2 (id ${f3.id}): changed outside robotctl since the state recorded it\n\n` +
    'No changes but the deletes held back above.\n');
  t.notMatch(r.stdout, 'will be deleted');
  let hooks = await allHooks();
  t.equal(byId(hooks, f3.id)?.url, 'https://example.org/foreign/3', 'the foreign webhook is not deleted');
  t.ok(byId(hooks, t2 as string), "t2's own webhook is not touched either (no record names it now)");
  t.equal((JSON.parse(readFileSync(statePath(dir), 'utf8')) as typeof state).webhooks.t2?.id, f3.id, 'the entry stays, reported on every run');

  // --force: the state's word is taken (robotctl cannot tell a hand edit from a webhook edited on the hub).
  const forced = await cli(['apply', '-f', 'robot.yaml', '--yes', '--force'], dir);
  t.equal(forced.code, 0, forced.stderr);
  t.match(forced.stdout, /- webhooks\.t2 \(id \S+\) will be deleted \(no longer in robot\.yaml; changed outside robotctl since the state recorded it: --force\)/);
  hooks = await allHooks();
  t.notOk(byId(hooks, f3.id), 'deleted on --force');
  t.notOk((JSON.parse(readFileSync(statePath(dir), 'utf8')) as typeof state).webhooks.t2, 'and its entry gone');
  t.equal((await cli(['diff', '-f', 'robot.yaml'], dir)).code, 0);
});
