import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UsageError, UserError, errorMessage } from '../../lib/errors.js';
import { packagePath } from '../../lib/paths.js';
import { newCommand, parse } from '../command.js';
import { loadOrExit, parseDuration } from '../session/session.js';
import { EMBEDDED_HUB_PORT, startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { launchAgent } from './agent.js';
import type { Agent } from '../../reconciler/agent/agent.js';
import type { Config } from '../../schema/types.js';
import { runningApps, startRobots, stopRobots } from '../up/robots.js';
import { examplesToPublish, publishExamples } from '../up/publish.js';
import { whereLines, type WhereInput } from '../up/print.js';
import { Teardown } from '../up/teardown.js';
import { waitForStop } from '../session/stop-signals.js';
import { configEnvPath, readConfigEnv, updateConfigEnv } from '../session/config-env.js';
import { openStateOf } from '../session/state.js';
import { lockUpData } from '../up/session-lock.js';
import { checkPython } from '../up/preflight.js';
import { pythonCommand } from '../app/process.js';
import { sessionToken } from '../up/token.js';
import { EXIT } from '../exit-codes.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';

interface Options extends AllowedHostFlags { file?: string; data?: string; interval: string; hubPort: string }

/** The hub's fixed port, so HF_ENDPOINT and git remotes stay valid across restarts. */
export const UP_HUB_PORT = EMBEDDED_HUB_PORT;

const USER = 'demo';

const HELP_AFTER = `
Runs the whole GitOps loop on this machine, with no network and no account.
First it checks what the robots' Python apps need (python3 or ROBOTCTL_PYTHON, its venv module,
and offline the wheel file) and stops at once, starting nothing, with the fix when one is missing. Then:
  1. the embedded hub on http://127.0.0.1:${UP_HUB_PORT} (--hub-port), user ${USER}, its token kept in <data>/hub-token (0600)
     and reused by the next up, so HF_ENDPOINT, HF_TOKEN and git remotes stay valid;
  2. a simulated robot daemon for every robot of the file whose url is on this machine, on its port;
  3. the example apps the file names (Space ${USER}/<app>, folder examples/apps/<app>) published to the hub;
  4. the agent: webhooks created, apps installed, active apps started, receiver and fleet page served.
Then a publish or a commit to an app's Space redeploys it on the robots within seconds.
WEBHOOK_SECRET, when not exported, is generated once and kept in .robotctl/env beside the
file (0600); while up runs, HF_ENDPOINT and HF_TOKEN of its hub are kept there too. plan, diff,
apply, status and agent on the same file read that file (exported variables win), and up uses
the same state (.robotctl/state.json beside the file, or the file's state: block, or ROBOTCTL_STATE;
a hub backend's dataset is then on up's embedded hub, so its owner is ${USER}), so
\`robotctl plan -f <file>\` in another terminal sees what up did.
Data (hub, robots' apps) stays in --data, default .robotctl/up/ beside the file, so the next up is faster.
One up per data folder: a second one refuses to start and changes nothing.
Ctrl-C stops everything and leaves no process behind.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withAllowedHostOption(newCommand('up', io))
    .description('Run the whole loop on this machine: embedded hub, simulated robots, agent')
    .option('-f, --file <file>', 'the robot.yaml (default: examples/fleet.yaml)')
    .option('--data <dir>', 'where the hub, the robots and the state keep their data (default: .robotctl/up/ beside the file)')
    .option('--interval <duration>', 'drift check interval', '60s')
    .option('--hub-port <port>', 'port of the embedded hub (0 = any free port)', String(UP_HUB_PORT))
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const out = (line: string): void => io.out(`${line}\n`);
  const prep = await prepare(o, io, out);
  const unlock = prep.unlock;
  const stop = waitForStop();
  let stopped = false;
  void stop.promise.then(() => { stopped = true; });
  const teardown = new Teardown(out);
  const running: { agent: Agent | null } = { agent: null };
  try {
    const up = await bringUp(prep, io, teardown, out, () => stopped);
    if (!up) return EXIT.ok;
    running.agent = up.agent;
    const first = await Promise.race([up.agent.firstRun, stop.promise.then(() => null)]);
    if (first === null) return EXIT.ok;
    out(`robotctl up: ready${first.result === 'converged' ? '' : ` (first run: ${first.result}; see the fleet page)`}`);
    const now = await runningApps(up.where.robots);
    for (const line of whereLines({ ...up.where, running: now, config: prep.config, cwd: io.cwd, agentUrl: up.agent.url })) out(line);
    await stop.promise;
    return EXIT.ok;
  } finally {
    stop.cancel();
    out('stopping: agent, robots and their apps, hub... (Ctrl-C again to abort the action in flight)');
    const again = waitForStop();
    void again.promise.then(() => { out('aborting the action in flight'); void running.agent?.stop(true); });
    await teardown.run();
    unlock();
    again.cancel();
    out('stopped');
  }
}

interface Prepared {
  file: string;
  config: Config;
  data: string;
  secret: string;
  intervalMs: number;
  hubPort: number;
  /** `--allowed-host`: for the hub, the robots and the agent's pages. */
  allowedHosts: string[];
  /** Releases the data folder's lock. */
  unlock: () => void;
}

async function prepare(o: Options, io: Io, out: (line: string) => void): Promise<Prepared> {
  const file = o.file ?? defaultFile(io.cwd);
  const intervalMs = parseDuration(o.interval, '--interval');
  const hubPort = Number(o.hubPort);
  if (!Number.isInteger(hubPort) || hubPort < 0 || hubPort > 65535) throw new UsageError(`--hub-port must be 0..65535, got '${o.hubPort}'`);
  // The lock comes before anything is written: the kept secret, the token, the hub's data.
  if (!existsSync(resolve(io.cwd, file))) loadOrExit(file, io, 'up'); // reports the missing file, creates nothing
  const data = o.data ? resolve(io.cwd, o.data) : join(dirname(resolve(io.cwd, file)), '.robotctl', 'up');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  const unlock = lockUpData(data);
  const secret = io.env.WEBHOOK_SECRET || await keptSecret(resolve(io.cwd, file), out).catch((err: unknown) => { unlock(); throw err; });
  let config: Config;
  try {
    config = loadOrExit(file, { ...io, env: { ...io.env, WEBHOOK_SECRET: secret } }, 'up');
    await checkPython(config, io);
  } catch (err) {
    unlock();
    throw err;
  }
  return { file, config, data, secret, intervalMs, hubPort, allowedHosts: o.allowedHost, unlock };
}

interface Up {
  agent: Agent;
  where: Omit<WhereInput, 'config' | 'cwd' | 'agentUrl' | 'running'>;
}

/** Hub, robots, published apps, agent; each registered for teardown as soon as it runs. Null when stopped meanwhile. */
async function bringUp(p: Prepared, io: Io, teardown: Teardown, out: (line: string) => void, stopped: () => boolean): Promise<Up | null> {
  const tokenFile = join(p.data, 'hub-token');
  const token = sessionToken(tokenFile);
  const hub = await startEmbeddedHub(p.data, token, p.hubPort, p.allowedHosts);
  teardown.add(() => hub.close());
  const envFile = configEnvPath(p.config.file);
  await updateConfigEnv(envFile, { HF_ENDPOINT: hub.url, HF_TOKEN: token });
  teardown.add(() => updateConfigEnv(envFile, { HF_ENDPOINT: null, HF_TOKEN: null }));
  out(`hub: ${hub.url} (data in ${join(p.data, 'hub')})`);
  const upIo: Io = { ...io, env: { ...io.env, HF_ENDPOINT: hub.url, HF_TOKEN: token, WEBHOOK_SECRET: p.secret } };

  const robots = await startRobots(p.config, { url: hub.url, token }, p.data, pythonCommand(io.env), p.allowedHosts);
  teardown.add(() => stopRobots(robots));
  for (const r of robots) out(`robot ${r.spec.name}: simulated daemon on ${r.daemon.url}`);
  if (stopped()) return null;

  const published = examplesToPublish(p.config, USER);
  const client = createHubClient({ endpoint: hub.url, token });
  teardown.add(() => client.close());
  await publishExamples(published, client, USER, join(p.data, 'published.json'), upIo);
  if (stopped()) return null;

  // The file's state: block (or ROBOTCTL_STATE), like plan and apply on it; a hub
  // backend is a dataset of this embedded hub (HF_ENDPOINT above), owned by demo.
  const store = await openStateOf(upIo, { file: p.file, token }, null);
  teardown.add(() => store.close());
  out(`state: ${store.where}`);
  out('agent: installing the apps and starting the active ones (the first up takes a while)...');
  const agent = await launchAgent(upIo, p.config, {
    file: p.file, store, token, intervalMs: p.intervalMs, mode: 'heal', receiverPort: null, allowedHosts: p.allowedHosts, log: out,
  });
  teardown.add(() => agent.stop());
  const clone = join(p.data, 'clones', published[0]?.app ?? 'app');
  return { agent, where: { hubUrl: hub.url, user: USER, tokenFile, robots, published, clone: { dir: clone, exists: existsSync(clone) } } };
}

/** The secret of an earlier up of this file, else a new one, kept in .robotctl/env beside it. */
async function keptSecret(file: string, out: (line: string) => void): Promise<string> {
  const path = configEnvPath(file);
  const kept = readConfigEnv(path).WEBHOOK_SECRET;
  if (kept) {
    out(`WEBHOOK_SECRET: using the one kept in ${path}`);
    return kept;
  }
  const secret = randomBytes(24).toString('hex');
  await updateConfigEnv(path, { WEBHOOK_SECRET: secret });
  out(`WEBHOOK_SECRET is not set: generated one and kept it in ${path} (0600), where plan, apply and agent find it`);
  return secret;
}

/** examples/fleet.yaml of the working folder (a clone), else the one shipped in the package. */
function defaultFile(cwd: string): string {
  const local = join(cwd, 'examples', 'fleet.yaml');
  return existsSync(local) ? local : packagePath('examples', 'fleet.yaml');
}

async function startEmbeddedHub(data: string, token: string, port: number, allowedHosts: string[]): Promise<RunningHub> {
  const log = createWriteStream(join(data, 'hub.log'), { flags: 'a', mode: 0o600 });
  try {
    const hub = await startHub({ port, dataDir: join(data, 'hub'), users: [{ name: USER, token }], allowedHosts, log: (line) => { log.write(`${line}\n`); } });
    const close = hub.close;
    return { ...hub, close: async () => { await close(); log.end(); } };
  } catch (err) {
    log.end();
    const busy = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ` (port ${port} is taken: pass --hub-port)` : '';
    throw new UserError(`cannot start the embedded hub with data in ${join(data, 'hub')}: ${errorMessage(err)}${busy}`);
  }
}
