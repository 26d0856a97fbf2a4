import type { Test } from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub } from '../../runtime/hub/server.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';
import { startAgentProc, type AgentProc } from './agent-proc.js';

// The fencing scenario of issue 29.2 (not a test itself), for one state
// backend: two `robotctl agent` processes, A the leader and B standing by,
// each with its own robot.yaml that differs only in where it reaches the hub
// and the robot: A through recording proxies, B directly, so every request A
// sends is seen. The test holds the state lock (as a person's apply would)
// while robot.yaml changes: A's run waits for that lock. A is frozen
// (SIGSTOP) while it waits; B takes over once A's leader lease expired; the
// test lets the state lock go, robot.yaml changes again and B converges it.
// Then A resumes (SIGCONT) with its run's next poll and its timers due at
// once: before the fence, it took the state lock, applied its pre-freeze
// robot.yaml and committed a state serial. From then on A must send no hub
// write (webhook, lock or state commit) and no robot write, and the state's
// serial must not move. What was written, for the test to assert.

export const USER = { name: 'demo', token: 'hf_fencing_token_0123456789' };

export interface FencingOutcome {
  a: AgentProc;
  b: AgentProc;
  /** A's requests after SIGCONT that change something (not GET/HEAD), hub then robot. */
  hubWrites: string[];
  robotWrites: string[];
  /** For a failure's diagnosis: A's output and the start of each write's body (a commit's summary names what it wrote). */
  diagnosis: { a: string; bodies: string[] };
  serialBefore: number;
  serialAfter: number;
  /** B converged both changes while A was still frozen. */
  tookOverWhileFrozen: boolean;
  webhooks: number;
  running: string | null;
}

interface Wiring { hub: string; robot: string }

const yaml = (state: string, w: Wiring, apps: Record<string, string>, hooks: string[], active: string, note: string): string => `# ${note}
version: 1
state: ${state}
webhooks:
${hooks.map((h) => `  ${h}: { url: "http://127.0.0.1:9/hooks/${h}", watched: [user:demo] }`).join('\n')}
apps:
${Object.entries(apps).map(([n, p]) => `  ${n}: { path: "${p}" }`).join('\n')}
active: ${active}
robots:
  r1: { url: ${w.robot} }
rollout: { healthy_for: 1.5s }
`;

const changing = (p: FaultProxy, from: number) => p.seen.slice(from).filter((s) => s.method !== 'GET' && s.method !== 'HEAD');
const writes = (p: FaultProxy, from: number): string[] => changing(p, from).map((s) => `${s.method} ${s.url}`);

export interface Backend {
  /** The robot.yaml state block (lease 3s). */
  block: string;
  /** The stored state's serial. */
  serial(hubUrl: string): Promise<number>;
  /** Take the state lock in this process (a lease renewed while held). */
  holdStateLock(hubUrl: string): Promise<{ release(): Promise<void> }>;
}

export async function fencingScenario(t: Test, backend: Backend): Promise<FencingOutcome> {
  const state = backend.block;
  const serial = (url: string): Promise<number> => backend.serial(url);
  const scratch = fileScratch('fencing');
  const hub = await startHub({ users: [USER] });
  const daemon = await startDaemon({ appsDir: join(scratch.dir, 'robot'), sim: true, port: 0, stopTimeoutMs: 3000 });
  const hubProxy = await startFaultProxy(hub.url, () => null);
  const robotProxy = await startFaultProxy(daemon.url, () => null);
  const robot = createDaemonClient({ baseUrl: daemon.url });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  const agents: AgentProc[] = [];
  t.teardown(async () => {
    for (const x of agents) if (x.child.exitCode === null) { x.child.kill('SIGCONT'); x.child.kill('SIGKILL'); }
    await robot.close();
    await hubClient.close();
    await hubProxy.close();
    await robotProxy.close();
    await daemon.close();
    await hub.close();
    scratch.remove();
  });
  const apps = { one_app: makeApp(join(scratch.dir, 'src'), 'one_app', QUIET_BODY), two_app: makeApp(join(scratch.dir, 'src'), 'two_app', QUIET_BODY) };
  const fileOf = (who: string): string => { mkdirSync(join(scratch.dir, who), { recursive: true }); return join(scratch.dir, who, 'robot.yaml'); };
  const files = { a: fileOf('a'), b: fileOf('b') };
  const wiring = { a: { hub: hubProxy.url, robot: robotProxy.url }, b: { hub: hub.url, robot: daemon.url } };
  let edits = 0;
  const change = (hooks: string[], active: string): void => {
    edits += 1;
    for (const who of ['a', 'b'] as const) writeFileSync(files[who], yaml(state, wiring[who], apps, hooks, active, `edit ${edits}`));
  };
  const envOf = (w: Wiring): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1', HF_ENDPOINT: w.hub, HF_TOKEN: USER.token });
  const converged = async (x: AgentProc, runs: number, hooks: number, active: string): Promise<boolean> =>
    (x.out().match(/^converged$/gm) ?? []).length >= runs && (await hubClient.listWebhooks()).length === hooks
    && (await robot.currentAppStatus())?.info.name === active && (await robot.currentAppStatus())?.state === 'running';

  change(['one'], 'one_app');
  const a = startAgentProc(files.a, envOf(wiring.a));
  agents.push(a);
  await until(() => /^leader: /m.test(a.out()) && converged(a, 1, 1, 'one_app'), 90_000, () => `A leads and converges:\n${a.out()}`);
  const b = startAgentProc(files.b, envOf(wiring.b));
  agents.push(b);
  await until(() => /^standing by: the leader is pid /m.test(b.out()), 30_000, () => `B stands by:\n${b.out()}`);

  const held = await backend.holdStateLock(hub.url);
  change(['one', 'two'], 'two_app');
  await until(() => /^reconcile \(file\)/m.test(a.out()), 30_000, () => `A runs for the change and waits for the state lock:\n${a.out()}`);
  a.child.kill('SIGSTOP');
  await until(() => /^leader: /m.test(b.out()), 30_000, () => `B takes the lead while A is frozen:\n${b.out()}`);
  change(['one', 'two', 'three'], 'one_app');
  await held.release();
  // Done once its run ended (the state is written at the run's end).
  await until(async () => /^converged\n$/m.test(b.out().slice(-10)) && converged(b, 1, 3, 'one_app'), 60_000, () => `B converges while A is frozen:\n${b.out()}`);
  const tookOverWhileFrozen = a.child.signalCode === null && a.child.exitCode === null;
  const serialBefore = await serial(hub.url);
  const [hubMark, robotMark] = [hubProxy.seen.length, robotProxy.seen.length];

  a.child.kill('SIGCONT');
  await until(() => /^lost leadership \(.*\): standing by$/m.test(a.out()), 30_000, () => `A says it lost the lead:\n${a.out()}`);
  await until(() => new RegExp(`^standing by: the leader is pid ${b.child.pid} `, 'm').test(a.out()), 30_000, () => `A stands by, naming B:\n${a.out()}`);
  // One more change both see: B acts on it (nothing to do), A must not.
  const count = (re: RegExp): number => (b.out().match(re) ?? []).length;
  const [runsOfB, convergedOfB] = [count(/^reconcile \(file\)/gm), count(/^converged$/gm)];
  change(['one', 'two', 'three'], 'one_app');
  await until(() => count(/^reconcile \(file\)/gm) > runsOfB && count(/^converged$/gm) > convergedOfB, 30_000, () => `B saw the last change:\n${b.out()}`);
  return {
    a, b, tookOverWhileFrozen,
    hubWrites: writes(hubProxy, hubMark),
    robotWrites: writes(robotProxy, robotMark),
    diagnosis: { a: a.out(), bodies: [...changing(hubProxy, hubMark), ...changing(robotProxy, robotMark)].map((s) => `${s.url}: ${s.body.slice(0, 300)}`) },
    serialBefore,
    serialAfter: await serial(hub.url),
    webhooks: (await hubClient.listWebhooks()).length,
    running: (await robot.currentAppStatus())?.info.name ?? null,
  };
}
