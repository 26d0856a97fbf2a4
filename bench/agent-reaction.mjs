// How fast the agent reacts, end to end on loopback (embedded hub, simulated
// robots, real drivers, real pip installs):
//   1. robot.yaml saved (the active app switches on one robot) → the agent's
//      run is converged (debounce, observe, stop, start, settle, verify);
//   2. a commit to an app's Space → the app is reinstalled and running again
//      at the new revision on 3 robots (delivery, observe, stop, update,
//      start on all three).
// Build first: it imports ../dist. Cleans up its temp folder and servers.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figure } from './lib/figures.mjs';
import { median, spaceApp, startBenchAgent, startBenchRobots, until } from './lib/agent-loop.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');

const USER = { name: 'demo', token: 'hf_bench_agent_token_0123456789' };
const ROUNDS = 3;
const RUN = randomUUID();

const appFiles = (name, version) => spaceApp(name, version, RUN);

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-agent-'));
const closers = [];
try {
  const hub = await startHub({ users: [USER], port: 0, retryBaseMs: 100 });
  closers.push(() => hub.close());
  for (const app of ['app_a', 'app_b']) {
    await hub.createRepo(USER.name, 'space', `demo/${app}`, { sdk: 'static' });
    await hub.commit(USER.name, 'space', `demo/${app}`, appFiles(app, 'v0'));
  }
  const robots = await startBenchRobots({ hub, user: USER, dir, names: ['r0', 'r1', 'r2'], closers });
  const file = join(dir, 'robot.yaml');
  const write = (r0Active) => writeFileSync(file, [
    'version: 1',
    'apps:',
    `  app_a: { source: ${hub.url}/spaces/demo/app_a }`,
    `  app_b: { source: ${hub.url}/spaces/demo/app_b }`,
    'active: app_a',
    'robots:',
    `  r0: { url: ${robots[0].url}, apps: [app_a, app_b], active: ${r0Active} }`,
    `  r1: { url: ${robots[1].url}, apps: [app_a] }`,
    `  r2: { url: ${robots[2].url}, apps: [app_a] }`,
    // The window every start waited before the health gate (min_ready's 1.5 s): these figures stay comparable.
    'rollout: { healthy_for: 1.5s }',
    'receiver:',
    '  port: 0',
    '  endpoints:',
    '    redeploy: { action: reconcile }',
    '',
  ].join('\n'));
  write('app_a');
  const { agent, close } = await startBenchAgent({ hub, user: USER, file, dir, space: 'demo/app_a' });
  closers.push(close);

  const running = async (r) => {
    const st = await r.client.currentAppStatus();
    return st?.state === 'running' ? st.info.name : null;
  };
  const saveTimes = [];
  for (let i = 0; i < ROUNDS * 2; i++) {
    const next = i % 2 === 0 ? 'app_b' : 'app_a';
    const runsBefore = agent.status().last_run?.started_at;
    const t0 = performance.now();
    write(next);
    await until(async () => {
      const last = agent.status().last_run;
      return last && last.started_at !== runsBefore && last.trigger === 'file' && last.result === 'converged' && (await running(robots[0])) === next;
    }, 20_000, `r0 runs ${next}`);
    saveTimes.push(performance.now() - t0);
  }
  figure({ name: `agent: robot.yaml save to converged, 1 robot (median of ${saveTimes.length})`, value: median(saveTimes), unit: 'ms', target: '< 2000', ok: median(saveTimes) < 2000 });

  const commitTimes = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const t0 = performance.now();
    const { commitOid } = await hub.commit(USER.name, 'space', 'demo/app_a', appFiles('app_a', `v${i}`), `v${i}`);
    const restarted = new Set();
    await until(async () => {
      for (const r of robots) {
        if (restarted.has(r)) continue; // running the new revision: asked no more
        const st = await r.client.currentAppStatus();
        if (st?.state !== 'running' || st.info.name !== 'app_a' || st.info.extra.installed_sha !== commitOid) return false;
        restarted.add(r);
      }
      return true;
    }, 60_000, 'app_a restarted at the new revision on 3 robots');
    commitTimes.push(performance.now() - t0);
    await agent.idle();
  }
  const cpu = process.cpuUsage();
  figure({ name: `agent: Space commit to app restarted on 3 robots (median of ${commitTimes.length})`, value: median(commitTimes), unit: 'ms', target: '< 3000', ok: median(commitTimes) < 3000,
    note: `CPU of the whole run (hub, agent, daemons; pip not included) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s` });
} finally {
  for (const close of closers.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
