import { basename } from 'node:path';
import { hostname } from 'node:os';
import type { Io } from '../../lib/io.js';
import { UsageError, UserError } from '../../lib/errors.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';
import { withSessionOptions, type SessionFlags } from '../session/options.js';
import { tokenFromFlags } from '../session/token-flags.js';
import { EXIT } from '../exit-codes.js';
import { newCommand, parse } from '../command.js';
import { loadOrExit, parseDuration } from '../session/session.js';
import type { StateStore } from '../../state/store.js';
import { openStateOf } from '../session/state.js';
import type { Config } from '../../schema/types.js';
import { startAgent, type Agent } from '../../reconciler/agent/agent.js';
import { driverPool, hubAccess } from '../session/drivers.js';
import { resolveToken } from '../../drivers/hub/token.js';
import { mountFleetPage } from '../../runtime/fleet-page/routes.js';
import { waitForStop } from '../session/stop-signals.js';
import { withConfigEnv } from '../session/config-env.js';
import { stampLines } from '../../lib/log-stamp.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';
import { commandLine } from '../views/command-line.js';

interface Options extends SessionFlags, AllowedHostFlags { interval: string; mode: string; receiverPort?: string }

const HELP_AFTER = `
On start it applies robot.yaml (heal) or only reports the difference (warn). Then:
  - a save of robot.yaml is re-planned and applied (an invalid file is reported
    and the last good version stays in force);
  - a change in the folder of a path app reinstalls it where installed and
    restarts it where active;
  - every --interval, drift is checked and healed (heal) or reported (warn);
  - the receiver section's endpoints take hub deliveries: a push to a Space that
    is an app's source redeploys that app on the robots that have it, any other
    delivery reconciles everything.
GET /status answers JSON (last run, drift, robots, deliveries); / is the fleet page.
Ctrl-C finishes the action in flight, releases the state lock and exits 0.
`;

export async function run(args: string[], outer: Io): Promise<number> {
  const cmd = withAllowedHostOption(withSessionOptions(newCommand('agent', outer)))
    .description('Watch robot.yaml, heal drift, and redeploy apps on hub deliveries')
    .option('--interval <duration>', 'drift check interval (e.g. 30s, 5m)', '60s')
    .option('--mode <mode>', 'heal: correct drift; warn: only report it', 'heal')
    .option('--receiver-port <port>', `receiver port (default: the file's receiver.port, else ${DEFAULT_RECEIVER_PORT}; 0 = any free port)`)
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const settings = parseOptions(o);
  const io = withConfigEnv(outer, o.file);
  const config = loadOrExit(o.file, io, 'agent');
  const token = tokenFromFlags(io, o);
  const store = await openStateOf(io, { file: o.file, state: o.state, token: token ?? undefined }, config.hub.endpoint, () => config.stateBlock ?? null);
  // Timestamped: an agent runs for days, and its lines are read beside the hub's and the robots' logs.
  const out = (line: string): void => io.out(`${stampLines(line)}\n`);
  const stop = waitForStop();
  const agent = await launchAgent(io, config, { ...settings, file: o.file, store, token, log: out, allowedHosts: o.allowedHost }).catch(async (err: unknown) => {
    stop.cancel();
    await store.close();
    throw err;
  });
  await stop.promise;
  out('stopping: finishing the action in flight (Ctrl-C again to abort it)');
  const again = waitForStop();
  void again.promise.then(() => { out('aborting the action in flight'); void agent.stop(true); });
  await agent.stop();
  await store.close();
  again.cancel();
  out('agent stopped');
  return EXIT.ok;
}

/**
 * `robotctl-agent (fleet.yaml; host)`: a daemon shows from it that robotctl
 * manages the robot (the simulated daemon's dashboard badge). Names only the
 * file and the host, never a path or a token.
 */
export function agentUserAgent(configFile: string): string {
  return `robotctl-agent (${basename(configFile)}; ${hostname()})`;
}

export interface LaunchOptions {
  file: string;
  /** Where the state lives (the caller closes it). */
  store: StateStore;
  /** From --token/--token-file; null: HF_TOKEN, then the token file. */
  token: string | null;
  intervalMs: number;
  mode: 'heal' | 'warn';
  receiverPort: number | null;
  /** `--allowed-host`: names the status API and fleet page answer under besides this machine's. */
  allowedHosts?: string[];
  log: (line: string) => void;
}

/** Start an agent on a loaded config with real drivers; `stop()` also closes the drivers. Used by `up` too. */
export async function launchAgent(io: Io, config: Config, o: LaunchOptions): Promise<Agent> {
  const owned = Object.keys((await o.store.read())?.webhooks ?? {}).length > 0;
  const access = hubAccess(resolveToken({ flag: o.token, env: io.env }), owned, config, commandLine(io));
  // The agent applies too: the connections of the robots its rollout works on
  // at once stay open (the size at start; a reload keeps it).
  const pool = driverPool(io.env, access.token, access.listWebhooks, { userAgent: agentUserAgent(config.file), robotsAtOnce: config.rollout.parallelism });
  let agent: Agent;
  try {
    agent = await startAgent(config, {
      file: o.file, cwd: io.cwd, env: io.env, mode: o.mode, intervalMs: o.intervalMs, store: o.store,
      drivers: pool.forConfig, receiverPort: o.receiverPort, allowedHosts: o.allowedHosts ?? [], log: o.log, pages: mountFleetPage, command: commandLine(io),
    });
  } catch (err) {
    await pool.close();
    throw listenError(err, o.receiverPort ?? config.receiver?.port ?? DEFAULT_RECEIVER_PORT, io);
  }
  const inner = agent;
  return {
    url: inner.url,
    get config() { return inner.config; },
    status: () => inner.status(),
    enqueue: (item) => inner.enqueue(item),
    idle: () => inner.idle(),
    firstRun: inner.firstRun,
    stop: async (abort) => { await inner.stop(abort); await pool.close(); },
  };
}

function parseOptions(o: Options): { intervalMs: number; mode: 'heal' | 'warn'; receiverPort: number | null } {
  if (o.mode !== 'heal' && o.mode !== 'warn') throw new UsageError(`--mode must be heal or warn, got '${o.mode}'`);
  const intervalMs = parseDuration(o.interval, '--interval');
  if (intervalMs < 1000) throw new UsageError('--interval must be at least 1s');
  let receiverPort: number | null = null;
  if (o.receiverPort !== undefined) {
    receiverPort = Number(o.receiverPort);
    if (!/^\d+$/.test(o.receiverPort) || receiverPort > 65535) throw new UsageError(`--receiver-port must be a number from 0 to 65535, got '${o.receiverPort}'`);
  }
  return { intervalMs, mode: o.mode, receiverPort };
}

function listenError(err: unknown, port: number, io: Io): Error {
  const code = (err as { code?: unknown }).code;
  const fix = `change receiver.port in robot.yaml (\`${commandLine(io)('agent')}\` also takes --receiver-port; 0 = any free port)`;
  if (code === 'EADDRINUSE') return new UserError(`the receiver cannot listen: port ${port} is already in use; stop what runs there or ${fix}`);
  if (code === 'EACCES') return new UserError(`the receiver is not allowed to listen on port ${port}; ${fix}`);
  return err instanceof Error ? err : new Error(String(err));
}
