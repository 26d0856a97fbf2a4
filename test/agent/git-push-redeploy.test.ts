import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoop, until, USER, type Loop, type Robot } from './fixture.js';
import { runAgent, type TestAgent } from './run-agent.js';
import { gitUser } from '../hub/git-helpers.js';

// The Space author's loop end to end: `git push` to the embedded hub, the
// hub's delivery reaches the agent, the robot reinstalls and restarts the app.

let loop: Loop;
let a: TestAgent | null = null;
t.teardown(async () => {
  await a?.stop();
  await loop?.close();
});

t.test('git push to an app Space redeploys it on the robot', async (t) => {
  loop = await startLoop({ robots: ['r1'], apps: ['app_a'] });
  loop.writeConfig();
  a = await runAgent(loop, { intervalMs: 600_000 });
  t.equal((await a.agent.firstRun).result, 'converged', a.lines.join('\n'));
  const [r1] = loop.robots as [Robot];
  const installedSha = async (): Promise<unknown> => (await r1.client.listInstalled()).find((x) => x.name === 'app_a')?.extra.installed_sha;

  const author = gitUser(join(loop.dir, 'author-home'), { url: loop.hub.url, user: USER.name, token: USER.token });
  const clone = await author.run(['clone', '--quiet', `${loop.hub.url}/spaces/demo/app_a`, 'app_a'], loop.dir);
  t.equal(clone.code, 0, clone.stderr);
  const work = join(loop.dir, 'app_a');
  writeFileSync(join(work, 'app_a', '__init__.py'), 'VERSION = "pushed"\n');
  await author.run(['commit', '--quiet', '-am', 'New version'], work);
  const push = await author.run(['push', '--quiet'], work);
  t.equal(push.code, 0, push.stderr);
  const pushed = (await author.run(['rev-parse', 'HEAD'], work)).stdout.trim();

  await until(async () => (await installedSha()) === pushed, 300_000, 'app_a reinstalled at the pushed commit');
  await until(async () => (await r1.client.currentAppStatus())?.state === 'running', 60_000, 'app_a running again');
  await a.agent.idle();
  const st = (await (await fetch(`${a.agent.url}/status`)).json()) as { deliveries: { repo: string; outcome: string; action: string }[] };
  t.match(st.deliveries.find((d) => d.repo === 'space:demo/app_a'), { outcome: 'ok', action: /redeploy app_a on r1/ }, 'the push reached the agent as a delivery');
});
