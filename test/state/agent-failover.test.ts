import t from 'tap';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { until } from '../agent/fixture.js';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { startAgentProc as startAgent, type AgentProc } from './agent-proc.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { readRunning } from '../../runtime/daemon/apps/running-record.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { BODIES, makeApp } from '../helpers/python-apps.js';

// Two `robotctl agent` processes on one PostgreSQL state: exactly one leads
// and reconciles, the other serves its status page and stands by. kill -9
// of the leader: the server closes its session, the advisory lock is free,
// the other agent takes the lead and converges a change made meanwhile in
// well under 15 s, with no webhook made twice and the robot's app started
// once (the new leader finds it running and leaves it alone).

const USER = { name: 'demo', token: 'hf_failover_token_0123456789' };

interface Robot { url: string; app: string }

const config = (pgUrl: string, hooks: string[], robot: Robot) => `version: 1
state: { backend: postgres, url: "${pgUrl}", key: failover }
webhooks:
${hooks.map((h) => `  ${h}: { url: "http://127.0.0.1:9/hooks/${h}", watched: [user:demo] }`).join('\n')}
apps:
  failover_app: { path: "${robot.app}" }
active: failover_app
robots:
  r1: { url: ${robot.url} }
rollout: { healthy_for: 1.5s }
`;

t.test('leader failover of two agents on postgres', { skip: postgresMissing() ?? false }, async (t) => {
  const pg = await startPostgres();
  t.teardown(() => pg.stop());
  const hub = await startHub({ users: [USER] });
  t.teardown(() => hub.close());
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-failover-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, stopTimeoutMs: 3000 });
  t.teardown(() => daemon.close());
  const robotClient = createDaemonClient({ baseUrl: daemon.url });
  t.teardown(() => robotClient.close());
  const robot: Robot = { url: daemon.url, app: makeApp(join(dir, 'src'), 'failover_app', BODIES.cooperative) };
  const file = join(dir, 'robot.yaml');
  // Trust auth ignores the password; it is there to show it is never shown.
  const pgUrl = pg.url.replace('postgres@', 'postgres:pw-not-shown@');
  writeFileSync(file, config(pgUrl, ['one', 'two', 'three'], robot));
  const env = { ...process.env, NO_COLOR: '1', HF_ENDPOINT: hub.url, HF_TOKEN: USER.token };
  const agents: AgentProc[] = [];
  t.teardown(() => { for (const a of agents) if (a.child.exitCode === null) a.child.kill('SIGKILL'); });

  const a = startAgent(file, env);
  agents.push(a);
  await until(() => /^converged$/m.test(a.out()), 60_000, 'the first agent converged');
  t.match(a.out(), /^leader: this agent reconciles/m);
  const appBefore = await robotClient.currentAppStatus();
  t.equal(appBefore?.state, 'running', 'the first leader started the robot\'s app');
  const pidBefore = (await readRunning(join(dir, 'robot')))?.app?.pid;
  t.ok(pidBefore, 'the daemon recorded the app process');
  const b = startAgent(file, env);
  agents.push(b);
  const bUrl = await b.url;
  await until(() => /^standing by: the leader is pid \d+/m.test(b.out()), 30_000, 'the second agent stands by');
  t.match(b.out(), new RegExp(`standing by: the leader is pid ${a.child.pid} on host \\S+`), 'it names the leader');
  const st = (await (await fetch(`${bUrl}/status`)).json()) as AgentStatus;
  t.equal(st.leadership?.role, 'standby', 'its status page says it stands by');
  t.match(st.leadership?.leader, new RegExp(`^pid ${a.child.pid} `));
  t.match(st.leadership?.state, /^postgres postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres table robotctl_state key failover$/);
  t.notOk(JSON.stringify(st).includes('pw-not-shown') || a.out().includes('pw-not-shown') || b.out().includes('pw-not-shown'), 'the password is never shown');

  const gone = once(a.child, 'exit');
  a.child.kill('SIGKILL');
  await gone;
  const killedAt = Date.now();
  writeFileSync(file, config(pgUrl, ['one', 'two', 'three', 'four'], robot));
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(() => hubClient.close());
  await until(async () => /^leader: /m.test(b.out()) && (await hubClient.listWebhooks()).length === 4 && /^converged$/m.test(b.out()), 30_000, 'the second agent converged');
  const failover = Date.now() - killedAt;
  t.ok(failover < 15_000, `took over and converged ${failover} ms after kill -9 (target < 15 s)`);
  const hooks = await hubClient.listWebhooks();
  t.equal(new Set(hooks.map((h) => h.url)).size, 4, 'one webhook per name: none made twice');
  const done = b.out().split('\n').filter((l) => /^\s+done\s/.test(l));
  t.equal(done.length, 1, `the new leader did only what was left: ${done.join(' | ')}`);
  t.match(done[0], /create webhooks\.four/);
  const appAfter = await robotClient.currentAppStatus();
  t.equal(appAfter?.state, 'running');
  t.equal((await readRunning(join(dir, 'robot')))?.app?.pid, pidBefore, 'the same app process: not started twice');
  b.child.kill('SIGTERM');
  t.equal((await once(b.child, 'exit'))[0], 0);
});
