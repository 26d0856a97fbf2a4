import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';

// `robotctl rollout history|retry` read only the state (like `robotctl
// state`): no hub, no robot, no secret needed. What they show after real
// rollouts is tested end to end in test/e2e/rollout.test.ts.

t.test('with no rollout yet: history says so, retry has nothing to release, a bad --limit is a usage error', async (t) => {
  const dir = t.testdir();
  writeFileSync(join(dir, 'robot.yaml'), 'version: 1\nwebhooks:\n  w: { url: https://x.org/h, watched: [user:a], secret: ${UNSET_SECRET} }\n');
  const history = await runInProcess(['rollout', 'history', '-f', 'robot.yaml'], { cwd: dir, env: {} });
  t.same([history.code, history.stdout], [0, 'No rollout yet.\n'], 'an unset variable elsewhere in the file does not matter');
  const json = await runInProcess(['rollout', 'history', '--json'], { cwd: dir, env: {} });
  t.same(JSON.parse(json.stdout), { format_version: '1.0', rollouts: [], held: {} });
  const retry = await runInProcess(['rollout', 'retry', 'hello_app', '-f', 'robot.yaml'], { cwd: dir, env: {} });
  t.same([retry.code, retry.stdout], [0, 'No revision of hello_app is held back: nothing to retry.\n']);
  const bad = await runInProcess(['rollout', 'history', '--limit', '0'], { cwd: dir, env: {} });
  t.equal(bad.code, 64);
  t.match(bad.stderr, /--limit: expected a whole number of 1 or more, got '0'/);
  const help = await runInProcess(['--help'], { cwd: dir, env: {} });
  t.match(help.stdout, /rollout +Rollouts: history/);
});
