import { createWriteStream, existsSync } from 'node:fs';
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
import { aheadLines, shown, whereLines, type WhereInput } from '../up/print.js';
import { Teardown } from '../up/teardown.js';
import { waitForStop } from '../session/stop-signals.js';
import { configEnvPath } from '../session/config-env.js';
import { sessionSecret, shareWhileRunning } from '../up/session-env.js';
import { openStateOf } from '../session/state.js';
import { lockFolder, lockUpData } from '../up/session-lock.js';
import { checkPorts, portsOf } from '../up/ports.js';
import { commandLine, robotctlOf } from '../views/command-line.js';
import { shellWord, type CommandLine } from '../../lib/command-line.js';
import { checkPython } from '../up/preflight.js';
import { pythonCommand } from '../../lib/python-apps/python.js';
import { sessionToken } from '../up/token.js';
import { EXIT } from '../exit-codes.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';

interface Options extends AllowedHostFlags { file?: string; data?: string; interval: string; hubPort: string }

/** The hub's fixed port, so HF_ENDPOINT and git remotes stay valid across restarts. */
export const UP_HUB_PORT = EMBEDDED_HUB_PORT;

const USER = 'demo';

const helpAfter = (command: CommandLine): string => `
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
\`${command('plan -f <file>')}\` in another terminal sees what up did.
Data (hub, robots' apps) stays in --data, default .robotctl/up/ beside the file, so the next up is faster.
An example app's Space is published again only when its folder changed since up last published it:
a Space pushed with git meanwhile is kept (up says it is ahead, and how to get its commits).
One up per folder of the file and per data folder, and every port free: otherwise it refuses at once
and changes nothing of the running one.
Ctrl-C stops everything and leaves no process behind.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withAllowedHostOption(newCommand('up', io))
    .description('Run the whole loop on this machine: embedded hub, simulated robots, agent')
    .option('-f, --file <file>', 'the robot.yaml (default: examples/fleet.yaml)')
    .option('--data <dir>', 'where the hub, the robots and the state keep their data (default: .robotctl/up/ beside the file)')
    .option('--interval <duration>', 'drift check interval', '60s')
    .option('--hub-port <port>', 'port of the embedded hub (0 = any free port)', String(UP_HUB_PORT))
    .addHelpText('after', () => helpAfter(commandLine(io)));
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
  /** Releases the locks of the file's folder and of the data folder. */
  unlock: () => void;
}

async function prepare(o: Options, io: Io, out: (line: string) => void): Promise<Prepared> {
  const file = o.file ?? defaultFile(io.cwd);
  const intervalMs = parseDuration(o.interval, '--interval');
  const hubPort = Number(o.hubPort);
  if (!Number.isInteger(hubPort) || hubPort < 0 || hubPort > 65535) throw new UsageError(`--hub-port must be 0..65535, got '${o.hubPort}'`);
  // The locks come before anything is written (the kept secret, the env file, the token, the hub's data),
  // and the checks (Python, ports) before anything starts: a refused up changes nothing of a running one.
  if (!existsSync(resolve(io.cwd, file))) loadOrExit(file, io, 'up'); // reports the missing file, creates nothing
  const abs = resolve(io.cwd, file);
  const unlocks: (() => void)[] = [lockFolder(dirname(configEnvPath(abs)), (pid) => alreadyRunning(pid, shown(io.cwd, abs), io))];
  const unlock = (): void => { for (const u of unlocks.reverse()) u(); };
  try {
    const data = o.data ? resolve(io.cwd, o.data) : join(dirname(abs), '.robotctl', 'up');
    unlocks.push(lockUpData(data));
    const secret = sessionSecret(abs, io.env);
    const config = loadOrExit(file, { ...io, env: { ...io.env, WEBHOOK_SECRET: secret.secret } }, 'up');
    await checkPython(config, io);
    await checkPorts(portsOf(config, hubPort), shown(io.cwd, abs));
    await secret.keep();
    if (secret.from === 'kept') out(`WEBHOOK_SECRET: using the one kept in ${secret.path}`);
    if (secret.from === 'new') out(`WEBHOOK_SECRET is not set: generated one and kept it in ${secret.path} (0600), where plan, apply and agent find it`);
    return { file, config, data, secret: secret.secret, intervalMs, hubPort, allowedHosts: o.allowedHost, unlock };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** The refusal of a second up of the same folder: what the running one already gives, and what would work. */
function alreadyRunning(pid: number, file: string, io: Io): string {
  return `robotctl up (pid ${pid}) is already running ${file}, and every up of that folder shares its .robotctl/ (state, env file): `
    + `use that session from another terminal (${commandLine(io)(`plan -f ${shellWord(file)}`)}), or stop it first (Ctrl-C in its terminal). `
    + 'A second session needs its own folder (a copy of the file and its apps) with other ports for its robots, receiver and hub (--hub-port).';
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
  teardown.add(await shareWhileRunning(p.config.file, { HF_ENDPOINT: hub.url, HF_TOKEN: token }));
  out(`hub: ${hub.url} (data in ${join(p.data, 'hub')})`);
  const upIo: Io = { ...io, env: { ...io.env, HF_ENDPOINT: hub.url, HF_TOKEN: token, WEBHOOK_SECRET: p.secret } };

  const robots = await startRobots(p.config, { url: hub.url, token }, p.data, pythonCommand(io.env), p.allowedHosts, commandLine(io));
  teardown.add(() => stopRobots(robots));
  for (const r of robots) out(`robot ${r.spec.name}: simulated daemon on ${r.daemon.url}`);
  if (stopped()) return null;

  const client = createHubClient({ endpoint: hub.url, token });
  teardown.add(() => client.close());
  const published = await publishExamples(examplesToPublish(p.config, USER), client, USER, join(p.data, 'published.json'), upIo);
  const robotctl = robotctlOf(io);
  const cloneOf = (app: string): { dir: string; exists: boolean } => {
    const dir = join(p.data, 'clones', app);
    return { dir, exists: existsSync(dir) };
  };
  for (const o of published.filter((x) => x.outcome === 'ahead')) {
    for (const line of aheadLines(o, { cwd: io.cwd, hubUrl: hub.url, user: USER, robotctl, clone: cloneOf(o.app) })) out(line);
  }
  if (stopped()) return null;

  // The file's state: block (or ROBOTCTL_STATE), like plan and apply on it; a hub
  // backend is a dataset of this embedded hub (HF_ENDPOINT above), owned by demo.
  const store = await openStateOf(upIo, { file: p.file, token }, null, () => p.config.stateBlock ?? null);
  teardown.add(() => store.close());
  out(`state: ${store.where}`);
  out('agent: installing the apps and starting the active ones (the first up takes a while)...');
  const agent = await launchAgent(upIo, p.config, {
    file: p.file, store, token, intervalMs: p.intervalMs, mode: 'heal', receiverPort: null, allowedHosts: p.allowedHosts, log: out,
  });
  teardown.add(() => agent.stop());
  return { agent, where: { hubUrl: hub.url, user: USER, tokenFile, robots, published, clone: cloneOf(published[0]?.app ?? 'app'), robotctl } };
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
