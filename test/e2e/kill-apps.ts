import type { Test } from 'tap';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { startHub } from '../../runtime/hub/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { runCli } from '../helpers/cli.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { until } from '../helpers/wait.js';
import { USER, env, spawnCli, writeYaml } from './helpers.js';

// The kill -9 matrix of issue 29.4 for apps (not a test itself): for one
// state backend, rounds that kill `robotctl apply` at the four moments where
// an app's record can be lost, then drop the app from robot.yaml (or finish
// the removal) and converge. Before the intent record, a kill in the hub's
// and PostgreSQL's one-second batch window lost an install's record, and the
// next apply said "Left alone (not managed by this file)" with diff at 0: an
// orphan nothing removes. Counted over all rounds: orphans (an app robot.yaml
// no longer declares still on the robot after the converging apply, or an
// app it declares missing) and duplicates (a webhook name or app name twice).
//
//   install-done      killed just after an install was reported, while the next install runs
//   install-inflight  killed while the daemon runs the install job
//   remove-inflight   killed while the daemon runs the remove job
//   remove-done       killed just after a removal was reported, while the next removal runs

export type KillPoint = 'install-done' | 'install-inflight' | 'remove-inflight' | 'remove-done';
export const KILL_POINTS: KillPoint[] = ['install-done', 'install-inflight', 'remove-inflight', 'remove-done'];

export interface MatrixResult {
  rounds: number;
  orphans: string[];
  duplicates: string[];
  /** What each round did, for the test's messages. */
  log: string[];
}

const yaml = (state: string, robot: string, apps: Record<string, string>): string => {
  const listed = Object.entries(apps).map(([n, p]) => `  ${n}: { path: "${p}" }`);
  return `version: 1
${state ? `state: ${state}\n` : ''}webhooks:
  keep: { url: "http://127.0.0.1:9/keep", watched: [user:${USER.name}] }
apps:${listed.length === 0 ? ' {}' : `\n${listed.join('\n')}`}
active: null
robots:
  r1: { url: ${robot} }
`;
};

/** `state`: robot.yaml's state block ('' for the local file beside it). */
export async function killMatrix(t: Test, state: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<MatrixResult> {
  const scratch = fileScratch('kill-apps');
  const hub = await startHub({ users: [USER] });
  const daemon: FastifyInstance = await buildDaemon({ appsDir: join(scratch.dir, 'robot'), sim: true, port: 0, stopTimeoutMs: 3000 });
  await daemon.listen({ host: '127.0.0.1', port: 0 });
  const addr = daemon.server.address();
  const robotUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  daemon.daemon.url = robotUrl;
  const robot = createDaemonClient({ baseUrl: robotUrl });
  const hubClient = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(async () => {
    await robot.close();
    await hubClient.close();
    await daemon.close();
    await hub.close();
    scratch.remove();
  });
  const dir = join(scratch.dir, 'conf');
  mkdirSync(dir, { recursive: true });
  const e = env(hub.url, extraEnv);
  const write = (apps: string[]): void => {
    writeYaml(dir, 'robot.yaml', yaml(state, robotUrl, Object.fromEntries(apps.map((a) => [a, makeApp(join(scratch.dir, 'src'), a, QUIET_BODY)]))));
  };
  const apply = async (what: string): Promise<void> => {
    const r = await runCli(['apply', '-f', 'robot.yaml', '--yes'], { env: e, cwd: dir });
    if (r.code !== 0) throw new Error(`${what}: apply exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  };
  /** Start an apply and kill -9 it once `ready` says so; then wait until the daemon's jobs are over. */
  const killedApply = async (ready: (out: () => string) => boolean | Promise<boolean>): Promise<void> => {
    const child = spawnCli(['apply', '-f', 'robot.yaml', '--yes'], { env: e, cwd: dir });
    await until(() => child.proc.exitCode !== null || ready(child.stdout), 120_000, () => `the moment to kill:\n${child.stdout()}\n${child.stderr()}`);
    child.proc.kill('SIGKILL');
    await child.exited;
    await daemon.daemon.jobs.drain();
  };
  const jobRunning = (command: string) => (): boolean => daemon.daemon.jobs.busy([command]);
  const installed = async (): Promise<string[]> => (await robot.listInstalled()).map((a) => a.name);

  const result: MatrixResult = { rounds: 0, orphans: [], duplicates: [], log: [] };
  const check = async (round: string, declared: string[], gone: string[]): Promise<void> => {
    const names = await installed();
    for (const a of gone) if (names.includes(a)) result.orphans.push(`${round}: ${a} left on the robot`);
    for (const a of declared) if (!names.includes(a)) result.orphans.push(`${round}: ${a} missing`);
    if (new Set(names).size !== names.length) result.duplicates.push(`${round}: an app listed twice (${names.join(', ')})`);
    const keep = (await hubClient.listWebhooks()).filter((h) => h.url === 'http://127.0.0.1:9/keep').length;
    if (keep !== 1) result.duplicates.push(`${round}: ${keep} webhooks named keep`);
    const diff = await runCli(['diff', '-f', 'robot.yaml'], { env: e, cwd: dir });
    if (diff.code !== 0) result.orphans.push(`${round}: diff exited ${diff.code}: ${diff.stdout}`);
  };

  write([]);
  await apply('the first apply');
  for (const [i, point] of KILL_POINTS.entries()) {
    const [x, y] = [`k${i}_x_app`, `k${i}_y_app`];
    if (point.startsWith('install')) {
      write([x, y]);
      await killedApply(point === 'install-done' ? (out) => out().includes(`robots.r1: install ${x} ok`) : jobRunning('install'));
      write([]);
      await apply(`${point}: dropping ${x} and ${y}`);
      await check(point, [], [x, y]);
      result.log.push(`${point}: ${x} and ${y} asked for, killed, dropped`);
    } else {
      write([x, y]);
      await apply(`${point}: installing ${x} and ${y}`);
      write([]);
      await killedApply(point === 'remove-done' ? (out) => out().includes(`robots.r1: remove ${x} ok`) : jobRunning('remove'));
      await apply(`${point}: finishing the removal`);
      await check(point, [], [x, y]);
      // The same names once more: installed once each, none made twice.
      write([x, y]);
      await apply(`${point}: installing ${x} and ${y} again`);
      await check(`${point} (again)`, [x, y], []);
      write([]);
      await apply(`${point}: dropping them for good`);
      result.log.push(`${point}: ${x} and ${y} installed, removal killed, finished, installed again`);
    }
    result.rounds += 1;
  }
  return result;
}
