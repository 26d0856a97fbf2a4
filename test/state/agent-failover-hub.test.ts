import t from 'tap';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { AgentStatus } from '../../reconciler/agent/status-types.js';
import { until } from '../agent/fixture.js';
import { doneLines, startAgentProc, type AgentProc } from './agent-proc.js';

// Two `robotctl agent` processes on one hub-dataset state, leader elected on
// a lease (3 s here). Both ways a leader goes away:
//   1. it stops (SIGSTOP: its pid still runs, it no longer renews): the lease
//      expires and the other agent takes over and converges a change; when the
//      old leader resumes it finds the lease taken over and stands by;
//   2. it is killed (kill -9): its pid is dead on this host, so the standby
//      takes over at its next poll and converges another change.
// Each time within 15 s, and no webhook is ever made twice.

const USER = { name: 'demo', token: 'hf_failover_hub_token_0123456789' };
const REPO = 'demo/failover-state';

const config = (hooks: string[]): string => `version: 1
state: { backend: hub, repo: ${REPO}, lease: 3s }
webhooks:
${hooks.map((h) => `  ${h}: { url: "http://127.0.0.1:9/hooks/${h}", watched: [user:demo] }`).join('\n')}
`;

t.test('leader failover of two agents on the hub backend: lease expiry, then kill -9', async (t) => {
  const hub = await startHub({ users: [USER] });
  t.teardown(() => hub.close());
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-failover-hub-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, config(['one', 'two', 'three']));
  const env = { ...process.env, NO_COLOR: '1', HF_ENDPOINT: hub.url, HF_TOKEN: USER.token };
  const agents: AgentProc[] = [];
  t.teardown(() => { for (const x of agents) if (x.child.exitCode === null) { x.child.kill('SIGCONT'); x.child.kill('SIGKILL'); } });
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(() => client.close());
  const converged = async (x: AgentProc, n: number): Promise<boolean> =>
    /^leader: /m.test(x.out()) && (x.out().match(/^converged$/gm) ?? []).length >= 1 && (await client.listWebhooks()).length === n;

  const a = startAgentProc(file, env);
  agents.push(a);
  await until(() => converged(a, 3), 60_000, () => `the first agent converged:\n${a.out()}`);
  const b = startAgentProc(file, env);
  agents.push(b);
  const bUrl = await b.url;
  await until(() => new RegExp(`^standing by: the leader is pid ${a.child.pid} on host \\S+`, 'm').test(b.out()), 30_000, () => `the second agent stands by:\n${b.out()}`);
  const st = (await (await fetch(`${bUrl}/status`)).json()) as AgentStatus;
  t.equal(st.leadership?.role, 'standby', 'its status page says it stands by');
  t.equal(st.leadership?.state, `hub dataset ${REPO} (state.json)`, 'and names the shared state');

  // 1. The leader stops renewing: the lease decides.
  a.child.kill('SIGSTOP');
  const stoppedAt = Date.now();
  writeFileSync(file, config(['one', 'two', 'three', 'four']));
  await until(async () => /^leader: /m.test(b.out()) && (await client.listWebhooks()).length === 4 && /^converged$/m.test(b.out()), 30_000, () => `the second agent converged:\n${b.out()}`);
  const expiry = Date.now() - stoppedAt;
  t.ok(expiry < 15_000, `took over after the lease expired and converged ${expiry} ms after the leader stopped (target < 15 s)`);
  t.match(b.out(), new RegExp(`^Took over the agents' leader lock of pid ${a.child.pid} on host \\S+ \\(agent since \\S+\\): its lease expired at \\S+\\.$`, 'm'), 'one line says whose lease it took over');
  const bDone = doneLines(b.out());
  t.equal(bDone.length, 1, `the new leader did only what was left: ${bDone.join(' | ')}`);
  t.match(bDone[0], /create webhooks\.four/);
  a.child.kill('SIGCONT');
  // Woken up, the old leader either reads the new holder first or its own
  // renewal timer fires first and finds its lease past: both are true, and
  // which comes first depends on the machine's load.
  await until(() => /^lost leadership \(the lease (was taken over|expired before it could be renewed)\): standing by$/m.test(a.out()), 30_000, () => `the old leader stands by:\n${a.out()}`);
  await until(() => new RegExp(`^standing by: the leader is pid ${b.child.pid} `, 'm').test(a.out()), 30_000, () => `the old leader names the new one:\n${a.out()}`);

  // 2. kill -9 of the new leader: a dead pid on this host is seen at the next poll.
  const gone = once(b.child, 'exit');
  b.child.kill('SIGKILL');
  await gone;
  const killedAt = Date.now();
  writeFileSync(file, config(['one', 'two', 'three', 'four', 'five']));
  await until(async () => (a.out().match(/^leader: /gm) ?? []).length === 2 && (await client.listWebhooks()).length === 5 && (a.out().match(/^converged$/gm) ?? []).length >= 2, 30_000, () => `the first agent leads again:\n${a.out()}`);
  const failover = Date.now() - killedAt;
  t.ok(failover < 15_000, `took over and converged ${failover} ms after kill -9 (target < 15 s)`);
  const hooks = await client.listWebhooks();
  t.equal(new Set(hooks.map((h) => h.url)).size, 5, 'one webhook per name: none made twice');
  const done = doneLines(a.out()).join('\n');
  t.equal((done.match(/create webhooks\.four/g) ?? []).length, 0, 'the old leader did not redo what the other did');
  t.equal((done.match(/create webhooks\.five/g) ?? []).length, 1, 'it created the new one once');
  const exit = once(a.child, 'exit');
  a.child.kill('SIGTERM');
  t.equal((await exit)[0], 0, 'the agent stops cleanly and releases its leases');
  const present = (p: string): Promise<string | null> => client.downloadFile('dataset', REPO, p).then(() => p, () => null);
  t.same(await Promise.all(['state.json', 'state.json.lock', 'state.json.leader.lock'].map(present)), ['state.json', null, null], 'no lease left behind');
});
