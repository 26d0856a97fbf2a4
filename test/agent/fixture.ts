import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { pidFileBody, appFiles as pythonApp, writeFiles } from '../helpers/python-apps.js';
import { freePort } from '../helpers/ports.js';

// A whole GitOps loop on loopback: the embedded hub with two app Spaces,
// simulated robots, and a folder for robot.yaml and the state. The apps are
// stdlib-only Python that write their pid to a file (so a restart shows as a
// new pid) and exit 0 on SIGINT.

export const USER = { name: 'demo', token: 'hf_agent_test_token_0123456789' };
export const SECRET = 'agent-test-webhook-secret';

/** Write an app's files into a folder (for path apps). */
export function writeApp(root: string, name: string, version: string): string {
  return writeFiles(join(root, name), appFiles(name, version));
}

/** A quiet app that records its pid (see pidFileBody); `version` changes its content. */
export function appFiles(name: string, version: string): Record<string, string> {
  return pythonApp(name, pidFileBody(name), { marker: version });
}

export interface Robot {
  name: string;
  daemon: RunningDaemon;
  client: DaemonClient;
  port: number;
}

export interface ConfigOptions {
  active?: string;
  /** Per-robot active app. */
  overrides?: Record<string, string>;
  /** A path app every robot installs: name → folder. */
  local?: Record<string, string>;
  /** robot.yaml's rollout: block (flow style); default `{ parallelism: 4 }`. */
  rollout?: string;
  /** Extra top-level lines (e.g. a notify: block). */
  extra?: string;
}

export interface Loop {
  dir: string;
  hub: RunningHub;
  hubClient: HubClient;
  robots: Robot[];
  receiverPort: number;
  file: string;
  statePath: string;
  env: NodeJS.ProcessEnv;
  /** Pid of the app process last started on a robot, or null. */
  pid(robot: Robot, app: string): number | null;
  writeConfig(opts?: ConfigOptions): void;
  close(): Promise<void>;
}

export async function startLoop(opts: { robots: string[]; apps: string[] }): Promise<Loop> {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-agent-'));
  const pids = join(dir, 'pids');
  mkdirSync(pids);
  const hub = await startHub({ users: [USER], port: 0, retryBaseMs: 100, deliveryTimeoutMs: 5000 });
  for (const app of opts.apps) {
    await hub.createRepo(USER.name, 'space', `demo/${app}`, { sdk: 'static' });
    await hub.commit(USER.name, 'space', `demo/${app}`, appFiles(app, 'v1'), 'first version');
  }
  const robots: Robot[] = [];
  for (const name of opts.robots) {
    const daemon = await startDaemon({
      appsDir: join(dir, 'robots', name), sim: true, port: 0, robotName: name, hubEndpoint: hub.url, hubToken: USER.token,
      startupApp: null, stopTimeoutMs: 5000, env: { ...process.env, AGENT_TEST_PIDS: pids }, appEnv: ['AGENT_TEST_PIDS'],
    });
    const port = Number(new URL(daemon.url).port);
    robots.push({ name, daemon, port, client: createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 120_000 }) });
  }
  const receiverPort = await freePort();
  const file = join(dir, 'robot.yaml');
  const loop: Loop = {
    dir, hub, robots, receiverPort, file,
    hubClient: createHubClient({ endpoint: hub.url, token: USER.token }),
    statePath: join(dir, '.robotctl', 'state.json'),
    env: { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, WEBHOOK_SECRET: SECRET, PATH: process.env.PATH ?? '' },
    pid: (robot, app) => {
      const f = join(pids, `${robot.port}-${app}.pid`);
      return existsSync(f) ? Number(readFileSync(f, 'utf8')) : null;
    },
    writeConfig: (o = {}) => writeFileSync(file, fleetYaml(loop, opts.apps, o)),
    close: async () => {
      await loop.hubClient.close();
      for (const r of robots) {
        await r.client.close();
        await r.daemon.close();
      }
      await hub.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return loop;
}

function fleetYaml(loop: Loop, apps: string[], o: ConfigOptions): string {
  const watched = apps.map((a) => `      - space:demo/${a}`).join('\n');
  const appLines = [
    ...apps.map((a) => `  ${a}: { source: ${loop.hub.url}/spaces/demo/${a} }`),
    ...Object.entries(o.local ?? {}).map(([a, path]) => `  ${a}: { path: ${path} }`),
  ].join('\n');
  const robots = loop.robots.map((r) => {
    const active = o.overrides?.[r.name];
    return `  ${r.name}: { url: http://127.0.0.1:${r.port}${active ? `, active: ${active}` : ''} }`;
  }).join('\n');
  return `version: 1
webhooks:
  redeploy:
    url: http://127.0.0.1:${loop.receiverPort}/webhooks/redeploy
    watched:
${watched}
    domains: [repo]
    secret: \${WEBHOOK_SECRET}
apps:
${appLines}
active: ${o.active ?? apps[0]}
robots:
${robots}
rollout: ${o.rollout ?? '{ parallelism: 4 }'}
${o.extra ?? ''}
receiver:
  port: ${loop.receiverPort}
  secret: \${WEBHOOK_SECRET}
  endpoints:
    redeploy: { action: reconcile }
`;
}

export { freePort } from '../helpers/ports.js';
export { until } from '../helpers/wait.js';
