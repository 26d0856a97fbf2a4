import t from 'tap';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { runInPty } from '../helpers/pty.js';
import { QUESTION } from '../../cli/session/confirm.js';
import { SECRET, USER, env, writeYaml } from './helpers.js';

// apply asks Terraform's question on a terminal; only 'yes' applies.

let hub: RunningHub;
t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

const yaml = (tag: string): string =>
  `version: 1\nwebhooks:\n  hook:\n    url: https://example.org/${tag}\n    watched: [user:alice]\n    secret: \${WEBHOOK_SECRET}\n`;

async function hooks(tag: string): Promise<number> {
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  try {
    return (await client.listWebhooks()).filter((h) => h.url === `https://example.org/${tag}`).length;
  } finally {
    await client.close();
  }
}

t.test('answering yes on a terminal applies', async (t) => {
  const dir = t.testdir();
  const file = writeYaml(dir, 'robot.yaml', yaml('pty-yes'));
  const r = await runInPty(['apply', '-f', file], { env: env(hub.url), cwd: dir, answers: [{ when: 'accepted:', send: 'yes\n' }] });
  t.equal(r.code, 0, r.output);
  t.match(r.output, QUESTION.trim());
  const beforeQuestion = r.output.slice(0, r.output.indexOf(QUESTION.trim()));
  t.equal(beforeQuestion.split('Plan: ').length - 1, 1, 'the Plan: line is printed once before the question');
  t.match(beforeQuestion, /Plan: 1 to create, 0 to update, 0 to delete, 0 robot changes\.\r?\n\r?\n$/, 'then the question alone');
  t.match(r.output, 'webhooks.hook: created');
  t.notMatch(r.output, SECRET);
  t.equal(await hooks('pty-yes'), 1);
});

t.test('any other answer cancels and changes nothing', async (t) => {
  const dir = t.testdir();
  const file = writeYaml(dir, 'robot.yaml', yaml('pty-no'));
  const writes = hub.stats().writes;
  const r = await runInPty(['apply', '-f', file], { env: env(hub.url), cwd: dir, answers: [{ when: 'accepted:', send: 'y\n' }] });
  t.equal(r.code, 1, r.output);
  t.match(r.output, 'Apply cancelled: nothing was changed.');
  t.equal(hub.stats().writes, writes, 'no write reached the hub');
  t.equal(await hooks('pty-no'), 0);
});
